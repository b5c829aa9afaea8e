//! Tests of the parse module.
