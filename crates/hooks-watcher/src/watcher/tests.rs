//! Tests for the watcher: scripted events against the engine with a fake platform watch
//! (`scripted`), and the real platform watcher end to end (`real`).

mod real;
mod scripted;
mod support;
