//! Verdicts and their algebra, as pure functions.
//!
//! Rules, each tested exhaustively in `verdict/tests.rs`:
//! - deny beats ask beats allow, and "no opinion" is weaker than all three;
//! - among hooks with the same decision, the first in chain order is the one named as
//!   deciding, so the provenance never depends on which process finished first;
//! - a deny short-circuits a blocking chain: later hooks are not consulted;
//! - argument rewrites compose in chain order, each seeing the previous one's result;
//! - output rewrites (post tool use only) do not compose: the hooks ran concurrently on the
//!   same original output, so the first rewrite in chain order wins, as the deciding hook is
//!   the first in chain order, and later ones are set aside with a note;
//! - a hook can only make the host's decision more restrictive, unless the embedder opts in
//!   with a [`RelaxPolicy`].

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::{HookEvent, HookId, HookSourceId};

/// A permission decision.
///
/// The derived order is the restrictiveness order: `Allow < Ask < Deny`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    /// Proceed.
    Allow,
    /// Ask the user.
    Ask,
    /// Refuse.
    Deny,
}

impl Decision {
    /// The more restrictive of two decisions.
    #[must_use]
    pub fn most_restrictive(self, other: Decision) -> Decision {
        self.max(other)
    }

    /// The most restrictive of several decisions; `None` when there are none.
    pub fn fold(decisions: impl IntoIterator<Item = Decision>) -> Option<Decision> {
        decisions.into_iter().max()
    }

    /// The lowercase name.
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::Allow => "allow",
            Decision::Ask => "ask",
            Decision::Deny => "deny",
        }
    }
}

/// A change a hook asks for in the tool call's arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArgRewrite {
    /// Replace the arguments whole (Cursor `updated_input`, Claude `updatedInput`).
    Replace(Value),
    /// Merge these keys into the arguments, shallowly (Chrys `args_override`).
    Merge(Map<String, Value>),
}

impl ArgRewrite {
    /// Applies the rewrite to `args`. Merging into something that is not an object replaces
    /// it with an object holding the merged keys.
    pub fn apply_to(&self, args: &mut Value) {
        match self {
            ArgRewrite::Replace(v) => *args = v.clone(),
            ArgRewrite::Merge(keys) => {
                if !args.is_object() {
                    *args = Value::Object(Map::new());
                }
                if let Value::Object(obj) = args {
                    for (k, v) in keys {
                        obj.insert(k.clone(), v.clone());
                    }
                }
            }
        }
    }
}

/// What one hook's run means, after its codec applied the format's rules.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HookVerdict {
    /// The hook's decision; `None` when it expressed none.
    pub decision: Option<Decision>,
    /// Why, for the user and the agent.
    pub reason: Option<String>,
    /// A rewrite of the tool call's arguments.
    pub rewrite: Option<ArgRewrite>,
    /// Context to add for the agent (Cursor `additional_context`, Chrys `extra_context`,
    /// `system_reminder`).
    pub context: Vec<String>,
    /// A message for the user (Cursor `user_message`, Claude `systemMessage`).
    pub user_message: Option<String>,
    /// A follow-up message to submit as the next user message (Cursor `followup_message`).
    pub followup: Option<String>,
    /// Stop the agent altogether, with this reason (Claude `continue: false`).
    pub halt: Option<String>,
    /// Environment variables for later hooks of the session (Cursor `sessionStart` `env`).
    pub env: Vec<(String, String)>,
    /// How the hook failed, when it did (spawn error, timeout, crash, unreadable output).
    pub failure: Option<String>,
    /// Remarks on how the output was read (shell-profile noise skipped, fields ignored).
    pub notes: Vec<String>,
    /// The tool output the agent must see instead of the real one (Claude
    /// `updatedToolOutput`/`updatedMCPToolOutput`, Cursor `updated_mcp_tool_output`); only
    /// post tool use events honour it.
    pub updated_output: Option<Value>,
}

impl HookVerdict {
    /// A verdict with no decision and nothing else.
    pub fn no_opinion() -> HookVerdict {
        HookVerdict::default()
    }

    /// A verdict with only a decision and a reason.
    pub fn decided(decision: Decision, reason: Option<String>) -> HookVerdict {
        HookVerdict { decision: Some(decision), reason, ..HookVerdict::default() }
    }

    /// A verdict with only a failure: how the hook failed, which its failure policy then
    /// turns into a decision or not.
    pub fn failed(failure: impl Into<String>) -> HookVerdict {
        HookVerdict { failure: Some(failure.into()), ..HookVerdict::default() }
    }

    /// The failure of a hook whose native event `native` is not one of `agent`'s: its
    /// codec cannot read its outcome (the text [`crate::EncodeError::UnknownEvent`] gives).
    pub fn unknown_event(agent: &'static str, native: &str) -> HookVerdict {
        let e = crate::EncodeError::UnknownEvent { agent, native: native.to_owned() };
        HookVerdict::failed(e.to_string())
    }
}

/// Which hook, from which file and line.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Provenance {
    /// The hook.
    pub hook_id: HookId,
    /// The source it came from.
    pub source: HookSourceId,
    /// Its line in the source file.
    pub line: Option<u32>,
}

/// Whether a blocking chain goes on after a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChainStep {
    /// Run the next hook.
    Continue,
    /// Stop: a hook denied.
    ShortCircuit,
}

/// The folded result of a chain of hooks.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct FoldedVerdict {
    /// The most restrictive decision any hook expressed; `None` when none did.
    pub decision: Option<Decision>,
    /// The deciding hook's reason.
    pub reason: Option<String>,
    /// The deciding hook: the first in chain order with the folded decision.
    pub decided_by: Option<Provenance>,
    /// The arguments after every rewrite, when some hook rewrote them.
    pub updated_args: Option<Value>,
    /// The hooks whose rewrites were applied, in order.
    pub rewritten_by: Vec<Provenance>,
    /// Context to add, in chain order.
    pub context: Vec<(Provenance, String)>,
    /// Messages for the user, in chain order.
    pub user_messages: Vec<(Provenance, String)>,
    /// Follow-up messages, in chain order.
    pub followups: Vec<(Provenance, String)>,
    /// The first request to stop the agent.
    pub halt: Option<(Provenance, String)>,
    /// Environment variables for later hooks, in chain order (later wins on the same name).
    pub env: Vec<(String, String)>,
    /// Whether a deny ended the chain early.
    pub short_circuited: bool,
    /// The tool output to show the agent instead of the real one, when a hook rewrote it
    /// (post tool use only).
    pub updated_output: Option<Value>,
    /// The hook whose output rewrite was kept: the first in chain order that rewrote it.
    pub output_rewritten_by: Option<Provenance>,
}

impl FoldedVerdict {
    /// The decision to act on when the host has no opinion of its own: allow when no hook
    /// expressed one.
    pub fn effective(&self) -> Decision {
        self.decision.unwrap_or(Decision::Allow)
    }
}

/// Whether `event` honours a rewrite of the tool's output: post tool use and tool failure
/// do, since only there has the tool produced an output (or an error) the agent has not seen
/// yet (Gemini CLI's `AfterTool` replaces a failed tool's result too). A host that cannot
/// replace a failure's output (Claude Code's `PostToolUseFailure`) leaves it out of its answer.
pub fn honours_output_rewrite(event: HookEvent) -> bool {
    matches!(event, HookEvent::PostToolUse | HookEvent::ToolFailure)
}

/// Folds the verdicts of a blocking chain, in chain order.
#[derive(Debug, Clone, Default)]
pub struct ChainFold {
    folded: FoldedVerdict,
    args: Option<Value>,
    event: Option<HookEvent>,
}

impl ChainFold {
    /// A fold over a chain whose event carries these tool arguments (`None` for events
    /// without a tool call). The event is not known, so output rewrites are never applied:
    /// use [`ChainFold::for_event`] for that.
    pub fn new(args: Option<Value>) -> ChainFold {
        ChainFold { folded: FoldedVerdict::default(), args, event: None }
    }

    /// A fold over a chain of `event` whose envelope carries these tool arguments. Output
    /// rewrites are applied when the event honours them (see [`honours_output_rewrite`]).
    pub fn for_event(event: HookEvent, args: Option<Value>) -> ChainFold {
        ChainFold { folded: FoldedVerdict::default(), args, event: Some(event) }
    }

    /// Why the fold would set aside `verdict`'s output rewrite, if it would: the event does
    /// not honour one, or an earlier hook's rewrite already won.
    pub fn output_rewrite_ignored(&self, verdict: &HookVerdict) -> Option<String> {
        verdict.updated_output.as_ref()?;
        match self.event {
            Some(e) if honours_output_rewrite(e) => {}
            Some(e) => return Some(format!("the output rewrite is ignored on {e}")),
            None => {
                return Some("the output rewrite is ignored: the event is not known".to_owned());
            }
        }
        self.folded.output_rewritten_by.as_ref().map(|p| {
            format!(
                "the output rewrite is ignored: hook {}, earlier in chain order, rewrote the output first",
                p.hook_id
            )
        })
    }

    /// Takes from `verdict` an output rewrite the fold would set aside, with a note saying
    /// why, so the hook's own verdict shows what happened to it. [`ChainFold::push`] applies
    /// the same rule whether or not this was called.
    pub fn admit(&self, verdict: &mut HookVerdict) {
        if let Some(why) = self.output_rewrite_ignored(verdict) {
            verdict.updated_output = None;
            verdict.notes.push(why);
        }
    }

    /// The arguments as the next hook must see them: the original ones with every rewrite
    /// so far applied.
    pub fn current_args(&self) -> Option<&Value> {
        self.args.as_ref()
    }

    /// Whether a deny already ended the chain.
    pub fn is_short_circuited(&self) -> bool {
        self.folded.short_circuited
    }

    /// Adds the next hook's verdict. Once the chain is short-circuited, later verdicts are
    /// ignored: they must not have run.
    pub fn push(&mut self, verdict: HookVerdict, from: &Provenance) -> ChainStep {
        if self.folded.short_circuited {
            return ChainStep::ShortCircuit;
        }
        let f = &mut self.folded;
        if let Some(d) = verdict.decision
            && f.decision.is_none_or(|cur| d > cur)
        {
            f.decision = Some(d);
            f.reason = verdict.reason.clone();
            f.decided_by = Some(from.clone());
        }
        if let Some(rw) = &verdict.rewrite
            && verdict.decision != Some(Decision::Deny)
        {
            let args = self.args.get_or_insert(Value::Null);
            rw.apply_to(args);
            f.updated_args = Some(args.clone());
            f.rewritten_by.push(from.clone());
        }
        f.context.extend(verdict.context.into_iter().map(|c| (from.clone(), c)));
        if let Some(m) = verdict.user_message {
            f.user_messages.push((from.clone(), m));
        }
        if let Some(m) = verdict.followup {
            f.followups.push((from.clone(), m));
        }
        if let Some(h) = verdict.halt
            && f.halt.is_none()
        {
            f.halt = Some((from.clone(), h));
        }
        f.env.extend(verdict.env);
        if let Some(out) = verdict.updated_output
            && f.output_rewritten_by.is_none()
            && self.event.is_some_and(honours_output_rewrite)
        {
            f.updated_output = Some(out);
            f.output_rewritten_by = Some(from.clone());
        }
        if verdict.decision == Some(Decision::Deny) {
            f.short_circuited = true;
            return ChainStep::ShortCircuit;
        }
        ChainStep::Continue
    }

    /// The folded verdict.
    pub fn finish(self) -> FoldedVerdict {
        self.folded
    }
}

/// Whether a hook's `allow` may relax the host's own decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RelaxPolicy {
    /// Hooks only make decisions more restrictive (the default, and the deny-only contract).
    #[default]
    Never,
    /// A hook's `allow` may turn the host's `ask` into `allow`; a host `deny` stands.
    AllowOverridesAsk,
    /// A hook's `allow` may turn any host decision into `allow`.
    AllowOverridesAll,
}

/// Combines the host's own decision with the hooks' folded decision.
pub fn apply_host_decision(
    host: Decision,
    hooks: Option<Decision>,
    policy: RelaxPolicy,
) -> Decision {
    let Some(h) = hooks else { return host };
    match (policy, h) {
        (RelaxPolicy::AllowOverridesAsk, Decision::Allow) if host == Decision::Ask => {
            Decision::Allow
        }
        (RelaxPolicy::AllowOverridesAll, Decision::Allow) => Decision::Allow,
        _ => host.most_restrictive(h),
    }
}

#[cfg(test)]
mod tests;
