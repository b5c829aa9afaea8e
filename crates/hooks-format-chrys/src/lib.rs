//! Reads Chrys hooks.yaml/.yml/.json with Chrys 0.32.0's exact rules and speaks its file-based protocol (sans-IO).
