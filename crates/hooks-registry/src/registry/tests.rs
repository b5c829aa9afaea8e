//! Registry tests.
