//! Tests of the inventory module.
