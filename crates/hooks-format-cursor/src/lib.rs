//! Reads Cursor's .cursor/hooks.json and speaks Cursor's hook protocol (sans-IO).
