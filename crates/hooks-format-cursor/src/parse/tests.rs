//! Tests for `parse`.
