//! Tests for `locate`.
