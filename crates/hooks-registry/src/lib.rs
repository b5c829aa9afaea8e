//! Hook registry: per-source state, revisioned immutable snapshots, nearest-root bindings, pinning, protected paths.
