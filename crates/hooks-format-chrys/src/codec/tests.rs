//! Tests for the codec.
