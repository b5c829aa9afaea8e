//! Handle tests.
