//! Links the `hooks` binary as a position-dependent executable on Linux (`-no-pie`), unless
//! `HOOKS_PIE=1` is set at build time.
//!
//! An agent starts `hooks fire` / `hooks bridge` once per hook event, so the binary's start-up
//! is part of every event's cost. As a position-independent executable the dynamic loader
//! applies about 37 000 relative relocations at every start, writing every page of the
//! binary's `.data.rel.ro` (about 600 KB): some 150 copy-on-write page faults, half of the
//! process's faults and over a third of its CPU time when no hook runs. Linked at a fixed
//! address the binary needs none. The price: the `hooks` executable's own image is not
//! randomised by ASLR (the stack, heap, shared libraries and mappings still are); see
//! `specs/dispatch.md`, "One-shot `hooks fire` and `hooks bridge`", for the figures and the
//! trade-off. Packagers whose policy requires PIE build with `HOOKS_PIE=1`.
//!
//! Only the package's binaries get the flag (`rustc-link-arg-bins`): the library, its tests
//! and every other crate, proc macros included, are built as before.

// A build script's inputs are cargo's environment variables: it has no EnvVars table.
#[allow(clippy::disallowed_methods)]
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=HOOKS_PIE");
    let linux = std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux");
    let pie_wanted = std::env::var("HOOKS_PIE").is_ok_and(|v| v == "1");
    if linux && !pie_wanted {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
