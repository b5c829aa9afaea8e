//! Python `re` syntax checking: decides whether Python would compile a pattern, and words
//! the error as `re.error` (or `OverflowError`/`RecursionError`) does, for the skip reason.
//!
//! This follows `sre_parse` (`re/_parser.py`) closely enough for the errors users make
//! (unterminated sets and groups, misplaced quantifiers, bad escapes, group names and
//! references, inline flags and where global flags may stand), and it reads the pattern's
//! inline flags from the parse, not from its text: which flags are in effect at each `$`,
//! escape and verbose-mode blank is known from the groups that enclose it. [`parse`] returns
//! the rewrites the regex engine needs for those flags ([`Parsed::rewrite`]).

/// Python's `MAXREPEAT`: repeat counts at or above it overflow.
const MAX_REPEAT: u64 = 4_294_967_295;

/// How deep groups may nest before Python's parser runs out of recursion.
const MAX_NESTING: usize = 400;

/// Python's inline flag letters and their `re` values.
const FLAG_LETTERS: [(char, u16); 7] =
    [('i', 2), ('L', 4), ('m', 8), ('s', 16), ('u', 32), ('x', 64), ('a', 256)];
const IGNORECASE: u16 = 2;
const MULTILINE: u16 = 8;
const DOTALL: u16 = 16;
const UNICODE: u16 = 32;
const VERBOSE: u16 = 64;
const ASCII: u16 = 256;
/// `a`, `u` and `L`: exclusive, and never turned off.
const TYPE_FLAGS: u16 = 4 | UNICODE | ASCII;

/// Python's `re` whitespace, which verbose mode skips.
const WHITESPACE: [char; 6] = [' ', '\t', '\n', '\r', '\u{b}', '\u{c}'];

/// `$` outside multiline mode: at the end, or before a newline that ends the text (Python's
/// `$`, which the regex engine's `$` is not).
const PY_DOLLAR: &str = "(?:(?=\\n\\z)|\\z)";

/// ASCII-mode (`(?a)`) classes for the escapes whose Unicode meaning is wider.
const ASCII_WORD: &str = "0-9A-Za-z_";
const ASCII_SPACE: &str = "\\t\\n\\x0b\\x0c\\r ";

fn flag_bit(c: char) -> Option<u16> {
    FLAG_LETTERS.iter().find(|(l, _)| *l == c).map(|(_, b)| *b)
}

/// The letters of the flags the regex engine understands the same way (`i`, `m`, `s`).
fn engine_letters(bits: u16) -> String {
    [('i', IGNORECASE), ('m', MULTILINE), ('s', DOTALL)]
        .iter()
        .filter(|(_, b)| bits & b != 0)
        .map(|(c, _)| *c)
        .collect()
}

/// A pattern Python accepts, with what its flags mean for the regex engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Parsed {
    /// The global flags (the `(?aiLmsux)` groups at the start), as `re` values.
    pub(crate) global: u16,
    /// Character ranges of the pattern to replace, in order and not overlapping: flag groups
    /// reduced to the flags the engine shares with Python, `$` outside multiline mode,
    /// verbose-mode blanks and comments removed, ASCII-mode classes, literal braces.
    edits: Vec<(usize, usize, String)>,
}

impl Parsed {
    /// The pattern with the edits applied: no verbose mode, no `a`/`u`/`L` flags, `$` as
    /// Python means it; the global `i`/`m`/`s` flags lead it.
    pub(crate) fn rewrite(&self, pattern: &str) -> String {
        let chars: Vec<char> = pattern.chars().collect();
        let global = engine_letters(self.global);
        let mut out = String::with_capacity(pattern.len() + 16);
        if !global.is_empty() {
            out.push_str(&format!("(?{global})"));
        }
        let mut at = 0;
        for (start, end, text) in &self.edits {
            out.extend(&chars[at..*start]);
            out.push_str(text);
            at = *end;
        }
        out.extend(&chars[at..]);
        out
    }
}

/// Why Python's `re.compile` refuses a pattern, worded as `re.error` (or `OverflowError`,
/// `RecursionError`) words it: the message, the position in the pattern (in characters) when
/// Python names one, and for a pattern of several lines the line and column of that
/// position (`nothing to repeat at position 5 (line 2, column 1)`).
///
/// Boxed: the parser recurses once per group, and a small error keeps its frames small.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{}{}", .0.message, position_text(.0.position), line_text(.0.line_column))]
pub(crate) struct PatternError(Box<PatternDetail>);

/// The parts of a [`PatternError`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PatternDetail {
    /// What is wrong, without the position.
    pub(crate) message: String,
    /// Where, in characters from the start of the pattern.
    pub(crate) position: Option<usize>,
    /// The line and column of `position`, for a pattern of several lines.
    pub(crate) line_column: Option<(usize, usize)>,
}

fn position_text(position: Option<usize>) -> String {
    position.map(|p| format!(" at position {p}")).unwrap_or_default()
}

fn line_text(line_column: Option<(usize, usize)>) -> String {
    line_column.map(|(l, c)| format!(" (line {l}, column {c})")).unwrap_or_default()
}

impl PatternError {
    /// An error Python reports without a position.
    pub(crate) fn new(message: impl Into<String>) -> PatternError {
        PatternError(Box::new(PatternDetail {
            message: message.into(),
            position: None,
            line_column: None,
        }))
    }

    /// An error at `position`.
    pub(crate) fn at(message: impl Into<String>, position: usize) -> PatternError {
        let mut e = PatternError::new(message);
        e.0.position = Some(position);
        e
    }

    /// Its parts.
    #[cfg(test)]
    pub(crate) fn detail(&self) -> &PatternDetail {
        &self.0
    }
}

/// Checks `p` as Python's `re.compile` would; the error is Python's message.
#[cfg(test)]
pub(crate) fn check(p: &str) -> Result<(), PatternError> {
    parse(p).map(|_| ())
}

/// Parses `p` as Python's `re.compile` would: its flags and rewrites, or Python's message.
pub(crate) fn parse(p: &str) -> Result<Parsed, PatternError> {
    parse_inner(p).map_err(|e| with_line_and_column(p, e))
}

/// `re.error` adds the line and column to its message when the pattern has several lines
/// (`nothing to repeat at position 5 (line 2, column 1)`).
fn with_line_and_column(p: &str, mut error: PatternError) -> PatternError {
    let Some(pos) = error.0.position.filter(|_| p.contains('\n')) else { return error };
    let before: Vec<char> = p.chars().take(pos).collect();
    let line = before.iter().filter(|c| **c == '\n').count() + 1;
    let column = match before.iter().rposition(|c| *c == '\n') {
        Some(nl) => pos - nl,
        None => pos + 1,
    };
    error.0.line_column = Some((line, column));
    error
}

fn parse_inner(p: &str) -> Result<Parsed, PatternError> {
    let chars: Vec<char> = p.chars().collect();
    let mut c = Checker {
        s: &chars,
        pos: 0,
        groups: 0,
        open: Vec::new(),
        names: Vec::new(),
        depth: 0,
        flags: 0,
        global: 0,
        edits: Vec::new(),
    };
    c.alternation(true)?;
    if c.pos < chars.len() {
        // Only a `)` stops the top level early.
        return Err(PatternError::at("unbalanced parenthesis", c.pos));
    }
    if c.global & ASCII != 0 && c.global & UNICODE != 0 {
        // `fix_flags`, after `(?a)(?u)`: Python's ValueError.
        return Err(PatternError::new("ASCII and UNICODE flags are incompatible"));
    }
    c.edits.sort_by_key(|e| e.0);
    Ok(Parsed { global: c.global, edits: c.edits })
}

/// ASCII mode's spelling of a class escape outside a class, for an engine in Unicode mode.
fn ascii_escape(e: char) -> Option<String> {
    let word = format!("[{ASCII_WORD}]");
    Some(match e {
        'w' => word,
        'W' => format!("[^{ASCII_WORD}]"),
        'd' => "[0-9]".to_owned(),
        'D' => "[^0-9]".to_owned(),
        's' => format!("[{ASCII_SPACE}]"),
        'S' => format!("[^{ASCII_SPACE}]"),
        'b' => format!("(?:(?<={word})(?!{word})|(?<!{word})(?={word}))"),
        'B' => format!("(?:(?!\\A\\z)(?:(?<={word})(?={word})|(?<!{word})(?!{word})))"),
        _ => return None,
    })
}

/// A `{m,n}` repeat: the bounds (`None` when left out) and where it ends.
type Braces = (Option<u64>, Option<u64>, usize);

/// What a group turned out to be.
enum Group {
    /// An item of the sequence: whether it may take a quantifier, and its width.
    Item(bool, Width),
    /// Nothing the sequence holds: a comment, or global flags.
    Skip,
}

/// What an escape outside a class stands for.
enum Esc {
    /// A zero-width assertion (`\\b`, `\\A`).
    Anchor,
    /// One character.
    Char,
    /// A group reference.
    GroupRef,
}

/// The shortest and longest text a piece can match (`None`: unbounded).
type Width = (u64, Option<u64>);

fn add(a: Width, b: Width) -> Width {
    (a.0.saturating_add(b.0), a.1.zip(b.1).map(|(x, y)| x.saturating_add(y)))
}

struct Checker<'a> {
    s: &'a [char],
    pos: usize,
    /// Groups opened so far (the number of the last one).
    groups: usize,
    /// Groups still open (a reference to them is invalid).
    open: Vec<usize>,
    names: Vec<(String, usize)>,
    depth: usize,
    /// The flags in effect here.
    flags: u16,
    /// The global flags seen so far.
    global: u16,
    /// Rewrites for the regex engine (see [`Parsed`]).
    edits: Vec<(usize, usize, String)>,
}

impl Checker<'_> {
    fn peek(&self) -> Option<char> {
        self.s.get(self.pos).copied()
    }

    fn at(&self, i: usize) -> Option<char> {
        self.s.get(i).copied()
    }

    fn edit(&mut self, start: usize, end: usize, text: impl Into<String>) {
        self.edits.push((start, end, text.into()));
    }

    /// Branches separated by `|`, up to a `)` or the end. Global flags may open the first
    /// branch of the top level only.
    fn alternation(&mut self, top: bool) -> Result<Width, PatternError> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(PatternError::new("maximum recursion depth exceeded"));
        }
        let mut width: Option<Width> = None;
        loop {
            let w = self.sequence(top && width.is_none())?;
            width = Some(match width {
                None => w,
                Some(acc) => (acc.0.min(w.0), acc.1.zip(w.1).map(|(a, b)| a.max(b))),
            });
            if self.peek() == Some('|') {
                self.pos += 1;
                continue;
            }
            break;
        }
        self.depth -= 1;
        Ok(width.unwrap_or((0, Some(0))))
    }

    /// Items up to `|`, `)` or the end; `first` when global flags may stand at its start.
    fn sequence(&mut self, first: bool) -> Result<Width, PatternError> {
        // Whether the last item may take a quantifier, and whether it already has one.
        let mut can_repeat = false;
        let mut repeated = false;
        let mut total: Width = (0, Some(0));
        // The width of the last item, not yet added to `total` (a quantifier scales it).
        let mut last: Width = (0, Some(0));
        // Whether the sequence holds anything yet (global flags must come before it all).
        let mut held = false;
        while let Some(ch) = self.peek() {
            let here = self.pos;
            match ch {
                '|' | ')' => return Ok(add(total, last)),
                c if self.flags & VERBOSE != 0 && WHITESPACE.contains(&c) => {
                    self.pos += 1;
                    self.edit(here, self.pos, "");
                }
                '#' if self.flags & VERBOSE != 0 => {
                    while let Some(c) = self.peek() {
                        self.pos += 1;
                        if c == '\n' {
                            break;
                        }
                    }
                    self.edit(here, self.pos, "");
                }
                '*' | '+' | '?' => {
                    self.pos += 1;
                    if repeated {
                        return Err(PatternError::at("multiple repeat", here));
                    }
                    if !can_repeat {
                        return Err(PatternError::at("nothing to repeat", here));
                    }
                    self.lazy_or_possessive();
                    last = match ch {
                        '*' => (0, None),
                        '+' => (last.0, None),
                        _ => (0, last.1),
                    };
                    repeated = true;
                }
                '{' => {
                    if let Some((lo, hi, end)) = self.braces(here)? {
                        if repeated {
                            return Err(PatternError::at("multiple repeat", here));
                        }
                        if !can_repeat {
                            return Err(PatternError::at("nothing to repeat", here));
                        }
                        if let (Some(lo), Some(hi)) = (lo, hi)
                            && lo > hi
                        {
                            return Err(PatternError::at(
                                "min repeat greater than max repeat",
                                here + 1,
                            ));
                        }
                        self.pos = end;
                        self.lazy_or_possessive();
                        let lo_n = lo.unwrap_or(0);
                        last = (
                            last.0.saturating_mul(lo_n),
                            match hi {
                                None => None,
                                Some(h) => last.1.map(|m| m.saturating_mul(h)),
                            },
                        );
                        repeated = true;
                    } else {
                        // A literal brace (escaped: without verbose mode the engine could
                        // read `{1, 3}` with its blank removed as a repeat).
                        self.pos += 1;
                        self.edit(here, self.pos, "\\{");
                        held = true;
                        total = add(total, last);
                        last = (1, Some(1));
                        can_repeat = true;
                        repeated = false;
                    }
                }
                '(' => {
                    total = add(total, last);
                    match self.group(first && !held)? {
                        Group::Item(repeatable, w) => {
                            last = w;
                            can_repeat = repeatable;
                            held = true;
                        }
                        Group::Skip => {
                            last = (0, Some(0));
                            can_repeat = false;
                        }
                    }
                    repeated = false;
                }
                '[' => {
                    self.class()?;
                    held = true;
                    total = add(total, last);
                    last = (1, Some(1));
                    can_repeat = true;
                    repeated = false;
                }
                '\\' => {
                    held = true;
                    total = add(total, last);
                    let (repeatable, w) = self.escape()?;
                    last = w;
                    can_repeat = repeatable;
                    repeated = false;
                }
                '^' | '$' => {
                    if ch == '$' && self.flags & MULTILINE == 0 {
                        self.edit(here, here + 1, PY_DOLLAR);
                    }
                    held = true;
                    self.pos += 1;
                    total = add(total, last);
                    last = (0, Some(0));
                    can_repeat = false;
                    repeated = false;
                }
                _ => {
                    self.pos += 1;
                    held = true;
                    total = add(total, last);
                    last = (1, Some(1));
                    can_repeat = true;
                    repeated = false;
                }
            }
        }
        Ok(add(total, last))
    }

    fn lazy_or_possessive(&mut self) {
        if matches!(self.peek(), Some('?' | '+')) {
            self.pos += 1;
        }
    }

    /// `{m}`, `{m,}`, `{,n}`, `{m,n}` at `start`: the bounds and the end, or `None` when the
    /// brace is a literal.
    fn braces(&self, start: usize) -> Result<Option<Braces>, PatternError> {
        let mut i = start + 1;
        let mut lo = String::new();
        while let Some(c) = self.at(i).filter(char::is_ascii_digit) {
            lo.push(c);
            i += 1;
        }
        let mut hi = None;
        if self.at(i) == Some(',') {
            i += 1;
            let mut h = String::new();
            while let Some(c) = self.at(i).filter(char::is_ascii_digit) {
                h.push(c);
                i += 1;
            }
            hi = Some(h);
        }
        if self.at(i) != Some('}')
            || (lo.is_empty() && hi.as_deref().is_none_or(str::is_empty) && hi.is_none())
        {
            return Ok(None);
        }
        let num = |s: &str| -> Result<Option<u64>, PatternError> {
            if s.is_empty() {
                return Ok(None);
            }
            match s.parse::<u64>() {
                Ok(n) if n < MAX_REPEAT => Ok(Some(n)),
                _ => Err(PatternError::new("the repetition number is too large")),
            }
        };
        let lo_n = num(&lo)?;
        let hi_n = match &hi {
            None => lo_n,
            Some(h) => num(h)?,
        };
        Ok(Some((lo_n, hi_n, i + 1)))
    }

    /// A group at `(`; `first` when global flags may stand here.
    fn group(&mut self, first: bool) -> Result<Group, PatternError> {
        let open = self.pos;
        self.pos += 1;
        let mut capture: Option<usize> = None;
        // The flags inside the group (scoped flags change them).
        let mut inner = self.flags;
        let mut lookaround = false;
        let mut lookbehind = false;
        if self.peek() == Some('?') {
            let q = self.pos;
            self.pos += 1;
            match self.peek() {
                Some(':' | '>') => self.pos += 1,
                Some('=' | '!') => {
                    self.pos += 1;
                    lookaround = true;
                }
                Some('<') if matches!(self.at(self.pos + 1), Some('=' | '!')) => {
                    self.pos += 2;
                    lookaround = true;
                    lookbehind = true;
                }
                Some('#') => {
                    while let Some(c) = self.peek() {
                        self.pos += 1;
                        if c == ')' {
                            self.edit(open, self.pos, "");
                            return Ok(Group::Skip);
                        }
                    }
                    return Err(PatternError::at("missing ), unterminated comment", open));
                }
                Some('P') => match self.at(self.pos + 1) {
                    Some('<') => {
                        self.pos += 2;
                        let name = self.name(">")?;
                        self.groups += 1;
                        if let Some((_, was)) = self.names.iter().find(|(n, _)| *n == name.0) {
                            return Err(PatternError::at(
                                format!(
                                    "redefinition of group name {} as group {}; was group {was}",
                                    crate::pyval::str_repr(&name.0),
                                    self.groups
                                ),
                                name.1,
                            ));
                        }
                        self.names.push((name.0, self.groups));
                        capture = Some(self.groups);
                    }
                    Some('=') => {
                        self.pos += 2;
                        let (n, at) = self.name(")")?;
                        match self.names.iter().find(|(m, _)| *m == n) {
                            Some((_, g)) if !self.open.contains(g) => {
                                return Ok(Group::Item(true, (0, None)));
                            }
                            Some(_) => {
                                return Err(PatternError::at("cannot refer to an open group", at));
                            }
                            None => {
                                return Err(PatternError::at(
                                    format!("unknown group name {}", crate::pyval::str_repr(&n)),
                                    at,
                                ));
                            }
                        }
                    }
                    other => {
                        let shown =
                            other.map(|c| format!("P{c}")).unwrap_or_else(|| "P".to_owned());
                        return Err(PatternError::at(format!("unknown extension ?{shown}"), q));
                    }
                },
                Some('(') => {
                    // A conditional `(?(id)yes|no)`: read the condition loosely.
                    while let Some(c) = self.peek() {
                        self.pos += 1;
                        if c == ')' {
                            break;
                        }
                    }
                }
                Some(c) if c == '-' || flag_bit(c).is_some() => {
                    self.pos += 1;
                    match self.flag_group(open, first, c)? {
                        None => return Ok(Group::Skip),
                        Some(flags) => inner = flags,
                    }
                }
                Some('<') => {
                    let next = self.at(self.pos + 1).map(String::from).unwrap_or_default();
                    return Err(PatternError::at(format!("unknown extension ?<{next}"), q));
                }
                Some(c) => return Err(PatternError::at(format!("unknown extension ?{c}"), q)),
                None => return Err(PatternError::at("unexpected end of pattern", self.pos)),
            }
        } else {
            self.groups += 1;
            capture = Some(self.groups);
        }
        if let Some(g) = capture {
            self.open.push(g);
        }
        let outer = std::mem::replace(&mut self.flags, inner);
        let body = self.pos;
        let width = self.alternation(false)?;
        self.flags = outer;
        if self.peek() != Some(')') {
            return Err(PatternError::at("missing ), unterminated subpattern", open));
        }
        self.empty_body(body);
        self.pos += 1;
        if let Some(g) = capture {
            self.open.retain(|o| *o != g);
        }
        if lookbehind && width.1 != Some(width.0) {
            return Err(PatternError::new("look-behind requires fixed-width pattern"));
        }
        Ok(Group::Item(true, if lookaround { (0, Some(0)) } else { width }))
    }

    /// A group whose body (from `body` to the `)` here) is empty once rewritten (verbose
    /// blanks, comments) gets an empty alternation: the engine refuses to repeat `(?:)`,
    /// Python does not.
    #[inline(never)]
    fn empty_body(&mut self, body: usize) {
        let close = self.pos;
        let removed: usize = self
            .edits
            .iter()
            .filter(|(s, e, t)| *s >= body && *e <= close && t.is_empty())
            .map(|(s, e, _)| e - s)
            .sum();
        if removed == close - body {
            self.edit(close, close, "|");
        }
    }

    /// A flag group at `open` whose first letter `c` was read: global flags (`None`, only
    /// where `first` allows them) or the flags inside a scoped group. Kept out of [`group`]
    /// so that the recursion's frames stay small.
    #[inline(never)]
    fn flag_group(
        &mut self,
        open: usize,
        first: bool,
        c: char,
    ) -> Result<Option<u16>, PatternError> {
        match self.flags_group(c)? {
            None => {
                if !first {
                    return Err(PatternError::at(
                        "global flags not at the start of the expression",
                        open,
                    ));
                }
                self.edit(open, self.pos, "");
                Ok(None)
            }
            Some((on, off)) => {
                let mut header = format!("(?{}", engine_letters(on));
                let off_letters = engine_letters(off);
                if !off_letters.is_empty() {
                    header.push('-');
                    header.push_str(&off_letters);
                }
                header.push(':');
                self.edit(open, self.pos, header);
                Ok(Some((self.flags | on) & !off))
            }
        }
    }

    /// `_parse_flags`: the flags of `(?…)` after its first letter `first` (already read).
    /// `None` for global flags (`(?im)`, which apply to the whole pattern and are recorded),
    /// otherwise the flags turned on and off for a scoped group (`(?i-s:…)`).
    #[inline(never)]
    fn flags_group(&mut self, first: char) -> Result<Option<(u16, u16)>, PatternError> {
        let len = self.s.len();
        let mut on = 0u16;
        let mut off = 0u16;
        let mut ch = first;
        if ch != '-' {
            loop {
                let bit = flag_bit(ch).unwrap_or(0);
                if ch == 'L' {
                    return Err(PatternError::at(
                        "bad inline flags: cannot use 'L' flag with a str pattern",
                        self.pos,
                    ));
                }
                on |= bit;
                if bit & TYPE_FLAGS != 0 && on & TYPE_FLAGS != bit {
                    return Err(PatternError::at(
                        "bad inline flags: flags 'a', 'u' and 'L' are incompatible",
                        self.pos,
                    ));
                }
                let Some(next) = self.peek() else {
                    return Err(PatternError::at("missing -, : or )", len));
                };
                self.pos += 1;
                ch = next;
                if matches!(ch, ')' | '-' | ':') {
                    break;
                }
                if flag_bit(ch).is_none() {
                    let what =
                        if ch.is_alphabetic() { "unknown flag" } else { "missing -, : or )" };
                    return Err(PatternError::at(what, self.pos - 1));
                }
            }
        }
        if ch == ')' {
            self.global |= on;
            self.flags |= on;
            return Ok(None);
        }
        if ch == '-' {
            let Some(next) = self.peek() else {
                return Err(PatternError::at("missing flag", len));
            };
            self.pos += 1;
            ch = next;
            if flag_bit(ch).is_none() {
                let what = if ch.is_alphabetic() { "unknown flag" } else { "missing flag" };
                return Err(PatternError::at(what, self.pos - 1));
            }
            loop {
                let bit = flag_bit(ch).unwrap_or(0);
                if bit & TYPE_FLAGS != 0 {
                    return Err(PatternError::at(
                        "bad inline flags: cannot turn off flags 'a', 'u' and 'L'",
                        self.pos,
                    ));
                }
                off |= bit;
                let Some(next) = self.peek() else {
                    return Err(PatternError::at("missing :", len));
                };
                self.pos += 1;
                ch = next;
                if ch == ':' {
                    break;
                }
                if flag_bit(ch).is_none() {
                    let what = if ch.is_alphabetic() { "unknown flag" } else { "missing :" };
                    return Err(PatternError::at(what, self.pos - 1));
                }
            }
        }
        if on & off != 0 {
            return Err(PatternError::at("bad inline flags: flag turned on and off", self.pos - 1));
        }
        Ok(Some((on, off)))
    }

    /// A group name up to `end`; returns it with its position.
    fn name(&mut self, end: &str) -> Result<(String, usize), PatternError> {
        let start = self.pos;
        let mut name = String::new();
        loop {
            match self.peek() {
                None => {
                    return Err(PatternError::at(
                        format!("missing {end}, unterminated name"),
                        start,
                    ));
                }
                Some(c) if end.starts_with(c) => {
                    self.pos += 1;
                    break;
                }
                Some(c) => {
                    name.push(c);
                    self.pos += 1;
                }
            }
        }
        if name.is_empty() {
            return Err(PatternError::at("missing group name", start));
        }
        let ident = name.chars().next().is_some_and(|c| c == '_' || c.is_alphabetic())
            && name.chars().all(|c| c == '_' || c.is_alphanumeric());
        if !ident {
            return Err(PatternError::at(
                format!("bad character in group name {}", crate::pyval::str_repr(&name)),
                start,
            ));
        }
        Ok((name, start))
    }

    /// An escape outside a class; returns whether it may take a quantifier, and its width.
    fn escape(&mut self) -> Result<(bool, Width), PatternError> {
        let r = self.escape_kind()?;
        Ok(match r {
            Esc::Anchor => (false, (0, Some(0))),
            Esc::Char => (true, (1, Some(1))),
            Esc::GroupRef => (true, (0, None)),
        })
    }

    fn escape_kind(&mut self) -> Result<Esc, PatternError> {
        let start = self.pos;
        let Some(e) = self.at(start + 1) else {
            return Err(PatternError::at("bad escape (end of pattern)", start));
        };
        self.pos += 2;
        if self.flags & ASCII != 0
            && let Some(ascii) = ascii_escape(e)
        {
            self.edit(start, self.pos, ascii);
        } else if e == 'B' {
            // Python's `\B` never matches in an empty text; the engine's does.
            self.edit(start, self.pos, "(?:(?!\\A\\z)\\B)");
        }
        match e {
            'A' | 'b' | 'B' | 'Z' => Ok(Esc::Anchor),
            'd' | 'D' | 's' | 'S' | 'w' | 'W' | 'a' | 'f' | 'n' | 'r' | 't' | 'v' | '\\' => {
                Ok(Esc::Char)
            }
            c if WHITESPACE.contains(&c) || c == '#' => {
                // A literal blank or `#` (verbose mode's way to write one): spelled so that
                // the engine reads it the same in every mode.
                self.edit(start, self.pos, format!("\\x{{{:x}}}", u32::from(c)));
                Ok(Esc::Char)
            }
            'x' | 'u' | 'U' | 'N' => self.hex_escape(start, e).map(|()| Esc::Char),
            '0' => {
                let mut n = 0;
                while n < 2 && self.peek().is_some_and(|c| ('0'..='7').contains(&c)) {
                    self.pos += 1;
                    n += 1;
                }
                Ok(Esc::Char)
            }
            d if d.is_ascii_digit() => {
                // Three octal digits are an octal escape; otherwise a group reference.
                let octal = ('0'..='7').contains(&d)
                    && self.peek().is_some_and(|c| ('0'..='7').contains(&c))
                    && self.at(self.pos + 1).is_some_and(|c| ('0'..='7').contains(&c));
                if octal {
                    self.pos += 2;
                    let digits: String = self.s[start + 1..self.pos].iter().collect();
                    if u32::from_str_radix(&digits, 8).unwrap_or(0) > 0o377 {
                        return Err(PatternError::at(
                            format!("octal escape value \\{digits} outside of range 0-0o377"),
                            start,
                        ));
                    }
                    return Ok(Esc::Char);
                }
                let mut num = d.to_string();
                if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    num.push(self.peek().unwrap_or('0'));
                    self.pos += 1;
                }
                let g: usize = num.parse().unwrap_or(0);
                if g > self.groups {
                    return Err(PatternError::at(
                        format!("invalid group reference {g}"),
                        start + 1,
                    ));
                }
                if self.open.contains(&g) {
                    return Err(PatternError::at("cannot refer to an open group", start));
                }
                Ok(Esc::GroupRef)
            }
            c if c.is_ascii_alphabetic() => {
                Err(PatternError::at(format!("bad escape \\{c}"), start))
            }
            _ => Ok(Esc::Char),
        }
    }

    fn hex_escape(&mut self, start: usize, e: char) -> Result<(), PatternError> {
        let n = match e {
            'x' => 2,
            'u' => 4,
            'U' => 8,
            _ => {
                // `\N{NAME}`: read loosely up to `}`.
                if self.peek() == Some('{') {
                    while let Some(c) = self.peek() {
                        self.pos += 1;
                        if c == '}' {
                            return Ok(());
                        }
                    }
                }
                return Err(PatternError::at("missing {", start + 2));
            }
        };
        let mut got = String::new();
        while got.len() < n && self.peek().is_some_and(|c| c.is_ascii_hexdigit()) {
            got.push(self.peek().unwrap_or('0'));
            self.pos += 1;
        }
        if got.len() < n {
            return Err(PatternError::at(format!("incomplete escape \\{e}{got}"), start));
        }
        Ok(())
    }

    /// A class at `[`.
    fn class(&mut self) -> Result<(), PatternError> {
        let open = self.pos;
        self.pos += 1;
        if self.peek() == Some('^') {
            self.pos += 1;
        }
        let mut first = true;
        loop {
            let item_start = self.pos;
            let Some(c) = self.peek() else {
                return Err(PatternError::at("unterminated character set", open));
            };
            if c == ']' && !first {
                self.pos += 1;
                return Ok(());
            }
            first = false;
            let lo = self.class_atom()?;
            if self.peek() == Some('-') && self.at(self.pos + 1).is_some_and(|c| c != ']') {
                self.pos += 1;
                let hi = self.class_atom()?;
                let text: String = self.s[item_start..self.pos].iter().collect();
                match (lo, hi) {
                    (Some(a), Some(b)) if a <= b => {}
                    _ => {
                        return Err(PatternError::at(
                            format!("bad character range {text}"),
                            item_start,
                        ));
                    }
                }
            }
        }
    }

    /// One class member: the character it stands for, or `None` for a category (`\d`).
    fn class_atom(&mut self) -> Result<Option<u32>, PatternError> {
        let start = self.pos;
        let Some(c) = self.peek() else {
            return Ok(None);
        };
        self.pos += 1;
        if c != '\\' {
            return Ok(Some(u32::from(c)));
        }
        let Some(e) = self.peek() else {
            return Err(PatternError::at("bad escape (end of pattern)", start));
        };
        self.pos += 1;
        let simple = |ch: char| Ok(Some(u32::from(ch)));
        if self.flags & ASCII != 0 {
            // Inside a class only the positive classes are spelled out; a negated one
            // (`[\W]`) keeps its Unicode meaning (a documented deviation).
            let members = match e {
                'w' => Some(ASCII_WORD),
                'd' => Some("0-9"),
                's' => Some(ASCII_SPACE),
                _ => None,
            };
            if let Some(m) = members {
                self.edit(start, self.pos, m);
            }
        }
        if WHITESPACE.contains(&e) {
            self.edit(start, self.pos, format!("\\x{{{:x}}}", u32::from(e)));
        }
        match e {
            'd' | 'D' | 's' | 'S' | 'w' | 'W' => Ok(None),
            'a' => simple('\u{7}'),
            'b' => simple('\u{8}'),
            'f' => simple('\u{c}'),
            'n' => simple('\n'),
            'r' => simple('\r'),
            't' => simple('\t'),
            'v' => simple('\u{b}'),
            'x' | 'u' | 'U' | 'N' => {
                let from = self.pos;
                self.hex_escape(start, e)?;
                let digits: String =
                    self.s[from..self.pos].iter().filter(|c| c.is_ascii_hexdigit()).collect();
                Ok(u32::from_str_radix(&digits, 16).ok())
            }
            d if ('0'..='7').contains(&d) => {
                let mut v = d.to_digit(8).unwrap_or(0);
                let mut n = 0;
                while n < 2 && self.peek().is_some_and(|c| ('0'..='7').contains(&c)) {
                    v = v * 8 + self.peek().and_then(|c| c.to_digit(8)).unwrap_or(0);
                    self.pos += 1;
                    n += 1;
                }
                if v > 0o377 {
                    let digits: String = self.s[start + 1..self.pos].iter().collect();
                    return Err(PatternError::at(
                        format!("octal escape value \\{digits} outside of range 0-0o377"),
                        start,
                    ));
                }
                Ok(Some(v))
            }
            c if c.is_ascii_alphanumeric() => {
                Err(PatternError::at(format!("bad escape \\{c}"), start))
            }
            c => simple(c),
        }
    }
}

#[cfg(test)]
mod tests;
