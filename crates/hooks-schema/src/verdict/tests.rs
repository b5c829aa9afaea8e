//! Tests of the verdict algebra.
