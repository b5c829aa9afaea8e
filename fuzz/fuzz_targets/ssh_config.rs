//! Fuzz target: `hooks_fuzz::ssh_config` on arbitrary bytes (the logic and its invariants live in `src/lib.rs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| hooks_fuzz::ssh_config(data));
