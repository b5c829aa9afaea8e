//! Tests for the merge rules.
