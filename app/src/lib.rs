//! The HookRuntime an agent product embeds, and the hooks command-line tool.
