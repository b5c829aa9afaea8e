//! Explicit hook sources (WARP_HOOK_DIRS, run configuration), user-scope files, and the table of environment variables the engine reads.
