//! Typed matchers: which firings of its event a definition applies to.
//!
//! Matcher semantics differ per format (Cursor tests a tool type or a command string,
//! Claude Code an exact list or an unanchored regex over the tool name, Chrys an AND of
//! exact clauses and argument tests). The adapter that parsed a definition compiles its
//! matcher into a [`MatchPredicate`]; this crate only stores it with the text it came from,
//! so the schema stays free of regex engines.

use std::{fmt, sync::Arc};

use crate::Envelope;

/// A compiled matcher, owned by the adapter that parsed it.
///
/// Invariant: the behaviour is a function of the matcher's text (plus the definition's
/// event), so two matchers with equal text match the same envelopes.
pub trait MatchPredicate: Send + Sync + fmt::Debug {
    /// Whether the envelope is one this definition applies to.
    fn matches(&self, envelope: &Envelope) -> bool;

    /// Why the envelope does not match, for `hooks fire --dry-run`; `None` when it matches.
    fn mismatch(&self, envelope: &Envelope) -> Option<String> {
        if self.matches(envelope) { None } else { Some("the matcher does not match".to_owned()) }
    }
}

/// A definition's matcher: either "every firing of the event" or a compiled predicate
/// together with the text it was compiled from.
#[derive(Clone)]
pub struct Matcher {
    inner: Option<(Arc<str>, Arc<dyn MatchPredicate>)>,
    /// The text without the values it quotes ([`crate::quoted_value`]), when it quotes any.
    shown: Option<Arc<str>>,
}

impl Matcher {
    /// Matches every firing of the event.
    pub fn all() -> Matcher {
        Matcher { inner: None, shown: None }
    }

    /// A compiled predicate and the text it came from. `text` is shown in listings and
    /// decides equality; parts quoted with [`crate::quoted_value`] (a Claude `if` rule) are
    /// listed only when values are revealed ([`Matcher::shown`]).
    pub fn new(text: impl Into<Arc<str>>, predicate: Arc<dyn MatchPredicate>) -> Matcher {
        let text: Arc<str> = text.into();
        match crate::diagnostic::split_quotes(&text) {
            (shown, Some(full)) => {
                Matcher { inner: Some((full.into(), predicate)), shown: Some(shown.into()) }
            }
            (_, None) => Matcher { inner: Some((text, predicate)), shown: None },
        }
    }

    /// The matcher's whole text, quoted values included; `None` for a matcher that matches
    /// everything.
    pub fn text(&self) -> Option<&str> {
        self.inner.as_ref().map(|(t, _)| &**t)
    }

    /// The text for a listing: without its quoted values unless `reveal`.
    pub fn shown(&self, reveal: bool) -> Option<&str> {
        match &self.shown {
            Some(s) if !reveal => Some(s),
            _ => self.text(),
        }
    }

    /// Whether it matches every firing.
    pub fn is_all(&self) -> bool {
        self.inner.is_none()
    }

    /// Whether the envelope is one the definition applies to.
    pub fn matches(&self, envelope: &Envelope) -> bool {
        self.inner.as_ref().is_none_or(|(_, p)| p.matches(envelope))
    }

    /// Why the envelope does not match; `None` when it matches.
    pub fn mismatch(&self, envelope: &Envelope) -> Option<String> {
        self.inner.as_ref().and_then(|(_, p)| p.mismatch(envelope))
    }
}

impl Default for Matcher {
    fn default() -> Matcher {
        Matcher::all()
    }
}

impl PartialEq for Matcher {
    fn eq(&self, other: &Matcher) -> bool {
        self.text() == other.text()
    }
}

impl Eq for Matcher {}

impl fmt::Debug for Matcher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.text() {
            None => f.write_str("Matcher(*)"),
            Some(t) => write!(f, "Matcher({t:?})"),
        }
    }
}

#[cfg(test)]
mod tests;
