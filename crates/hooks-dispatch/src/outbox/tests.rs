//! Tests of the outbox.
