//! Tests for `encode`.
