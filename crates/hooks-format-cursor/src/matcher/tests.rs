//! Tests for `matcher`.
