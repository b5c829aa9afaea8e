//! YAML to Python values with PyYAML 6's `safe_load` rules (YAML 1.1 resolution).
//!
//! saphyr-parser gives the events with their positions (through `hooks-yaml`, the adapters'
//! one event reader); this module builds the value tree
//! itself so it controls what PyYAML decides differently from YAML 1.2: the implicit
//! resolvers (`yes`/`no`/`on`/`off` booleans, sexagesimal and octal numbers, floats that need
//! a dot, timestamps), `<<` merge keys, duplicate keys (the last one wins) and aliases, with
//! caps on nesting depth and on the number of nodes aliases may expand to.

use std::collections::HashMap;

use hooks_yaml::{Event, Events, Marker, ScalarStyle, Span, Tag};

use crate::pyval::{Node, PyInt, PyValue};

/// The most nodes a document may expand to, aliases included (an alias bomb expands
/// exponentially; a real hooks file has a few hundred nodes).
pub(crate) const MAX_NODES: usize = 100_000;

/// The deepest nesting accepted (PyYAML itself stops near Python's recursion limit).
pub(crate) const MAX_DEPTH: usize = 200;

/// Why a YAML text could not be loaded.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum YamlError {
    /// The text is not YAML, or uses something PyYAML rejects (a `yaml.YAMLError`).
    Syntax(String),
    /// A value is not valid as the type it is written as (PyYAML's constructor raised
    /// something other than a `YAMLError`).
    Constructor,
}

/// The text Chrys 0.32.0 reports for a constructor error.
pub(crate) const CONSTRUCTOR_ERROR: &str = "a value is not valid as the type it is written as, such as the date 2026-13-01; put it in quotes";

enum Frame {
    Seq {
        items: Vec<Node>,
        mark: (u32, u32),
        anchor: usize,
    },
    Map {
        pairs: Vec<(Node, Node)>,
        key: Option<Node>,
        merges: Vec<Node>,
        mark: (u32, u32),
        anchor: usize,
        /// `!!set`: the keys are the members.
        set: bool,
        /// A flow mapping (`{…}`), where PyYAML allows empty keys.
        flow: bool,
        /// Where it starts.
        start: Marker,
    },
}

struct Builder {
    /// The first construction error, reported only if the whole stream parses (PyYAML
    /// composes the document before it constructs values).
    pending: Option<YamlError>,
    stack: Vec<Frame>,
    anchors: HashMap<usize, (Node, usize)>,
    nodes: usize,
    root: Option<Node>,
}

/// Loads the single document of `text`; `None` for an empty stream.
///
/// PyYAML does not check the indentation of a quoted scalar's continuation lines (its scanner
/// skips the spaces and tabs after each line break inside the quotes), where saphyr-parser
/// asks for more than the enclosing block's and refuses tabs there. When the parser stops on
/// such a line, the scalar's continuation lines are indented with spaces past its opening
/// quote and the text is read again: a quoted scalar's value drops every continuation line's
/// leading white space, so the value is the same. Likewise PyYAML checks no indentation inside
/// a flow collection (a line there is indented past every line before it) and reads a comment
/// right after a closing quote or a flow indicator (a space is put before it). A rewrite counts
/// only if the parser then reads it where PyYAML would (inside a quoted scalar, inside a flow
/// collection, right after one of those); otherwise the first error stands.
pub(crate) fn load(text: &str) -> Result<Option<Node>, YamlError> {
    check_characters(text)?;
    if let Some(e) = document_end_first(text) {
        return Err(e);
    }
    let mut current = std::borrow::Cow::Borrowed(text);
    // Where each rewrite was made, for the last reading to confirm.
    let mut places: Vec<Place> = Vec::new();
    let mut first: Option<YamlError> = None;
    for _ in 0..MAX_REREADS {
        let mut attempt = Attempt::default();
        let result = load_once(&current, &mut attempt);
        let (Err(e), Some((info, index))) = (&result, &attempt.stopped) else {
            return confirmed(result, first, &places, &current, &attempt);
        };
        if let Some((next, place)) = rewrite(&current, info, *index) {
            first.get_or_insert_with(|| e.clone());
            places.extend(place);
            current = std::borrow::Cow::Owned(next);
            continue;
        }
        if info.contains("unexpected document indicator")
            && let Some(e) = document_marker_in_quoted(&current, *index)
        {
            return Err(first.unwrap_or(e));
        }
        return confirmed(result, first, &places, &current, &attempt);
    }
    Err(first.unwrap_or_else(|| YamlError::Syntax("too many rewrites".into())))
}

/// Where a rewrite was made, and so where the reading after it must find what PyYAML found.
enum Place {
    /// A quoted scalar's continuation line: inside a quoted scalar.
    QuotedLine(usize),
    /// A flow collection's line: inside a flow collection.
    FlowLine(usize),
    /// A space put before a comment, as its line and its distance from the line's end (which
    /// re-indenting the line does not change): right after a quoted scalar or a flow
    /// collection, or inside one (after its opening bracket or a comma).
    Spaced(usize, usize),
}

/// The text rewritten for the parser's stop at `index` (see [`load`]), and where.
fn rewrite(text: &str, info: &str, index: usize) -> Option<(String, Vec<Place>)> {
    if let Some((next, lines)) = reindent(text, info, index) {
        return Some((next, lines.into_iter().map(Place::QuotedLine).collect()));
    }
    // PyYAML checks no indentation inside a flow collection (`hooks: ['x'` then `]` at column
    // 0); saphyr-parser wants its lines past the enclosing block's. White space before a token
    // in a flow collection is no part of any value.
    if matches!(info, "invalid indentation" | "invalid indentation in flow construct") {
        let (next, line) = indent_flow_line(text, index)?;
        return Some((next, vec![Place::FlowLine(line)]));
    }
    // PyYAML reads a comment right after a closing quote or a flow indicator (`'x'#c`,
    // `[1,#c`); saphyr-parser wants a space first.
    if info.contains("comments must be separated from other tokens by whitespace") {
        let next = space_before_comment(text, index)?;
        let starts = line_starts(&next);
        let line = line_of(&starts, index);
        let end = starts.get(line + 1).copied().unwrap_or_else(|| next.chars().count());
        return Some((next, vec![Place::Spaced(line, end - index)]));
    }
    None
}

/// `result` when no rewrite was made or the reading found every rewrite where PyYAML would
/// have read it (see [`Place`]); otherwise the first reading's error.
fn confirmed(
    result: Result<Option<Node>, YamlError>,
    first: Option<YamlError>,
    places: &[Place],
    text: &str,
    attempt: &Attempt,
) -> Result<Option<Node>, YamlError> {
    let Some(first) = first else { return result };
    let starts = line_starts(text);
    let len = text.chars().count();
    let quoted = |i: usize| attempt.quoted.iter().any(|&(a, b)| a < i && i < b);
    let in_flow = |i: usize| attempt.flows.iter().any(|&(a, b)| a < i && i <= b);
    let holds = |place: &Place| match *place {
        Place::QuotedLine(line) => starts.get(line).is_some_and(|&i| quoted(i)),
        Place::FlowLine(line) => starts.get(line).is_some_and(|&i| in_flow(i)),
        Place::Spaced(line, from_end) => {
            let at = starts.get(line + 1).copied().unwrap_or(len) - from_end;
            attempt.quoted.iter().any(|&(_, end)| end == at)
                || attempt.flows.iter().any(|&(_, close)| close + 1 == at)
                || in_flow(at)
        }
    };
    if places.iter().all(holds) { result } else { Err(first) }
}

/// The number of the line holding the character at `index`.
fn line_of(starts: &[usize], index: usize) -> usize {
    starts.partition_point(|&s| s <= index).saturating_sub(1)
}

/// How many times a text is read again after a rewrite (a quoted scalar's continuation lines
/// or a flow collection's line re-indented, a space put before a comment).
const MAX_REREADS: usize = 16;

/// What one reading saw besides its result.
#[derive(Default)]
struct Attempt {
    /// The quoted scalars read, as character ranges from the opening to the closing quote.
    quoted: Vec<(usize, usize)>,
    /// Where the parser stopped, if it did: its message and the character index.
    stopped: Option<(String, usize)>,
    /// The flow collections read, from the opening to the closing bracket.
    flows: Vec<(usize, usize)>,
}

/// The closing bracket of a flow collection whose end the parser reports at `from` (its span
/// may start before the bracket, at a comma): past white space, commas and comments.
fn closing_bracket(chars: &[char], from: usize) -> usize {
    let mut i = from;
    while let Some(&c) = chars.get(i) {
        match c {
            ']' | '}' => return i,
            ' ' | '\t' | '\r' | '\n' | ',' => i += 1,
            '#' => {
                while chars.get(i).is_some_and(|&c| c != '\n' && c != '\r') {
                    i += 1;
                }
            }
            _ => break,
        }
    }
    from
}

/// The text with the line whose first token is at `index` indented past every line before
/// it, and that line's number; `None` when a token precedes it on its line or a tab its
/// indentation.
fn indent_flow_line(text: &str, index: usize) -> Option<(String, usize)> {
    let chars: Vec<char> = text.chars().collect();
    let starts = line_starts(text);
    let line = line_of(&starts, index);
    let start = *starts.get(line)?;
    if chars.get(start..index)?.iter().any(|&c| c != ' ') {
        return None;
    }
    // A line's indentation counts the block indicators (`- `, `? `, `: `) that open it.
    let indentation = |s: usize| {
        let mut i = s;
        while let Some(&c) = chars.get(i) {
            match (c, chars.get(i + 1)) {
                (' ', _) => i += 1,
                ('-' | '?' | ':', Some(' ')) => i += 2,
                _ => break,
            }
        }
        i - s
    };
    let deepest = starts[..line].iter().map(|&s| indentation(s)).max().unwrap_or(0);
    let mut out: String = chars[..start].iter().collect();
    out.extend(std::iter::repeat_n(' ', deepest + 1));
    out.extend(&chars[index..]);
    Some((out, line))
}

/// The character index at which each line starts.
fn line_starts(text: &str) -> Vec<usize> {
    let chars: Vec<char> = text.chars().collect();
    let mut starts = vec![0];
    for (i, &c) in chars.iter().enumerate() {
        let next = chars.get(i + 1).copied();
        if c == '\n' || (c == '\r' && next != Some('\n')) {
            starts.push(i + 1);
        }
    }
    starts
}

/// The text with the continuation lines of the quoted scalar the parser stopped in
/// re-indented, and the numbers of the lines changed; `None` when the stop is not one a
/// quoted scalar's continuation line explains (see [`load`]).
fn reindent(text: &str, info: &str, index: usize) -> Option<(String, Vec<usize>)> {
    let chars: Vec<char> = text.chars().collect();
    let starts = line_starts(text);
    let line_of = |i: usize| line_of(&starts, i);
    let at_quote = info.contains("invalid indentation in quoted scalar");
    let lines: Vec<usize> = if at_quote {
        // Stopped at the opening quote: every line up to the closing quote.
        let (close, true) = quoted_end(&chars, index)? else { return None };
        (line_of(index) + 1..=line_of(close)).collect()
    } else if info.contains("tab cannot be used as indentation") {
        // Stopped at a tab in a line's leading white space: that line (read again, a quoted
        // scalar's under-indented line stops at its opening quote, above).
        let line = line_of(index);
        let start = *starts.get(line)?;
        let prefix = chars.get(start..index)?;
        if chars.get(index) != Some(&'\t') || prefix.iter().any(|c| !matches!(c, ' ' | '\t')) {
            return None;
        }
        vec![line]
    } else {
        return None;
    };
    if lines.is_empty() {
        return None;
    }
    // Past the opening quote's column, which is past the enclosing block's indentation; for
    // the tab's line, as many spaces as it had characters of white space.
    let indent = at_quote.then(|| index - starts[line_of(index)] + 1);
    let mut out = String::with_capacity(text.len() + lines.len() * indent.unwrap_or(0));
    let mut changed = Vec::new();
    for (n, &start) in starts.iter().enumerate() {
        let end = starts.get(n + 1).copied().unwrap_or(chars.len());
        let line = chars.get(start..end)?;
        if !lines.contains(&n) {
            out.extend(line);
            continue;
        }
        // PyYAML stops on a document marker at a continuation line's start.
        if is_document_marker(&chars, start) {
            return None;
        }
        let white = line.iter().take_while(|c| matches!(c, ' ' | '\t')).count();
        let rest = &line[white..];
        let blank = rest.iter().all(|c| matches!(c, '\r' | '\n'));
        if !blank {
            out.extend(std::iter::repeat_n(' ', indent.unwrap_or(white)));
        }
        out.extend(rest);
        changed.push(n);
    }
    Some((out, changed))
}

/// The index of the quote that closes the quoted scalar opening at `quote`, and whether one
/// does (else the text's end); `None` when `quote` is no quote.
fn quoted_end(chars: &[char], quote: usize) -> Option<(usize, bool)> {
    let q = *chars.get(quote)?;
    if q != '\'' && q != '"' {
        return None;
    }
    let mut i = quote + 1;
    loop {
        match (chars.get(i), chars.get(i + 1)) {
            (None, _) => return Some((chars.len(), false)),
            (Some('\''), Some('\'')) if q == '\'' => i += 2,
            (Some('\\'), Some(_)) if q == '"' => i += 2,
            (Some(&c), _) if c == q => return Some((i, true)),
            _ => i += 1,
        }
    }
}

/// Whether the line starting at `start` starts with a document marker (see [`marker_at`]).
fn is_document_marker(chars: &[char], start: usize) -> bool {
    marker_at(chars.get(start..).unwrap_or_default().iter().copied()).is_some()
}

/// The document marker a line's characters start with, `-` for `---` and `.` for `...`,
/// when a space, a tab or the line's end follows it.
fn marker_at(mut line: impl Iterator<Item = char>) -> Option<char> {
    let c = line.next().filter(|c| matches!(c, '-' | '.'))?;
    let marker = line.next() == Some(c)
        && line.next() == Some(c)
        && line.next().is_none_or(|n| matches!(n, ' ' | '\t' | '\r' | '\n'));
    marker.then_some(c)
}

/// PyYAML's error for a document-end marker (`...`) before anything else of the stream but
/// blank lines and comments: its parser starts an implicit document there and finds no node,
/// where saphyr-parser reads an empty stream (or the document after the marker). `None`
/// otherwise, and for a line PyYAML refuses for another reason first (a tab leading it).
fn document_end_first(text: &str) -> Option<YamlError> {
    // PyYAML skips a byte-order mark at the stream's start without counting a column.
    let mut rest = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut line = 1;
    loop {
        if marker_at(rest.chars()) == Some('.') {
            let chars: Vec<char> = text.chars().collect();
            let at = text[..text.len() - rest.len()].chars().count();
            return Some(YamlError::Syntax(format!(
                "while parsing a block node\nexpected the node content, but found '<document end>'\n{}",
                py_mark(&chars, at, line, 0)
            )));
        }
        // Only blank lines and comments may come first (a tab leads to another error).
        if !matches!(rest.trim_start_matches(' ').chars().next(), Some('#' | '\r' | '\n')) {
            return None;
        }
        let end = rest.find(['\r', '\n'])?;
        let width = if rest[end..].starts_with("\r\n") { 2 } else { 1 };
        rest = &rest[end + width..];
        line += 1;
    }
}

/// The text with a space put before the comment at `hash` when a quote or a flow indicator
/// (`,` `[` `]` `{` `}`) ends right before it.
fn space_before_comment(text: &str, hash: usize) -> Option<String> {
    let chars: Vec<char> = text.chars().collect();
    if chars.get(hash) != Some(&'#')
        || !matches!(
            chars.get(hash.checked_sub(1)?),
            Some('\'' | '"' | ',' | '[' | ']' | '{' | '}')
        )
    {
        return None;
    }
    let mut out: String = chars.get(..hash)?.iter().collect();
    out.push(' ');
    out.extend(chars.get(hash..)?);
    Some(out)
}

/// PyYAML's error for a document marker at the start of a line inside the quoted scalar that
/// opens at `quote`, if there is one before the scalar closes.
fn document_marker_in_quoted(text: &str, quote: usize) -> Option<YamlError> {
    let chars: Vec<char> = text.chars().collect();
    let starts = line_starts(text);
    let (end, _) = quoted_end(&chars, quote)?;
    let marker =
        *starts.iter().find(|&&s| quote < s && s <= end && is_document_marker(&chars, s))?;
    let at = |i: usize| {
        let line = line_of(&starts, i);
        (line + 1, i - starts[line])
    };
    let ((ql, qc), (ml, mc)) = (at(quote), at(marker));
    Some(YamlError::Syntax(format!(
        "while scanning a quoted scalar\n{}\nfound unexpected document separator\n{}",
        py_mark(&chars, quote, ql, qc),
        py_mark(&chars, marker, ml, mc)
    )))
}

/// One reading of `text` (see [`load`]).
fn load_once(text: &str, attempt: &mut Attempt) -> Result<Option<Node>, YamlError> {
    let chars: Vec<char> = text.chars().collect();
    let mut b =
        Builder { pending: None, stack: Vec::new(), anchors: HashMap::new(), nodes: 0, root: None };
    let mut documents = 0usize;
    let mut first_doc: Option<Marker> = None;
    // Where tabs may appear for PyYAML: inside quoted and block scalars.
    let mut tab_ok: Vec<(usize, usize)> = Vec::new();
    // Where the collections being read start.
    let mut opened: Vec<usize> = Vec::new();
    for item in Events::new(text) {
        let (event, span) = match item {
            Ok(ev) => ev,
            Err(e) => {
                attempt.stopped = Some((e.info().to_owned(), e.marker().index()));
                check_tabs(&chars, &tab_ok, e.marker().index())?;
                return Err(YamlError::Syntax(format!(
                    "{}\n  in \"<unicode string>\", line {}, column {}",
                    e.info(),
                    e.marker().line(),
                    e.marker().col() + 1
                )));
            }
        };
        if let Event::Scalar(_, style, ..) = &event
            && *style != ScalarStyle::Plain
        {
            let quoted = matches!(style, ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted);
            // A quoted scalar ends at its closing quote (the parser's span may run on over the
            // white space after it, where a tab is no part of the scalar for PyYAML).
            let end = match quoted_end(&chars, span.start.index()) {
                Some((close, true)) if quoted => close + 1,
                _ => span.end.index(),
            };
            tab_ok.push((span.start.index(), end));
            if quoted {
                attempt.quoted.push((span.start.index(), end));
            }
        }
        match &event {
            Event::SequenceStart(..) | Event::MappingStart(..) => opened.push(span.start.index()),
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some(start) = opened.pop()
                    && matches!(chars.get(start), Some('[' | '{'))
                {
                    attempt.flows.push((start, closing_bracket(&chars, span.start.index())));
                }
            }
            _ => {}
        }
        match event {
            Event::DocumentStart(_) => {
                documents += 1;
                if documents > 1 {
                    let first = first_doc
                        .map(|m| format!("\n{}", py_marker(&chars, &m)))
                        .unwrap_or_default();
                    return Err(YamlError::Syntax(format!(
                        "expected a single document in the stream{first}\nbut found another document\n{}",
                        py_marker(&chars, &span.start)
                    )));
                }
                first_doc = Some(span.start);
            }
            Event::Scalar(value, style, anchor, tag) => {
                // YAML 1.2 allows an implicit empty key (`: x`) in a block mapping; PyYAML
                // does not.
                if value.is_empty()
                    && style == ScalarStyle::Plain
                    && chars.get(span.start.index()) == Some(&':')
                    && let Some(Frame::Map { key: None, flow: false, start, .. }) = b.stack.last()
                {
                    let context = if start.index() == span.start.index() {
                        String::new()
                    } else {
                        format!("\n{}", py_marker(&chars, start))
                    };
                    return Err(YamlError::Syntax(format!(
                        "while parsing a block mapping{context}\nexpected <block end>, but found ':'\n{}",
                        py_marker(&chars, &span.start)
                    )));
                }
                let resolved = resolve_scalar(value.as_ref(), style, tag.as_deref(), &chars, &span)
                    .unwrap_or_else(|e| {
                        b.defer(e);
                        PyValue::None
                    });
                let node = Node::new(resolved, Some(mark(&span)));
                b.count(1)?;
                b.push_value(node, anchor, 1)?;
            }
            Event::Alias(id) => {
                let Some((node, size)) = b.anchors.get(&id).cloned() else {
                    return Err(YamlError::Syntax(format!(
                        "found undefined alias\n  in \"<unicode string>\", line {}, column {}",
                        span.start.line(),
                        span.start.col() + 1
                    )));
                };
                b.count(size)?;
                b.push_value(node, 0, size)?;
            }
            Event::SequenceStart(anchor, tag) => {
                b.check_depth(&span)?;
                if let Some(t) = tag.map(|t| tag_name(&t))
                    && t != "tag:yaml.org,2002:seq"
                {
                    b.defer(unknown_tag(&t, &chars, &span));
                }
                b.stack.push(Frame::Seq { items: Vec::new(), mark: mark(&span), anchor });
            }
            Event::MappingStart(anchor, tag) => {
                b.check_depth(&span)?;
                let mut set = false;
                if let Some(t) = tag {
                    let t = tag_name(&t);
                    match t.as_str() {
                        "tag:yaml.org,2002:map" => {}
                        "tag:yaml.org,2002:set" => set = true,
                        _ => b.defer(unknown_tag(&t, &chars, &span)),
                    }
                }
                let flow = chars.get(span.start.index()) == Some(&'{');
                b.stack.push(Frame::Map {
                    pairs: Vec::new(),
                    key: None,
                    merges: Vec::new(),
                    mark: mark(&span),
                    anchor,
                    set,
                    flow,
                    start: span.start,
                });
            }
            Event::SequenceEnd => {
                if let Some(Frame::Seq { items, mark, anchor }) = b.stack.pop() {
                    let size = subtree_size(&items);
                    b.count(1)?;
                    b.push_value(Node::new(PyValue::List(items), Some(mark)), anchor, size)?;
                }
            }
            Event::MappingEnd => {
                if let Some(Frame::Map { pairs, merges, mark, anchor, set, .. }) = b.stack.pop() {
                    let pairs = match apply_merges(pairs.clone(), merges, &span) {
                        Ok(p) => p,
                        Err(e) => {
                            b.defer(e);
                            pairs
                        }
                    };
                    let size =
                        1 + pairs.iter().map(|(k, v)| node_size(k) + node_size(v)).sum::<usize>();
                    b.count(1)?;
                    let value = if set {
                        PyValue::Set(pairs.into_iter().map(|(k, _)| k).collect())
                    } else {
                        PyValue::Dict(pairs)
                    };
                    b.push_value(Node::new(value, Some(mark)), anchor, size)?;
                }
            }
            Event::StreamStart | Event::StreamEnd | Event::DocumentEnd | Event::Nothing => {}
        }
    }
    check_tabs(&chars, &tab_ok, chars.len())?;
    match b.pending {
        Some(e) => Err(e),
        None => Ok(b.root),
    }
}

/// PyYAML's `Mark.__str__`: where, then the line with a caret under the position.
fn py_mark(chars: &[char], index: usize, line: usize, col: usize) -> String {
    let breaks = ['\0', '\r', '\n', '\u{85}', '\u{2028}', '\u{2029}'];
    let max_half = 75.0 / 2.0 - 1.0;
    let mut head = "";
    let mut start = index.min(chars.len());
    while start > 0 && !breaks.contains(&chars[start - 1]) {
        start -= 1;
        #[allow(clippy::cast_precision_loss)]
        if (index - start) as f64 > max_half {
            head = " ... ";
            start += 5;
            break;
        }
    }
    let mut tail = "";
    let mut end = index.min(chars.len());
    while end < chars.len() && !breaks.contains(&chars[end]) {
        end += 1;
        #[allow(clippy::cast_precision_loss)]
        if (end - index) as f64 > max_half {
            tail = " ... ";
            end -= 5;
            break;
        }
    }
    let snippet: String = chars.get(start..end).map(|c| c.iter().collect()).unwrap_or_default();
    let pad = " ".repeat(4 + index.saturating_sub(start) + head.len());
    format!(
        "  in \"<unicode string>\", line {line}, column {}:\n    {head}{snippet}{tail}\n{pad}^",
        col + 1
    )
}

fn py_marker(chars: &[char], m: &Marker) -> String {
    py_mark(chars, m.index(), m.line(), m.col())
}

/// PyYAML's scanner only skips spaces between tokens, so a tab anywhere but inside a quoted
/// or block scalar or a comment "cannot start any token". Checks the tabs before `until`.
fn check_tabs(chars: &[char], tab_ok: &[(usize, usize)], until: usize) -> Result<(), YamlError> {
    let mut line = 1usize;
    let mut line_start = 0usize;
    let mut in_comment = false;
    for (i, &c) in chars.iter().enumerate().take(until) {
        let inside = |i: usize| tab_ok.iter().any(|&(a, b)| (a..b).contains(&i));
        match c {
            '\n' => {
                line += 1;
                line_start = i + 1;
                in_comment = false;
            }
            '#' if !in_comment && !inside(i) => {
                let prev = if i == line_start { None } else { chars.get(i - 1).copied() };
                if matches!(prev, None | Some(' ' | '\t')) {
                    in_comment = true;
                }
            }
            '\t' if !in_comment && !inside(i) => {
                return Err(YamlError::Syntax(format!(
                    "while scanning for the next token\nfound character '\\t' that cannot start any token\n{}",
                    py_mark(chars, i, line, i - line_start)
                )));
            }
            _ => {}
        }
    }
    Ok(())
}

impl Builder {
    fn defer(&mut self, e: YamlError) {
        if self.pending.is_none() {
            self.pending = Some(e);
        }
    }

    fn count(&mut self, n: usize) -> Result<(), YamlError> {
        self.nodes = self.nodes.saturating_add(n);
        if self.nodes > MAX_NODES {
            return Err(YamlError::Syntax(format!(
                "the document expands to more than {MAX_NODES} nodes (aliases included)"
            )));
        }
        Ok(())
    }

    fn check_depth(&self, span: &Span) -> Result<(), YamlError> {
        if self.stack.len() >= MAX_DEPTH {
            return Err(YamlError::Syntax(format!(
                "the document nests deeper than {MAX_DEPTH} levels\n  in \"<unicode string>\", line {}, column {}",
                span.start.line(),
                span.start.col() + 1
            )));
        }
        Ok(())
    }

    fn push_value(&mut self, node: Node, anchor: usize, size: usize) -> Result<(), YamlError> {
        let is_key = matches!(self.stack.last(), Some(Frame::Map { key: None, .. }));
        if !is_key && is_merge_key(&node) {
            self.defer(YamlError::Syntax(format!(
                "could not determine a constructor for the tag 'tag:yaml.org,2002:merge'{}",
                at(node.mark)
            )));
        }
        if anchor != 0 {
            self.anchors.insert(anchor, (node.clone(), size));
        }
        let self_pending = &mut self.pending;
        match self.stack.last_mut() {
            None => self.root = Some(node),
            Some(Frame::Seq { items, .. }) => items.push(node),
            Some(Frame::Map { pairs, key, merges, .. }) => match key.take() {
                None => {
                    if !node.value.hashable() && self_pending.is_none() {
                        *self_pending = Some(YamlError::Syntax(format!(
                            "while constructing a mapping\nfound unhashable key{}",
                            at(node.mark)
                        )));
                    }
                    *key = Some(node);
                }
                Some(k) => {
                    if is_merge_key(&k) {
                        merges.push(node);
                    } else {
                        pairs.push((k, node));
                    }
                }
            },
        }
        Ok(())
    }
}

fn at(mark: Option<(u32, u32)>) -> String {
    mark.map(|(l, c)| format!("\n  in \"<unicode string>\", line {l}, column {c}"))
        .unwrap_or_default()
}

/// A plain `<<` key (PyYAML resolves it to the merge tag).
fn is_merge_key(k: &Node) -> bool {
    matches!(&k.value, PyValue::Str(s) if s == MERGE_MARKER)
}

/// The merge key resolves to this private marker so a quoted `"<<"` stays an ordinary key.
const MERGE_MARKER: &str = "\u{0}<<merge>>";

/// PyYAML's `flatten_mapping` followed by `construct_mapping`: merged pairs come first (for a
/// list of mappings the earlier ones win), then the mapping's own pairs; the last
/// occurrence of a key sets its value and the first one its position.
fn apply_merges(
    own: Vec<(Node, Node)>,
    merges: Vec<Node>,
    span: &Span,
) -> Result<Vec<(Node, Node)>, YamlError> {
    let mut all: Vec<(Node, Node)> = Vec::new();
    for m in merges {
        match m.value {
            PyValue::Dict(pairs) => all.extend(pairs),
            PyValue::List(items) => {
                let mut subs = Vec::new();
                for item in items {
                    match item.value {
                        PyValue::Dict(pairs) => subs.push(pairs),
                        _ => return Err(merge_error(span)),
                    }
                }
                for pairs in subs.into_iter().rev() {
                    all.extend(pairs);
                }
            }
            _ => return Err(merge_error(span)),
        }
    }
    all.extend(own);
    let mut out: Vec<(Node, Node)> = Vec::with_capacity(all.len());
    for (k, v) in all {
        if let Some(slot) = out.iter_mut().find(|(k2, _)| k2.value.py_eq(&k.value)) {
            slot.1 = v;
        } else {
            out.push((k, v));
        }
    }
    Ok(out)
}

fn merge_error(span: &Span) -> YamlError {
    YamlError::Syntax(format!(
        "while constructing a mapping\nexpected a mapping or list of mappings for merging\n  in \"<unicode string>\", line {}, column {}",
        span.start.line(),
        span.start.col() + 1
    ))
}

fn unknown_tag(tag: &str, chars: &[char], span: &Span) -> YamlError {
    // PyYAML's node starts at its tag or anchor; saphyr-parser's span at the content.
    let (mut index, mut col) = (span.start.index(), span.start.col());
    for _ in 0..2 {
        let mut i = index;
        while i > 0 && chars.get(i - 1) == Some(&' ') {
            i -= 1;
        }
        let end = i;
        while i > 0 && chars.get(i - 1).is_some_and(|c| !c.is_whitespace() && !"[{,".contains(*c)) {
            i -= 1;
        }
        if i < end && matches!(chars.get(i), Some('!' | '&')) {
            col -= index - i;
            index = i;
        } else {
            break;
        }
    }
    YamlError::Syntax(format!(
        "could not determine a constructor for the tag '{tag}'\n{}",
        py_mark(chars, index, span.start.line(), col)
    ))
}

fn node_size(n: &Node) -> usize {
    match &n.value {
        PyValue::List(items) => 1 + subtree_size(items),
        PyValue::Dict(pairs) => {
            1 + pairs.iter().map(|(k, v)| node_size(k) + node_size(v)).sum::<usize>()
        }
        _ => 1,
    }
}

fn subtree_size(items: &[Node]) -> usize {
    1 + items.iter().map(node_size).sum::<usize>()
}

fn mark(span: &Span) -> (u32, u32) {
    let line = u32::try_from(span.start.line()).unwrap_or(u32::MAX);
    let col = u32::try_from(span.start.col() + 1).unwrap_or(u32::MAX);
    (line, col)
}

fn tag_name(t: &Tag) -> String {
    format!("{}{}", t.handle, t.suffix)
}

fn resolve_scalar(
    value: &str,
    style: ScalarStyle,
    tag: Option<&Tag>,
    chars: &[char],
    span: &Span,
) -> Result<PyValue, YamlError> {
    if let Some(tag) = tag {
        let name = tag_name(tag);
        let v: &str = value;
        return match name.as_str() {
            "tag:yaml.org,2002:str" => Ok(PyValue::Str(v.to_owned())),
            "tag:yaml.org,2002:null" => Ok(PyValue::None),
            "tag:yaml.org,2002:bool" => match v.to_ascii_lowercase().as_str() {
                "yes" | "true" | "on" => Ok(PyValue::Bool(true)),
                "no" | "false" | "off" => Ok(PyValue::Bool(false)),
                _ => Err(YamlError::Constructor),
            },
            "tag:yaml.org,2002:int" => construct_int(v).ok_or(YamlError::Constructor),
            "tag:yaml.org,2002:float" => construct_float(v).ok_or(YamlError::Constructor),
            "tag:yaml.org,2002:timestamp" => construct_timestamp(v).ok_or(YamlError::Constructor),
            "tag:yaml.org,2002:binary" => base64(v).map(PyValue::Bytes).ok_or_else(|| {
                YamlError::Syntax(format!(
                    "while constructing a binary value\nfailed to decode base64 data\n  in \"<unicode string>\", line {}, column {}",
                    span.start.line(),
                    span.start.col() + 1
                ))
            }),
            "!" => Ok(PyValue::Str(v.to_owned())),
            _ => Err(unknown_tag(&name, chars, span)),
        };
    }
    if style != ScalarStyle::Plain {
        return Ok(PyValue::Str(value.to_owned()));
    }
    resolve_plain(value)
}

/// PyYAML's implicit resolvers for a plain scalar.
fn resolve_plain(v: &str) -> Result<PyValue, YamlError> {
    match v {
        "" | "~" | "null" | "Null" | "NULL" => return Ok(PyValue::None),
        "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            return Ok(PyValue::Bool(true));
        }
        "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            return Ok(PyValue::Bool(false));
        }
        "<<" => return Ok(PyValue::Str(MERGE_MARKER.to_owned())),
        // The value tag has no constructor in SafeLoader.
        "=" => {
            return Err(YamlError::Syntax(
                "could not determine a constructor for the tag 'tag:yaml.org,2002:value'"
                    .to_owned(),
            ));
        }
        _ => {}
    }
    if is_yaml11_int(v) {
        return construct_int(v).ok_or(YamlError::Constructor);
    }
    if is_yaml11_float(v) {
        return construct_float(v).ok_or(YamlError::Constructor);
    }
    if is_timestamp(v) {
        return construct_timestamp(v).ok_or(YamlError::Constructor);
    }
    Ok(PyValue::Str(v.to_owned()))
}

/// Standard base64 with padding, whitespace ignored (Python's `base64.decodebytes`).
fn base64(v: &str) -> Option<Vec<u8>> {
    let digits: Vec<u8> = v.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    if !digits.len().is_multiple_of(4) {
        return None;
    }
    let val = |c: u8| -> Option<u32> {
        Some(u32::from(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        }))
    };
    let mut out = Vec::with_capacity(digits.len() / 4 * 3);
    for chunk in digits.chunks(4) {
        let pad = chunk.iter().rev().take_while(|c| **c == b'=').count();
        if pad > 2 {
            return None;
        }
        let mut n = 0u32;
        for &c in &chunk[..4 - pad] {
            n = (n << 6) | val(c)?;
        }
        n <<= 6 * u32::try_from(pad).unwrap_or(0);
        let bytes = n.to_be_bytes();
        out.extend_from_slice(&bytes[1..4 - pad]);
    }
    Some(out)
}

/// PyYAML's reader refuses characters outside its printable set anywhere in the stream.
pub(crate) fn check_characters(text: &str) -> Result<(), YamlError> {
    for (pos, c) in text.chars().enumerate() {
        let n = u32::from(c);
        let ok = matches!(n, 0x09 | 0x0A | 0x0D | 0x20..=0x7E | 0x85 | 0xA0..=0xD7FF | 0xE000..=0xFFFD | 0x10000..);
        if !ok {
            return Err(YamlError::Syntax(format!(
                "unacceptable character #x{n:04x}: special characters are not allowed\n  in \"<unicode string>\", position {pos}"
            )));
        }
    }
    Ok(())
}

fn strip_sign(v: &str) -> (bool, &str) {
    if let Some(r) = v.strip_prefix('-') {
        (true, r)
    } else if let Some(r) = v.strip_prefix('+') {
        (false, r)
    } else {
        (false, v)
    }
}

fn all_in(s: &str, ok: impl Fn(char) -> bool) -> bool {
    !s.is_empty() && s.chars().all(ok)
}

/// `[0-5]?[0-9]` groups after `:`.
fn sexagesimal_tail(parts: &[&str]) -> bool {
    !parts.is_empty()
        && parts.iter().all(|p| {
            let b = p.as_bytes();
            match b {
                [d] => d.is_ascii_digit(),
                [a, d] => (b'0'..=b'5').contains(a) && d.is_ascii_digit(),
                _ => false,
            }
        })
}

/// PyYAML's int resolver.
fn is_yaml11_int(v: &str) -> bool {
    let (_, r) = strip_sign(v);
    if let Some(b) = r.strip_prefix("0b") {
        return all_in(b, |c| c == '0' || c == '1' || c == '_');
    }
    if let Some(h) = r.strip_prefix("0x") {
        return all_in(h, |c| c.is_ascii_hexdigit() || c == '_');
    }
    if r == "0" {
        return true;
    }
    if let Some(o) = r.strip_prefix('0') {
        return all_in(o, |c| ('0'..='7').contains(&c) || c == '_');
    }
    let mut parts = r.split(':');
    let head = parts.next().unwrap_or("");
    let rest: Vec<&str> = parts.collect();
    let head_ok = head.starts_with(|c: char| ('1'..='9').contains(&c))
        && head.chars().all(|c| c.is_ascii_digit() || c == '_');
    if rest.is_empty() { head_ok } else { head_ok && sexagesimal_tail(&rest) }
}

/// PyYAML's `construct_yaml_int`: unbounded, like Python's `int` (a value beyond `i128`
/// becomes [`PyInt::Big`], whatever its base), so no spelling overflows.
pub(crate) fn construct_int(v: &str) -> Option<PyValue> {
    let cleaned: String = v.chars().filter(|&c| c != '_').collect();
    let (neg, r) = strip_sign(&cleaned);
    let mut n = BigNat::default();
    if r == "0" {
    } else if let Some(b) = r.strip_prefix("0b") {
        n.push_digits(b, 2)?;
    } else if let Some(h) = r.strip_prefix("0x") {
        n.push_digits(h, 16)?;
    } else if r.len() > 1 && r.starts_with('0') {
        n.push_digits(&r[1..], 8)?;
    } else if r.contains(':') {
        // `int(part)` for each part, then `value = value * 60 + part`.
        for part in r.split(':') {
            let mut p = BigNat::default();
            p.push_digits(part, 10)?;
            n.mul_add(60, 0);
            n.add(&p);
        }
    } else {
        n.push_digits(r, 10)?;
    }
    Some(PyValue::Int(n.into_py(neg)))
}

/// A natural number in base 10⁹ limbs, least significant first: just enough arithmetic for
/// YAML integers of any length.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct BigNat(Vec<u32>);

const LIMB: u64 = 1_000_000_000;

impl BigNat {
    /// `self = self * m + a`.
    fn mul_add(&mut self, m: u32, a: u32) {
        let mut carry = u64::from(a);
        for limb in &mut self.0 {
            let t = u64::from(*limb) * u64::from(m) + carry;
            *limb = u32::try_from(t % LIMB).unwrap_or(0);
            carry = t / LIMB;
        }
        while carry > 0 {
            self.0.push(u32::try_from(carry % LIMB).unwrap_or(0));
            carry /= LIMB;
        }
    }

    fn add(&mut self, other: &BigNat) {
        let mut carry = 0u64;
        for i in 0..self.0.len().max(other.0.len()) {
            if i == self.0.len() {
                self.0.push(0);
            }
            let t = u64::from(self.0[i]) + u64::from(other.0.get(i).copied().unwrap_or(0)) + carry;
            self.0[i] = u32::try_from(t % LIMB).unwrap_or(0);
            carry = t / LIMB;
        }
        if carry > 0 {
            self.0.push(u32::try_from(carry).unwrap_or(0));
        }
    }

    /// Appends `digits` in `radix`; `None` when there are none or one is not a digit (Python's
    /// `int('', 2)` raises).
    fn push_digits(&mut self, digits: &str, radix: u32) -> Option<()> {
        if digits.is_empty() {
            return None;
        }
        for c in digits.chars() {
            self.mul_add(radix, c.to_digit(radix)?);
        }
        Some(())
    }

    /// Decimal digits, without leading zeros.
    fn decimal(&self) -> String {
        let mut limbs = self.0.iter().rev().skip_while(|l| **l == 0);
        let Some(first) = limbs.next() else { return "0".to_owned() };
        let mut out = first.to_string();
        for l in limbs {
            out.push_str(&format!("{l:09}"));
        }
        out
    }

    fn into_py(self, neg: bool) -> PyInt {
        let digits = self.decimal();
        let signed = if neg && digits != "0" { format!("-{digits}") } else { digits };
        match signed.parse::<i128>() {
            Ok(i) => PyInt::Small(i),
            Err(_) => PyInt::Big(signed),
        }
    }
}

/// PyYAML's float resolver (a dot is required; an exponent needs a sign).
fn is_yaml11_float(v: &str) -> bool {
    if matches!(v, ".nan" | ".NaN" | ".NAN") {
        return true;
    }
    let (_, r) = strip_sign(v);
    if matches!(r, ".inf" | ".Inf" | ".INF") {
        return true;
    }
    let exp_ok = |e: &str| {
        let Some(rest) = e.strip_prefix(['e', 'E']) else { return false };
        let Some(digits) = rest.strip_prefix(['-', '+']) else { return false };
        all_in(digits, |c| c.is_ascii_digit())
    };
    let split_exp = |s: &str| -> (String, Option<String>) {
        match s.find(['e', 'E']) {
            Some(i) => (s[..i].to_owned(), Some(s[i..].to_owned())),
            None => (s.to_owned(), None),
        }
    };
    // [-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]*
    if r.contains(':') {
        let Some((whole, frac)) = r.split_once('.') else { return false };
        let mut parts = whole.split(':');
        let head = parts.next().unwrap_or("");
        let rest: Vec<&str> = parts.collect();
        return head.starts_with(|c: char| c.is_ascii_digit())
            && head.chars().all(|c| c.is_ascii_digit() || c == '_')
            && sexagesimal_tail(&rest)
            && frac.chars().all(|c| c.is_ascii_digit() || c == '_');
    }
    // \.[0-9_]+(exp)? : no sign allowed before the dot in this branch.
    if let Some(frac) = v.strip_prefix('.') {
        let (f, e) = split_exp(frac);
        return all_in(&f, |c| c.is_ascii_digit() || c == '_') && e.as_deref().is_none_or(exp_ok);
    }
    // [-+]?[0-9][0-9_]*\.[0-9_]*(exp)?
    let Some((whole, frac)) = r.split_once('.') else { return false };
    let (f, e) = split_exp(frac);
    whole.starts_with(|c: char| c.is_ascii_digit())
        && whole.chars().all(|c| c.is_ascii_digit() || c == '_')
        && f.chars().all(|c| c.is_ascii_digit() || c == '_')
        && e.as_deref().is_none_or(exp_ok)
}

fn construct_float(v: &str) -> Option<PyValue> {
    let cleaned: String = v.chars().filter(|&c| c != '_').collect::<String>().to_ascii_lowercase();
    let (neg, r) = strip_sign(&cleaned);
    let sign = if neg { -1.0 } else { 1.0 };
    if r == ".inf" {
        return Some(PyValue::Float(sign * f64::INFINITY));
    }
    if r == ".nan" {
        return Some(PyValue::Float(f64::NAN));
    }
    if r.contains(':') {
        // PyYAML sums from the last part up, each times a growing power of 60; the same
        // order of operations gives the same rounding.
        let mut total = 0.0f64;
        let mut base = 1.0f64;
        for part in r.split(':').rev() {
            let text = if part.ends_with('.') { format!("{part}0") } else { part.to_owned() };
            total += text.parse::<f64>().ok()? * base;
            base *= 60.0;
        }
        return Some(PyValue::Float(sign * total));
    }
    let text = if r.ends_with('.') { format!("{r}0") } else { r.to_owned() };
    let text = if text.starts_with('.') { format!("0{text}") } else { text };
    text.parse::<f64>().ok().map(|f| PyValue::Float(sign * f))
}

fn digits_n(s: &str, min: usize, max: usize) -> bool {
    (min..=max).contains(&s.len()) && s.chars().all(|c| c.is_ascii_digit())
}

/// PyYAML's timestamp resolver.
fn is_timestamp(v: &str) -> bool {
    split_timestamp(v).is_some()
}

/// Hours, minutes, seconds, fraction digits and zone of a timestamp.
type Clock<'a> = (&'a str, &'a str, &'a str, Option<&'a str>, Option<&'a str>);

struct Stamp<'a> {
    y: &'a str,
    m: &'a str,
    d: &'a str,
    time: Option<Clock<'a>>,
}

fn split_timestamp(v: &str) -> Option<Stamp<'_>> {
    let b = v.as_bytes();
    if b.len() < 8 {
        return None;
    }
    let y = v.get(0..4)?;
    if !digits_n(y, 4, 4) || b.get(4) != Some(&b'-') {
        return None;
    }
    let rest = &v[5..];
    let (m, rest) = rest.split_once('-')?;
    if !digits_n(m, 1, 2) {
        return None;
    }
    let date_end = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
    let d = &rest[..date_end];
    let rest = &rest[date_end..];
    if rest.is_empty() {
        // Date only: exactly YYYY-MM-DD.
        return (m.len() == 2 && d.len() == 2).then_some(Stamp { y, m, d, time: None });
    }
    if !digits_n(d, 1, 2) {
        return None;
    }
    let rest = if let Some(r) = rest.strip_prefix(['T', 't']) {
        r
    } else {
        let r = rest.trim_start_matches([' ', '\t']);
        if r.len() == rest.len() {
            return None;
        }
        r
    };
    let (hh, rest) = rest.split_once(':')?;
    if !digits_n(hh, 1, 2) {
        return None;
    }
    let mm = rest.get(0..2)?;
    if !digits_n(mm, 2, 2) || rest.as_bytes().get(2) != Some(&b':') {
        return None;
    }
    let ss = rest.get(3..5)?;
    if !digits_n(ss, 2, 2) {
        return None;
    }
    let mut rest = &rest[5..];
    let mut frac = None;
    if let Some(r) = rest.strip_prefix('.') {
        let end = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len());
        frac = Some(&r[..end]);
        rest = &r[end..];
    }
    let rest = rest.trim_start_matches([' ', '\t']);
    let tz = if rest.is_empty() {
        None
    } else if rest == "Z" {
        Some("Z")
    } else {
        let (_, body) = rest.split_at(1);
        if !rest.starts_with(['+', '-']) {
            return None;
        }
        let ok = match body.split_once(':') {
            Some((h, m)) => digits_n(h, 1, 2) && digits_n(m, 2, 2),
            None => digits_n(body, 1, 2),
        };
        if !ok {
            return None;
        }
        Some(rest)
    };
    Some(Stamp { y, m, d, time: Some((hh, mm, ss, frac, tz)) })
}

fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        _ => 28,
    }
}

fn construct_timestamp(v: &str) -> Option<PyValue> {
    let s = split_timestamp(v)?;
    let y: i64 = s.y.parse().ok()?;
    let m: u32 = s.m.parse().ok()?;
    let d: u32 = s.d.parse().ok()?;
    if y < 1 || !(1..=12).contains(&m) || d < 1 || d > days_in_month(y, m) {
        return None;
    }
    let Some((hh, mm, ss, frac, tz)) = s.time else { return Some(PyValue::Date(y, m, d)) };
    let hh: u32 = hh.parse().ok()?;
    let mm: u32 = mm.parse().ok()?;
    let ss: u32 = ss.parse().ok()?;
    if hh > 23 || mm > 59 || ss > 59 {
        return None;
    }
    let micro: u32 = match frac {
        Some(f) if !f.is_empty() => {
            let six: String = f.chars().chain(std::iter::repeat('0')).take(6).collect();
            six.parse().ok()?
        }
        _ => 0,
    };
    let mut parts =
        vec![y.to_string(), m.to_string(), d.to_string(), hh.to_string(), mm.to_string()];
    if ss != 0 || micro != 0 {
        parts.push(ss.to_string());
    }
    if micro != 0 {
        parts.push(micro.to_string());
    }
    let tzinfo = match tz {
        None => String::new(),
        Some("Z") => ", tzinfo=datetime.timezone.utc".to_owned(),
        Some(off) => {
            let (neg, body) = strip_sign(off);
            let (h, m) = body.split_once(':').unwrap_or((body, "0"));
            let secs =
                i64::from(h.parse::<u32>().ok()?) * 3600 + i64::from(m.parse::<u32>().ok()?) * 60;
            if secs == 0 {
                ", tzinfo=datetime.timezone.utc".to_owned()
            } else {
                let secs = if neg { -secs } else { secs };
                format!(", tzinfo=datetime.timezone(datetime.timedelta(seconds={secs}))")
            }
        }
    };
    Some(PyValue::DateTime(format!("datetime.datetime({}{tzinfo})", parts.join(", "))))
}

#[cfg(test)]
mod tests;
