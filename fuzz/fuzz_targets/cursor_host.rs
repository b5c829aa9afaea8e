//! Fuzz target: `hooks_fuzz::cursor_host` on arbitrary bytes (the logic and its invariants live in `src/lib.rs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| hooks_fuzz::cursor_host(data));
