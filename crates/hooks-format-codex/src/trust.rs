//! Codex's own per-hook trust: the key and hash of each non-managed hook, and the
//! `[hooks.state]` table where the user's `config.toml` records what they trusted.
//!
//! Codex runs a non-managed hook (user or project) only when `[hooks.state."<key>"]` in
//! `$CODEX_HOME/config.toml` carries a `trusted_hash` equal to the hook's current hash, and
//! never when it says `enabled = false`. The key is `<source path>:<event label>:<group
//! index>:<handler index>`; the hash is `sha256:` and the hex SHA-256 of the canonical JSON
//! (keys sorted, no spaces) of the hook's normalized identity: `{"event_name": <label>,
//! "matcher"?: <matcher as kept>, "hooks": [{"type": "command", "command": <command before
//! substitution>, "timeout": <effective seconds>, "async": <bool>, "statusMessage"?: <text>,
//! "additionalContextLimit"?: <n>}]}`.
//! Checked against the hashes Codex 0.169.0 itself reports (`test_data/trust/`).
//!
//! How this combines with the engine's own trust is in `specs/formats/codex.md`, "Trust".

use std::{collections::BTreeMap, path::Path};

use hooks_schema::HookDefinition;
use serde::Deserialize;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

pub use crate::config::HookState;
use crate::{CodexEvent, config::HooksTable};

/// What the hash of a command hook covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HandlerIdentity<'a> {
    /// The event.
    pub event: CodexEvent,
    /// The group's matcher as Codex keeps it (`None` on events that drop matchers).
    pub matcher: Option<&'a str>,
    /// The command as written (before `${VAR}` substitution; `commandWindows` on Windows).
    pub command: &'a str,
    /// The effective timeout in seconds ([`CodexEvent::timeout_secs`]).
    pub timeout_secs: u64,
    /// `async`.
    pub async_: bool,
    /// `statusMessage`.
    pub status_message: Option<&'a str>,
    /// `additionalContextLimit` (part of the identity when set, which Codex 0.169.0's
    /// reported hashes show).
    pub additional_context_limit: Option<usize>,
}

/// The hook's trust hash as Codex computes it: `sha256:<hex>`.
///
/// ```
/// use hooks_format_codex::{CodexEvent, HandlerIdentity, hook_hash};
///
/// let h = hook_hash(&HandlerIdentity {
///     event: CodexEvent::PreToolUse,
///     matcher: Some("Bash"),
///     command: "python3 .codex/hooks/check.py",
///     timeout_secs: 30,
///     async_: false,
///     status_message: None,
///     additional_context_limit: None,
/// });
/// assert_eq!(h, "sha256:379ec52358b7b1a6905e31ff4e1dba2dbc7781c54957225dcbf7b2ed3e622455");
/// ```
pub fn hook_hash(id: &HandlerIdentity<'_>) -> String {
    let mut handler: BTreeMap<&str, Value> = BTreeMap::new();
    handler.insert("type", Value::from("command"));
    handler.insert("command", Value::from(id.command));
    handler.insert("timeout", Value::from(id.timeout_secs));
    handler.insert("async", Value::Bool(id.async_));
    if let Some(s) = id.status_message {
        handler.insert("statusMessage", Value::from(s));
    }
    if let Some(l) = id.additional_context_limit {
        handler.insert("additionalContextLimit", Value::from(l));
    }
    let mut identity: BTreeMap<&str, Value> = BTreeMap::new();
    identity.insert("event_name", Value::from(id.event.label()));
    if let Some(m) = id.matcher {
        identity.insert("matcher", Value::from(m));
    }
    // A BTreeMap serializes in key order, nested one too once it is a Value built from it.
    let handler = serde_json::to_value(&handler).unwrap_or(Value::Null);
    identity.insert("hooks", Value::Array(vec![handler]));
    let canonical = serde_json::to_string(&identity).unwrap_or_default();
    let digest = Sha256::digest(canonical.as_bytes());
    let mut out = String::with_capacity(7 + 64);
    out.push_str("sha256:");
    for b in digest {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

/// The hook's key in `[hooks.state]`: `<path>:<event label>:<group>:<handler>`.
pub fn hook_key(path: &Path, event: CodexEvent, group: usize, handler: usize) -> String {
    format!("{}:{}:{group}:{handler}", path.display(), event.label())
}

/// Why `[hooks.state]` could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot read [hooks.state]: {0}")]
pub struct StateError(String);

#[derive(Deserialize, Default)]
struct StateDoc {
    #[serde(default)]
    hooks: Option<HooksTable>,
}

/// The `[hooks.state]` table of a `config.toml` (Codex reads it from the user's file only).
///
/// # Errors
/// When the text is not TOML or `[hooks]` does not deserialize as Codex reads it.
pub fn hook_states(config_toml: &str) -> Result<BTreeMap<String, HookState>, StateError> {
    let doc: StateDoc =
        toml_edit::de::from_str(config_toml).map_err(|e| StateError(e.message().to_owned()))?;
    Ok(doc.hooks.map(|h| h.state).unwrap_or_default())
}

/// What Codex's own record says about a hook with `key` and current hash `hash`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodexTrust {
    /// The user trusted exactly this definition in Codex.
    Trusted,
    /// The user trusted an earlier version of it.
    Modified,
    /// The user never trusted it.
    Untrusted,
    /// The user turned it off in Codex (`enabled = false`).
    Disabled,
}

/// Looks `key` up in `states` and compares its trusted hash with `hash`.
pub fn codex_trust(states: &BTreeMap<String, HookState>, key: &str, hash: &str) -> CodexTrust {
    match states.get(key) {
        Some(s) if s.enabled == Some(false) => CodexTrust::Disabled,
        Some(HookState { trusted_hash: Some(t), .. }) if t == hash => CodexTrust::Trusted,
        Some(HookState { trusted_hash: Some(_), .. }) => CodexTrust::Modified,
        _ => CodexTrust::Untrusted,
    }
}

/// The `[hooks.state]` a parsed user `config.toml` lists in its settings
/// (`settings["hooks.state"]`, see [`SETTINGS_HOOK_STATE`](crate::SETTINGS_HOOK_STATE)).
pub fn states_from_settings(settings: &Map<String, Value>) -> BTreeMap<String, HookState> {
    let Some(Value::Object(states)) = settings.get(crate::SETTINGS_HOOK_STATE) else {
        return BTreeMap::new();
    };
    states
        .iter()
        .map(|(k, v)| {
            let state = HookState {
                enabled: v.get("enabled").and_then(Value::as_bool),
                trusted_hash: v.get("trusted_hash").and_then(Value::as_str).map(str::to_owned),
            };
            (k.clone(), state)
        })
        .collect()
}

/// What Codex's own record says about a Codex source's definitions taken together.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SourceReview {
    /// The user trusted, in Codex, exactly the current definition of every enabled hook.
    Reviewed,
    /// At least one enabled hook is untrusted or was modified since.
    NotReviewed,
}

/// Whether the user already reviewed every enabled hook of a Codex source in Codex itself
/// (managed sources need no review and are not asked about). Definitions that carry no trust
/// key (not parsed by this crate) count as not reviewed.
pub fn review_of(
    definitions: &[HookDefinition],
    states: &BTreeMap<String, HookState>,
) -> SourceReview {
    review_skipping(definitions, states, false)
}

/// [`review_of`], where a hook `states` turns off (`enabled = false`) needs no review when
/// `disabled_is_off`: the caller knows it will not run (the file that turns it off runs, so
/// the registry switches it off there).
pub fn review_skipping(
    definitions: &[HookDefinition],
    states: &BTreeMap<String, HookState>,
    disabled_is_off: bool,
) -> SourceReview {
    let reviewed = definitions.iter().filter(|d| d.enabled).all(|d| {
        let key = d.native.get(crate::NATIVE_TRUST_KEY).and_then(Value::as_str);
        let hash = d.native.get(crate::NATIVE_TRUST_HASH).and_then(Value::as_str);
        match (key, hash) {
            (Some(k), Some(h)) => match codex_trust(states, k, h) {
                CodexTrust::Trusted => true,
                CodexTrust::Disabled => disabled_is_off,
                CodexTrust::Modified | CodexTrust::Untrusted => false,
            },
            _ => false,
        }
    });
    if reviewed { SourceReview::Reviewed } else { SourceReview::NotReviewed }
}

/// The trust key and hash of a definition this crate parsed (`None` for one without).
pub fn key_and_hash(d: &HookDefinition) -> Option<(&str, &str)> {
    let key = d.native.get(crate::NATIVE_TRUST_KEY).and_then(Value::as_str)?;
    let hash = d.native.get(crate::NATIVE_TRUST_HASH).and_then(Value::as_str)?;
    Some((key, hash))
}

/// `config_toml` (the user's `config.toml`; `None`: none yet) with `trusted_hash` taken out
/// for each `(key, hash)` of `forget` whose recorded hash is the one given, then set under
/// `[hooks.state."<key>"]` for each of `trust` (a table left empty goes too, and so do
/// `[hooks.state]` and `[hooks]` when nothing is left in them). Everything else stays as it
/// was: comments, order, formatting (`toml_edit`).
///
/// # Errors
/// When the text is not TOML, or `hooks`, `hooks.state` or a key's entry is not a table.
pub fn record_trusted(
    config_toml: Option<&str>,
    trust: &[(&str, &str)],
    forget: &[(&str, &str)],
) -> Result<String, StateError> {
    use toml_edit::{DocumentMut, Item, Table, value};
    let mut doc: DocumentMut = config_toml
        .unwrap_or_default()
        .parse()
        .map_err(|e: toml_edit::TomlError| StateError(e.message().to_owned()))?;
    let not_table = |what: &str| StateError(format!("`{what}` is not a table"));
    fn implicit() -> Item {
        let mut t = Table::new();
        t.set_implicit(true);
        Item::Table(t)
    }
    if !forget.is_empty()
        && let Some(hooks) = doc.get_mut("hooks").and_then(Item::as_table_like_mut)
    {
        if let Some(state) = hooks.get_mut("state").and_then(Item::as_table_like_mut) {
            for (key, hash) in forget {
                let Some(entry) = state.get_mut(key).and_then(Item::as_table_like_mut) else {
                    continue;
                };
                if entry.get("trusted_hash").and_then(Item::as_str) == Some(*hash) {
                    entry.remove("trusted_hash");
                }
                if entry.is_empty() {
                    state.remove(key);
                }
            }
            if state.is_empty() {
                hooks.remove("state");
            }
        }
        if hooks.is_empty() {
            doc.remove("hooks");
        }
    }
    if !trust.is_empty() {
        let hooks = doc.entry("hooks").or_insert_with(implicit);
        let hooks = hooks.as_table_like_mut().ok_or_else(|| not_table("hooks"))?;
        let state = hooks.entry("state").or_insert(implicit());
        let state = state.as_table_like_mut().ok_or_else(|| not_table("hooks.state"))?;
        for (key, hash) in trust {
            let entry = state.entry(key).or_insert(Item::Table(Table::new()));
            let entry = entry.as_table_like_mut().ok_or_else(|| not_table(key))?;
            entry.insert("trusted_hash", value(*hash));
        }
    }
    Ok(doc.to_string())
}

#[cfg(test)]
mod tests;
