//! Permissions guard: hook files and the scripts they name cannot be edited by the agent.
