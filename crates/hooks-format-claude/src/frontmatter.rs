//! The front matter of Claude Code's subagents, skills and commands: the YAML between a
//! Markdown file's opening `---` line and the next `---` line, read into the position-keeping
//! tree the settings reader takes, so its `hooks:` read exactly as a settings file's do, with
//! the lines and columns of the Markdown file.
//!
//! YAML is read with saphyr-parser's events (through `hooks-yaml`) and resolved with the YAML 1.2 core schema (what
//! JavaScript YAML readers use by default): `null`, `~` and nothing are null, `true`/`false`
//! booleans, decimal, `0o` and `0x` integers and decimal floats numbers, every other plain
//! scalar and every quoted or block scalar a string. Tags are ignored; aliases are followed,
//! counted against a node cap so an alias bomb cannot blow up.

use std::collections::HashMap;

use hooks_yaml::{Event, Events, ScalarStyle, Span};
use serde_json::Number;

use crate::json::{Kind, MAX_DEPTH, Member, Node, SyntaxError};

/// The most nodes a front matter may expand to, aliases included (a subagent's front matter
/// has a few dozen).
pub(crate) const MAX_NODES: usize = 20_000;

/// The YAML of `text`'s front matter and the 1-based line it starts on: the lines after a
/// first line that is `---` (trailing spaces and a `\r` allowed) up to the next such line.
/// `None` when the file does not open with front matter, or never closes it.
pub(crate) fn split(text: &str) -> Option<(&str, u32)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let is_fence = |line: &str| line.trim_end_matches(['\r', ' ', '\t']) == "---";
    let (first, rest) = text.split_once('\n')?;
    if !is_fence(first) {
        return None;
    }
    let mut at = 0usize;
    for line in rest.split_inclusive('\n') {
        if is_fence(line.trim_end_matches('\n')) {
            return Some((rest.get(..at)?, 2));
        }
        at += line.len();
    }
    None
}

/// `yaml` (the front matter, which starts on line `first_line` of its file) as a tree; a
/// syntax error, a key that is not a scalar, too deep a nesting or too many nodes is an
/// error with its position in the file.
pub(crate) fn tree(yaml: &str, first_line: u32) -> Result<Node, SyntaxError> {
    // saphyr's markers count characters; the tree's offsets are bytes.
    let bytes_at: Vec<usize> = yaml.char_indices().map(|(i, _)| i).chain([yaml.len()]).collect();
    let pos = |span: &Span| Pos {
        line: u32::try_from(span.start.line())
            .unwrap_or(u32::MAX)
            .saturating_add(first_line.saturating_sub(1)),
        column: u32::try_from(span.start.col() + 1).unwrap_or(u32::MAX),
        start: bytes_at.get(span.start.index()).copied().unwrap_or(yaml.len()),
        end: bytes_at.get(span.end.index()).copied().unwrap_or(yaml.len()),
    };
    let mut b = Builder { stack: Vec::new(), anchors: HashMap::new(), nodes: 0, root: None };
    for item in Events::new(yaml) {
        let (event, span) = item.map_err(|e| SyntaxError {
            message: e.info().to_owned(),
            line: u32::try_from(e.marker().line())
                .unwrap_or(u32::MAX)
                .saturating_add(first_line.saturating_sub(1)),
            column: u32::try_from(e.marker().col() + 1).unwrap_or(u32::MAX),
        })?;
        let at = pos(&span);
        match event {
            Event::Scalar(value, style, anchor, _tag) => {
                let kind = if style == ScalarStyle::Plain {
                    resolve(&value)
                } else {
                    Kind::String(value.into_owned())
                };
                b.push(
                    Node { kind, line: at.line, column: at.column, start: at.start, end: at.end },
                    anchor,
                    1,
                    &at,
                )?;
            }
            Event::Alias(id) => {
                let Some((node, size)) = b.anchors.get(&id).cloned() else {
                    return Err(at.error("an alias to no anchor"));
                };
                b.push(node, 0, size, &at)?;
            }
            Event::SequenceStart(anchor, _) => b.open(Frame::Seq(Vec::new()), anchor, at)?,
            Event::MappingStart(anchor, _) => b.open(Frame::Map(Vec::new(), None), anchor, at)?,
            Event::SequenceEnd | Event::MappingEnd => {
                let Some((frame, anchor, open)) = b.stack.pop() else { continue };
                let (kind, size) = match frame {
                    Frame::Seq(items) => {
                        let size = 1 + items.iter().map(count).sum::<usize>();
                        (Kind::Array(items), size)
                    }
                    Frame::Map(members, _) => {
                        let size = 1 + members.iter().map(|m| 1 + count(&m.value)).sum::<usize>();
                        (Kind::Object(members), size)
                    }
                };
                let node = Node {
                    kind,
                    line: open.line,
                    column: open.column,
                    start: open.start,
                    end: at.end.max(open.start),
                };
                b.push(node, anchor, size, &open)?;
            }
            Event::StreamStart
            | Event::StreamEnd
            | Event::DocumentStart(_)
            | Event::DocumentEnd
            | Event::Nothing => {}
        }
    }
    Ok(b.root.unwrap_or(Node { kind: Kind::Null, line: first_line, column: 1, start: 0, end: 0 }))
}

/// Where an event is, in the file.
#[derive(Debug, Clone, Copy)]
struct Pos {
    line: u32,
    column: u32,
    start: usize,
    end: usize,
}

impl Pos {
    fn error(&self, what: &str) -> SyntaxError {
        SyntaxError {
            message: format!("front matter: {what}"),
            line: self.line,
            column: self.column,
        }
    }
}

enum Frame {
    Seq(Vec<Node>),
    /// The members so far, and the key read whose value comes next.
    Map(Vec<Member>, Option<(String, u32, u32)>),
}

struct Builder {
    stack: Vec<(Frame, usize, Pos)>,
    anchors: HashMap<usize, (Node, usize)>,
    nodes: usize,
    root: Option<Node>,
}

impl Builder {
    fn open(&mut self, frame: Frame, anchor: usize, at: Pos) -> Result<(), SyntaxError> {
        if self.stack.len() >= MAX_DEPTH {
            return Err(at.error(&format!("nested deeper than {MAX_DEPTH} levels")));
        }
        self.stack.push((frame, anchor, at));
        Ok(())
    }

    /// Adds a finished node (`size` nodes, aliases expanded) where the open collection wants
    /// it: an item, a mapping's key (a scalar only) or its value, or the root.
    fn push(
        &mut self,
        node: Node,
        anchor: usize,
        size: usize,
        at: &Pos,
    ) -> Result<(), SyntaxError> {
        self.nodes = self.nodes.saturating_add(size);
        if self.nodes > MAX_NODES {
            return Err(at.error(&format!("more than {MAX_NODES} nodes")));
        }
        if anchor != 0 {
            self.anchors.insert(anchor, (node.clone(), size));
        }
        match self.stack.last_mut() {
            None => self.root = Some(node),
            Some((Frame::Seq(items), ..)) => items.push(node),
            Some((Frame::Map(members, key), ..)) => match key.take() {
                Some((key, line, column)) => {
                    members.push(Member { key, line, column, value: node })
                }
                None => {
                    let text = match node.kind {
                        Kind::String(s) => s,
                        Kind::Null => String::new(),
                        Kind::Bool(b) => b.to_string(),
                        Kind::Number(n) => n.to_string(),
                        Kind::NumberText(t) => t,
                        Kind::Array(_) | Kind::Object(_) => {
                            return Err(at.error("a key that is not a scalar"));
                        }
                    };
                    *key = Some((text, node.line, node.column));
                }
            },
        }
        Ok(())
    }
}

/// How many nodes `n` stands for.
fn count(n: &Node) -> usize {
    match &n.kind {
        Kind::Array(items) => 1 + items.iter().map(count).sum::<usize>(),
        Kind::Object(members) => 1 + members.iter().map(|m| 1 + count(&m.value)).sum::<usize>(),
        _ => 1,
    }
}

/// A plain scalar under the YAML 1.2 core schema.
fn resolve(v: &str) -> Kind {
    match v {
        "" | "~" | "null" | "Null" | "NULL" => return Kind::Null,
        "true" | "True" | "TRUE" => return Kind::Bool(true),
        "false" | "False" | "FALSE" => return Kind::Bool(false),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => {
            return Kind::NumberText("Infinity".to_owned());
        }
        "-.inf" | "-.Inf" | "-.INF" => return Kind::NumberText("-Infinity".to_owned()),
        ".nan" | ".NaN" | ".NAN" => return Kind::NumberText("NaN".to_owned()),
        _ => {}
    }
    let digits = |s: &str, radix: u32| !s.is_empty() && s.chars().all(|c| c.is_digit(radix));
    let integer = if let Some(o) = v.strip_prefix("0o").filter(|s| digits(s, 8)) {
        i64::from_str_radix(o, 8).ok()
    } else if let Some(x) = v.strip_prefix("0x").filter(|s| digits(s, 16)) {
        i64::from_str_radix(x, 16).ok()
    } else if digits(v.strip_prefix(['-', '+']).unwrap_or(v), 10) {
        v.parse::<i64>().ok()
    } else {
        None
    };
    if let Some(i) = integer {
        return Kind::Number(Number::from(i));
    }
    if is_core_float(v)
        && let Some(n) = v.parse::<f64>().ok().and_then(Number::from_f64)
    {
        return Kind::Number(n);
    }
    Kind::String(v.to_owned())
}

/// `[-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?`
fn is_core_float(v: &str) -> bool {
    let s = v.strip_prefix(['-', '+']).unwrap_or(v);
    let (mantissa, exponent) = match s.find(['e', 'E']) {
        Some(i) => (s.get(..i).unwrap_or(""), Some(s.get(i + 1..).unwrap_or(""))),
        None => (s, None),
    };
    let all_digits = |t: &str| t.chars().all(|c| c.is_ascii_digit());
    let mantissa_ok = match mantissa.split_once('.') {
        Some((int, frac)) => {
            all_digits(int) && all_digits(frac) && !(int.is_empty() && frac.is_empty())
        }
        None => !mantissa.is_empty() && all_digits(mantissa),
    };
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['-', '+']).unwrap_or(e);
        !e.is_empty() && all_digits(e)
    });
    mantissa_ok && exponent_ok
}

#[cfg(test)]
mod tests;
