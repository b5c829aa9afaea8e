//! Tests for `decode`.
