//! Tests of the json module.
