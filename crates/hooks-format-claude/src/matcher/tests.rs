//! Tests of the matcher module.
