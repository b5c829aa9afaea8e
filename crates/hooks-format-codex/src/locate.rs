//! Where each group and handler of a hook file starts, for diagnostics and listings.
//!
//! Positions come from the parsers themselves, not from a second hand-written reader:
//! `serde_json` hands out each value's exact text as a borrowed [`RawValue`], whose offset in
//! the document is its position; `toml_edit` keeps the span of every table and value it
//! parses. Locating runs only on a document that already deserialized, and anything it cannot
//! place falls back to the enclosing position, so it never changes what loads.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::value::RawValue;
use toml_edit::{Document, Item, Value as TomlValue};

use crate::CodexEvent;

/// A 1-based line and column (in characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Pos {
    pub line: u32,
    pub column: u32,
}

impl Pos {
    /// The start of the document.
    pub(crate) const START: Pos = Pos { line: 1, column: 1 };

    /// The position of byte `offset` of `text` (clamped to the text).
    pub(crate) fn of(text: &str, offset: usize) -> Pos {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &text[..offset];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        Pos {
            line: u32::try_from(line).unwrap_or(u32::MAX),
            column: u32::try_from(col).unwrap_or(u32::MAX),
        }
    }
}

/// The positions of one group: its own and its handlers'.
#[derive(Debug, Clone, Default)]
pub(crate) struct GroupPos {
    pub at: Pos,
    pub matcher: Option<Pos>,
    pub handlers: Vec<Pos>,
}

/// The positions of a file's groups, per event.
#[derive(Debug, Clone, Default)]
pub(crate) struct Positions {
    /// Where the events table starts (the fallback for everything in it).
    pub table: Pos,
    pub events: BTreeMap<CodexEvent, (Pos, Vec<GroupPos>)>,
}

impl Positions {
    /// The position of group `gi` of `event`.
    pub(crate) fn group(&self, event: CodexEvent, gi: usize) -> GroupPos {
        match self.events.get(&event) {
            Some((at, groups)) => {
                groups.get(gi).cloned().unwrap_or(GroupPos { at: *at, ..GroupPos::default() })
            }
            None => GroupPos { at: self.table, ..GroupPos::default() },
        }
    }
}

impl GroupPos {
    /// The position of handler `hi`, or the group's.
    pub(crate) fn handler(&self, hi: usize) -> Pos {
        self.handlers.get(hi).copied().unwrap_or(self.at)
    }

    /// The position of the matcher, or the group's.
    pub(crate) fn matcher(&self) -> Pos {
        self.matcher.unwrap_or(self.at)
    }
}

fn offset_in(text: &str, raw: &RawValue) -> usize {
    (raw.get().as_ptr() as usize).saturating_sub(text.as_ptr() as usize)
}

#[derive(Deserialize)]
struct RawRoot<'a> {
    #[serde(borrow, default)]
    hooks: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct RawGroup<'a> {
    #[serde(borrow, default)]
    matcher: Option<&'a RawValue>,
    #[serde(borrow, default)]
    hooks: Option<Vec<&'a RawValue>>,
}

/// The positions in a `hooks.json` document that deserialized.
pub(crate) fn json(text: &str) -> Positions {
    let mut out = Positions { table: Pos::START, ..Positions::default() };
    let Ok(root) = serde_json::from_str::<RawRoot<'_>>(text) else { return out };
    let Some(hooks) = root.hooks else { return out };
    out.table = Pos::of(text, offset_in(text, hooks));
    let Ok(events) = serde_json::from_str::<BTreeMap<String, &RawValue>>(hooks.get()) else {
        return out;
    };
    for (name, raw) in events {
        let Some(event) = CodexEvent::from_name(&name) else { continue };
        let at = Pos::of(text, offset_in(text, raw));
        let groups: Vec<&RawValue> = serde_json::from_str(raw.get()).unwrap_or_default();
        let groups = groups
            .into_iter()
            .map(|g| {
                let at = Pos::of(text, offset_in(text, g));
                let Ok(group) = serde_json::from_str::<RawGroup<'_>>(g.get()) else {
                    return GroupPos { at, ..GroupPos::default() };
                };
                GroupPos {
                    at,
                    matcher: group.matcher.map(|m| Pos::of(text, offset_in(text, m))),
                    handlers: group
                        .hooks
                        .unwrap_or_default()
                        .into_iter()
                        .map(|h| Pos::of(text, offset_in(text, h)))
                        .collect(),
                }
            })
            .collect();
        out.events.insert(event, (at, groups));
    }
    out
}

fn item_pos(text: &str, item: &Item) -> Option<Pos> {
    let span = match item {
        Item::Table(t) => t.span(),
        Item::Value(v) => v.span(),
        Item::ArrayOfTables(a) => a.span(),
        Item::None => None,
    }?;
    Some(Pos::of(text, span.start))
}

/// The position of the item at `keys` in a TOML document, or of the deepest one found.
pub(crate) fn toml_item(text: &str, doc: &Document<&str>, keys: &[&str]) -> Pos {
    let mut pos = Pos::START;
    let mut item: Option<&Item> = None;
    for k in keys {
        let next = match item {
            None => doc.get(k),
            Some(i) => i.get(k),
        };
        let Some(next) = next else { break };
        pos = item_pos(text, next).unwrap_or(pos);
        item = Some(next);
    }
    pos
}

fn value_pos(text: &str, v: &TomlValue) -> Option<Pos> {
    v.span().map(|s| Pos::of(text, s.start))
}

/// The entries of an item that is a list of tables, inline or not, with their positions.
fn list_of_tables<'a>(text: &str, item: &'a Item) -> Vec<(Pos, Option<&'a Item>, Option<Pos>)> {
    // (group position, its `hooks` item, its `matcher` position)
    match item {
        Item::ArrayOfTables(a) => a
            .iter()
            .map(|t| {
                let at = t.span().map_or(Pos::START, |s| Pos::of(text, s.start));
                let matcher = t.get("matcher").and_then(|m| item_pos(text, m));
                (at, t.get("hooks"), matcher)
            })
            .collect(),
        Item::Value(TomlValue::Array(a)) => a
            .iter()
            .map(|v| {
                let at = value_pos(text, v).unwrap_or(Pos::START);
                match v {
                    TomlValue::InlineTable(t) => {
                        let matcher = t.get("matcher").and_then(|m| value_pos(text, m));
                        (at, None, matcher)
                    }
                    _ => (at, None, None),
                }
            })
            .collect(),
        _ => Vec::new(),
    }
}

fn handler_positions(text: &str, item: Option<&Item>, inline: Option<&TomlValue>) -> Vec<Pos> {
    if let Some(Item::ArrayOfTables(a)) = item {
        return a.iter().map(|t| t.span().map_or(Pos::START, |s| Pos::of(text, s.start))).collect();
    }
    let arr = match (item, inline) {
        (Some(Item::Value(TomlValue::Array(a))), _) | (None, Some(TomlValue::Array(a))) => a,
        _ => return Vec::new(),
    };
    arr.iter().map(|v| value_pos(text, v).unwrap_or(Pos::START)).collect()
}

/// The positions of the hook events under `hooks` in a TOML document that deserialized.
pub(crate) fn toml(text: &str, doc: &Document<&str>) -> Positions {
    let mut out = Positions { table: Pos::START, ..Positions::default() };
    let Some(hooks) = doc.get("hooks") else { return out };
    out.table = item_pos(text, hooks).unwrap_or(Pos::START);
    let entries: Vec<(&str, &Item)> = match hooks {
        Item::Table(t) => t.iter().collect(),
        _ => Vec::new(),
    };
    for (name, item) in entries {
        let Some(event) = CodexEvent::from_name(name) else { continue };
        let at = item_pos(text, item).unwrap_or(out.table);
        let mut groups = Vec::new();
        let inline_groups: Vec<Option<&TomlValue>> = match item {
            Item::Value(TomlValue::Array(a)) => a
                .iter()
                .map(|v| match v {
                    TomlValue::InlineTable(t) => t.get("hooks"),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        };
        for (gi, (gat, hooks_item, matcher)) in list_of_tables(text, item).into_iter().enumerate() {
            let inline = inline_groups.get(gi).copied().flatten();
            groups.push(GroupPos {
                at: gat,
                matcher,
                handlers: handler_positions(text, hooks_item, inline),
            });
        }
        out.events.insert(event, (at, groups));
    }
    out
}
