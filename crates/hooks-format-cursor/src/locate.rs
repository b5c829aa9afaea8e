//! Where each key and value of a hook file starts, for semantic diagnostics: answered from
//! the workspace's one position-keeping JSON reader (`hooks_json`), by path.
//!
//! Paths are followed [`MAX_DEPTH`] segments deep at most (`hooks.<event>[i].<field>` is 4);
//! a path that goes further, or names nothing, falls back to its nearest ancestor, and a
//! document the reader does not take (nested deeper than it reads) to the start of the file.

use hooks_json::{Member, Node};

/// How deep paths are followed (`hooks.<event>[i].<field>` is 4 segments).
const MAX_DEPTH: usize = 4;

/// One step of a path into the document.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Seg {
    /// An object key.
    Key(String),
    /// An array index.
    Index(usize),
}

/// A 1-based line and column (the column counts characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Pos {
    pub(crate) line: u32,
    pub(crate) column: u32,
}

impl Pos {
    /// The start of the file.
    pub(crate) const START: Pos = Pos { line: 1, column: 1 };
}

/// The positioned document, and the object keys that appear more than once.
#[derive(Debug, Default)]
pub(crate) struct Spans {
    root: Option<Node>,
    /// Paths of keys written twice (the later occurrence), in text order.
    pub(crate) duplicates: Vec<(Vec<Seg>, Pos)>,
}

impl Spans {
    /// Where the key of `path` starts, or its value when it has no key, or the nearest
    /// ancestor's, or the start of the file.
    pub(crate) fn key_pos(&self, path: &[Seg]) -> Pos {
        self.find(path, true)
    }

    /// Where the value of `path` starts, or the nearest ancestor's.
    pub(crate) fn value_pos(&self, path: &[Seg]) -> Pos {
        self.find(path, false)
    }

    fn find(&self, path: &[Seg], key: bool) -> Pos {
        let Some(root) = &self.root else { return Pos::START };
        let mut at = at(root);
        let mut node = root;
        for seg in path.iter().take(MAX_DEPTH) {
            let member: Option<&Member>;
            let next = match seg {
                Seg::Key(k) => {
                    member = node.get(k);
                    member.map(|m| &m.value)
                }
                Seg::Index(i) => {
                    member = None;
                    node.items().and_then(|items| items.get(*i))
                }
            };
            let Some(next) = next else { break };
            at = match (key, member) {
                (true, Some(m)) => Pos { line: m.line, column: m.column },
                _ => self::at(next),
            };
            node = next;
        }
        at
    }
}

fn at(node: &Node) -> Pos {
    Pos { line: node.line, column: node.column }
}

/// Positions `text` (JSON serde_json accepted; anything else gives only the fallbacks).
pub(crate) fn locate(text: &str) -> Spans {
    let Ok(root) = hooks_json::parse(text.as_bytes()) else { return Spans::default() };
    let mut duplicates = Vec::new();
    collect_duplicates(&root, &mut Vec::new(), &mut duplicates);
    Spans { root: Some(root), duplicates }
}

/// The later occurrences of keys written twice in one object, in text order, in objects
/// less than [`MAX_DEPTH`] deep.
fn collect_duplicates(node: &Node, path: &mut Vec<Seg>, out: &mut Vec<(Vec<Seg>, Pos)>) {
    if path.len() >= MAX_DEPTH {
        return;
    }
    if let Some(members) = node.members() {
        let mut seen = std::collections::HashSet::with_capacity(members.len());
        for m in members {
            path.push(Seg::Key(m.key.clone()));
            if !seen.insert(m.key.as_str()) {
                out.push((path.clone(), Pos { line: m.line, column: m.column }));
            }
            collect_duplicates(&m.value, path, out);
            path.pop();
        }
    } else if let Some(items) = node.items() {
        for (i, item) in items.iter().enumerate() {
            path.push(Seg::Index(i));
            collect_duplicates(item, path, out);
            path.pop();
        }
    }
}

#[cfg(test)]
mod tests;
