//! Tests of the codec module.
