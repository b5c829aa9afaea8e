//! Discovers and hot-reloads project hook files under each project root (the only crate that uses notify).
