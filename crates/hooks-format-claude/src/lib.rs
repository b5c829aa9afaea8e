//! Reads Claude Code settings.json hooks and speaks Claude Code's hook protocol, with the deny-only strict contract (sans-IO).
