//! Tests for `tool_type`.
