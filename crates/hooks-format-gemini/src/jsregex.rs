//! JavaScript regular expressions as Gemini CLI's `new RegExp(matcher).test(toolName)`
//! reads them, reproduced with two engines:
//!
//! - [`regress`] (an ECMAScript regex engine) decides whether JavaScript accepts the pattern
//!   at all: Gemini CLI falls back to exact string equality when `new RegExp` throws.
//! - A pattern it accepts is translated into `fancy-regex` syntax with JavaScript's meaning
//!   of the constructs that differ (`\d`, `\w`, `\s`, `\b` are ASCII or JavaScript
//!   whitespace, `.` excludes the four line terminators, `[^]` matches anything, `[]`
//!   nothing, `\cX`, `\xHH`, `\uHHHH`, legacy octal escapes, identity escapes such as `\/`,
//!   a `{` that starts no quantifier is a literal) and matched with a backtracking budget,
//!   so a pathological pattern can never hang the engine: a match that exhausts the budget
//!   counts as a match and the hook runs. `regress` itself has no such budget, which is why
//!   it only validates.
//!
//! A pattern JavaScript accepts but the translation cannot express (a quantified
//! look-around, a variable-length look-behind `fancy-regex` refuses) is reported by
//! [`JsRegex::compile`] as [`Compiled::Unsupported`]; the parser warns and the group
//! matches every tool (its hook runs more often, never less).

use std::sync::Arc;

use crate::js::is_js_space;

/// Backtracking budget of one match.
const BACKTRACK_LIMIT: usize = 100_000;

/// What a matcher pattern compiled to.
#[derive(Debug, Clone)]
pub(crate) enum Compiled {
    /// A regular expression JavaScript accepts, translated.
    Regex(Arc<fancy_regex::Regex>),
    /// JavaScript rejects it: Gemini CLI compares the tool name with it for equality.
    Invalid(String),
    /// JavaScript accepts it but the translation cannot express it.
    Unsupported(String),
}

/// A compiled JavaScript pattern.
pub(crate) struct JsRegex;

impl JsRegex {
    /// Compiles `pattern` (already trimmed) as `new RegExp(pattern)` would, without flags.
    pub(crate) fn compile(pattern: &str) -> Compiled {
        if let Err(e) = regress::Regex::new(pattern) {
            return Compiled::Invalid(e.to_string());
        }
        let Some(translated) = translate(pattern) else {
            return Compiled::Unsupported(
                "the pattern uses a construct this engine cannot translate".to_owned(),
            );
        };
        match fancy_regex::RegexBuilder::new(&translated).backtrack_limit(BACKTRACK_LIMIT).build() {
            Ok(r) => Compiled::Regex(Arc::new(r)),
            Err(e) => Compiled::Unsupported(e.to_string()),
        }
    }
}

/// Whether `re` matches anywhere in `text`; a match that exhausts the budget counts.
pub(crate) fn test(re: &fancy_regex::Regex, text: &str) -> bool {
    re.is_match(text).unwrap_or(true)
}

const WORD: &str = "A-Za-z0-9_";
const DIGIT: &str = "0-9";

/// JavaScript's whitespace as the body of a character class.
fn space_class() -> String {
    let mut s = String::new();
    for c in [
        '\u{9}', '\u{a}', '\u{b}', '\u{c}', '\u{d}', ' ', '\u{a0}', '\u{1680}', '\u{2028}',
        '\u{2029}', '\u{202f}', '\u{205f}', '\u{3000}', '\u{feff}',
    ] {
        s.push_str(&hex(c as u32));
    }
    s.push_str(r"\x{2000}-\x{200a}");
    debug_assert!(s.is_ascii() && is_js_space(' '));
    s
}

fn hex(c: u32) -> String {
    format!("\\x{{{c:x}}}")
}

/// One element of a character class.
enum Atom {
    Char(u32),
    Set(String),
}

struct Translator {
    chars: Vec<char>,
    i: usize,
    groups: usize,
    named: bool,
    out: String,
}

/// Translates a JavaScript pattern (non-Unicode mode, Annex B) into `fancy-regex` syntax;
/// `None` for constructs it cannot express.
pub(crate) fn translate(pattern: &str) -> Option<String> {
    let chars: Vec<char> = pattern.chars().collect();
    let (groups, named) = count_groups(&chars);
    let mut t = Translator { chars, i: 0, groups, named, out: String::new() };
    t.run()?;
    Some(t.out)
}

/// The number of capturing groups and whether any is named (outside classes and escapes).
fn count_groups(chars: &[char]) -> (usize, bool) {
    let (mut n, mut named, mut in_class, mut i) = (0, false, false, 0);
    while let Some(&c) = chars.get(i) {
        match c {
            '\\' => i += 1,
            '[' if !in_class => in_class = true,
            ']' if in_class => in_class = false,
            '(' if !in_class => {
                if chars.get(i + 1) != Some(&'?') {
                    n += 1;
                } else if chars.get(i + 2) == Some(&'<')
                    && !matches!(chars.get(i + 3), Some('=' | '!'))
                {
                    n += 1;
                    named = true;
                }
            }
            _ => {}
        }
        i += 1;
    }
    (n, named)
}

impl Translator {
    fn peek(&self, k: usize) -> Option<char> {
        self.chars.get(self.i + k).copied()
    }

    fn run(&mut self) -> Option<()> {
        while let Some(c) = self.peek(0) {
            self.i += 1;
            match c {
                '\\' => {
                    let atom = self.escape(false)?;
                    self.push_atom(atom);
                }
                '[' => self.class()?,
                '.' => self.out.push_str(r"[^\x{a}\x{d}\x{2028}\x{2029}]"),
                '{' => {
                    if let Some(len) = self.quantifier_len() {
                        self.out.push('{');
                        for _ in 0..len {
                            let q = self.peek(0)?;
                            self.out.push(q);
                            self.i += 1;
                        }
                    } else {
                        self.out.push_str(r"\{");
                    }
                }
                '}' => self.out.push_str(r"\}"),
                ']' => self.out.push_str(r"\]"),
                '(' => {
                    self.out.push('(');
                    // Group kinds: `(?:`, `(?=`, `(?!`, `(?<=`, `(?<!` are copied as they are.
                    let kind = match (self.peek(0), self.peek(1), self.peek(2)) {
                        (Some('?'), Some(':' | '=' | '!'), _) => 2,
                        (Some('?'), Some('<'), Some('=' | '!')) => 3,
                        _ => 0,
                    };
                    for _ in 0..kind {
                        let k = self.peek(0)?;
                        self.out.push(k);
                        self.i += 1;
                    }
                    if self.peek(0) == Some('?')
                        && self.peek(1) == Some('<')
                        && !matches!(self.peek(2), Some('=' | '!'))
                    {
                        // A named group: copy `?<name>`; fancy-regex names are word characters.
                        self.out.push_str("?<");
                        self.i += 2;
                        loop {
                            let n = self.peek(0)?;
                            self.i += 1;
                            if n == '>' {
                                break;
                            }
                            if !(n.is_ascii_alphanumeric() || n == '_') {
                                return None;
                            }
                            self.out.push(n);
                        }
                        self.out.push('>');
                    }
                }
                '^' | '$' | '|' | ')' | '*' | '+' | '?' => self.out.push(c),
                other => self.push_atom(Atom::Char(other as u32)),
            }
        }
        Some(())
    }

    /// The length of a `{n}`, `{n,}` or `{n,m}` quantifier body after the `{`, closing brace
    /// included; `None` when the brace is a literal (Annex B).
    fn quantifier_len(&self) -> Option<usize> {
        let mut k = 0;
        let digits = |k: &mut usize| {
            let start = *k;
            while self.peek(*k).is_some_and(|c| c.is_ascii_digit()) {
                *k += 1;
            }
            *k > start
        };
        if !digits(&mut k) {
            return None;
        }
        if self.peek(k) == Some(',') {
            k += 1;
            digits(&mut k);
        }
        (self.peek(k) == Some('}')).then_some(k + 1)
    }

    fn push_atom(&mut self, atom: Atom) {
        match atom {
            Atom::Char(c) => {
                match char::from_u32(c) {
                    Some(ch) if ch.is_ascii_alphanumeric() => self.out.push(ch),
                    // A lone surrogate cannot occur in a tool name: it never matches.
                    None => self.out.push_str("(?!)"),
                    Some(_) => self.out.push_str(&hex(c)),
                }
            }
            Atom::Set(s) => self.out.push_str(&s),
        }
    }

    /// Reads an escape after `\`; `in_class` changes `\b` (backspace) and backreferences.
    fn escape(&mut self, in_class: bool) -> Option<Atom> {
        let Some(c) = self.peek(0) else {
            // A trailing backslash: JavaScript rejects it, so regress already did.
            return None;
        };
        self.i += 1;
        let set =
            |neg: bool, body: &str| Atom::Set(format!("[{}{body}]", if neg { "^" } else { "" }));
        Some(match c {
            'd' => set(false, DIGIT),
            'D' => set(true, DIGIT),
            'w' => set(false, WORD),
            'W' => set(true, WORD),
            's' => set(false, &space_class()),
            'S' => set(true, &space_class()),
            'b' if in_class => Atom::Char(8),
            'b' => Atom::Set(format!("(?:(?<=[{WORD}])(?![{WORD}])|(?<![{WORD}])(?=[{WORD}]))")),
            'B' if !in_class => {
                Atom::Set(format!("(?:(?<=[{WORD}])(?=[{WORD}])|(?<![{WORD}])(?![{WORD}]))"))
            }
            'n' => Atom::Char(0xa),
            'r' => Atom::Char(0xd),
            't' => Atom::Char(0x9),
            'f' => Atom::Char(0xc),
            'v' => Atom::Char(0xb),
            'c' => match self.peek(0) {
                Some(l) if l.is_ascii_alphabetic() => {
                    self.i += 1;
                    Atom::Char(l as u32 % 32)
                }
                // Annex B: `\c` not followed by a letter is a backslash and a `c`.
                _ => Atom::Set(format!("{}c", hex('\\' as u32))),
            },
            'x' => match self.hex_digits(2) {
                Some(v) => v,
                None => Atom::Char('x' as u32),
            },
            'u' => match self.hex_digits(4) {
                Some(v) => v,
                None => Atom::Char('u' as u32),
            },
            'k' if self.named && !in_class => {
                // `\k<name>`: a named backreference.
                if self.peek(0) != Some('<') {
                    return None;
                }
                let mut name = String::new();
                self.i += 1;
                loop {
                    let n = self.peek(0)?;
                    self.i += 1;
                    if n == '>' {
                        break;
                    }
                    name.push(n);
                }
                Atom::Set(format!(r"\k<{name}>"))
            }
            '0'..='9' => self.decimal_escape(c, in_class),
            other => Atom::Char(other as u32),
        })
    }

    fn hex_digits(&mut self, n: usize) -> Option<Atom> {
        let mut v = 0u32;
        for k in 0..n {
            v = v * 16 + self.peek(k)?.to_digit(16)?;
        }
        self.i += n;
        Some(Atom::Char(v))
    }

    /// `\N`: a backreference when N names a group (outside a class), otherwise a legacy
    /// octal escape (`\0`, `\12`), and `\8`/`\9` the digit itself (Annex B).
    fn decimal_escape(&mut self, first: char, in_class: bool) -> Atom {
        if !in_class && first != '0' {
            let mut k = 0;
            let mut n = first.to_digit(10).unwrap_or(0) as usize;
            while let Some(d) = self.peek(k).and_then(|c| c.to_digit(10)) {
                n = n.saturating_mul(10).saturating_add(d as usize);
                k += 1;
            }
            if n <= self.groups {
                self.i += k;
                return Atom::Set(format!(r"(?:\{n})"));
            }
        }
        if first >= '8' {
            return Atom::Char(first as u32);
        }
        // Up to three octal digits, value at most 0o377.
        let mut v = first.to_digit(8).unwrap_or(0);
        for _ in 0..2 {
            match self.peek(0).and_then(|c| c.to_digit(8)) {
                Some(d) if v * 8 + d <= 0o377 => {
                    v = v * 8 + d;
                    self.i += 1;
                }
                _ => break,
            }
        }
        Atom::Char(v)
    }

    /// A character class after `[`.
    fn class(&mut self) -> Option<()> {
        let negated = self.peek(0) == Some('^');
        if negated {
            self.i += 1;
        }
        if self.peek(0) == Some(']') {
            self.i += 1;
            // `[]` matches nothing, `[^]` any character.
            self.out.push_str(if negated { r"[\s\S]" } else { "(?!)" });
            return Some(());
        }
        let mut body = String::new();
        loop {
            let c = self.peek(0)?;
            self.i += 1;
            if c == ']' {
                break;
            }
            let start = self.class_atom(c)?;
            // A range `a-b` between two single characters.
            if self.peek(0) == Some('-')
                && self.peek(1).is_some_and(|n| n != ']')
                && let Atom::Char(lo) = start
            {
                {
                    self.i += 1;
                    let next = self.peek(0)?;
                    self.i += 1;
                    match self.class_atom(next)? {
                        Atom::Char(hi) => {
                            body.push_str(&class_char(lo));
                            body.push('-');
                            body.push_str(&class_char(hi));
                            continue;
                        }
                        // Annex B: a class escape next to `-` makes the `-` a literal.
                        Atom::Set(s) => {
                            body.push_str(&class_char(lo));
                            body.push_str(&class_char('-' as u32));
                            body.push_str(&s);
                            continue;
                        }
                    }
                }
            }
            match start {
                Atom::Char(v) => body.push_str(&class_char(v)),
                Atom::Set(s) => body.push_str(&s),
            }
        }
        self.out.push('[');
        if negated {
            self.out.push('^');
        }
        if body.is_empty() {
            return None;
        }
        self.out.push_str(&body);
        self.out.push(']');
        Some(())
    }

    fn class_atom(&mut self, c: char) -> Option<Atom> {
        if c == '\\' {
            let a = self.escape(true)?;
            // Inside a class a set is nested (`[a[0-9]]` is a union in fancy-regex).
            return Some(a);
        }
        Some(Atom::Char(c as u32))
    }
}

fn class_char(c: u32) -> String {
    match char::from_u32(c) {
        Some(ch) if ch.is_ascii_alphanumeric() => ch.to_string(),
        _ => hex(c),
    }
}

#[cfg(test)]
mod tests;
