//! Rendering definitions back into a Cursor `hooks.json` (for exports and round-trip tests).

use hooks_schema::{HookCommand, HookDefinition};
use serde_json::{Map, Number, Value};

use crate::events;

/// Renders the definitions that Cursor can express (a Cursor native event and a shell
/// command) as a `version: 1` file, grouped by native event in order of first appearance.
/// Definitions it cannot express are left out.
pub fn render(definitions: &[HookDefinition]) -> String {
    let mut hooks: Map<String, Value> = Map::new();
    for def in definitions {
        let HookCommand::Shell { script, .. } = &def.command else { continue };
        if events::lookup(&def.native_event).is_none() {
            continue;
        }
        let mut entry = Map::new();
        entry.insert("command".to_owned(), Value::String(script.clone()));
        if let Some(m) = def.native.get("matcher") {
            entry.insert("matcher".to_owned(), m.clone());
        }
        let secs = def.timeout.as_secs_f64();
        let timeout = if def.timeout.subsec_nanos() == 0 {
            Some(Number::from(def.timeout.as_secs()))
        } else {
            Number::from_f64(secs)
        };
        if let Some(t) = timeout {
            entry.insert("timeout".to_owned(), Value::Number(t));
        }
        if def.on_failure == hooks_schema::OnFailure::Block {
            entry.insert("failClosed".to_owned(), Value::Bool(true));
        }
        if let Some(l) = def.native.get("loop_limit") {
            entry.insert("loop_limit".to_owned(), l.clone());
        }
        let list =
            hooks.entry(def.native_event.clone()).or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(items) = list {
            items.push(Value::Object(entry));
        }
    }
    let mut top = Map::new();
    top.insert("version".to_owned(), Value::from(1));
    top.insert("hooks".to_owned(), Value::Object(hooks));
    let mut text = serde_json::to_string_pretty(&Value::Object(top)).unwrap_or_default();
    text.push('\n');
    text
}
