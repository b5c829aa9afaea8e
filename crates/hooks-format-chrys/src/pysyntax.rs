//! Python `re` syntax checking: decides whether Python would compile a pattern, and words
//! the error as `re.error` (or `OverflowError`/`RecursionError`) does, for the skip reason.
//!
//! This follows `sre_parse` closely enough for the errors users make (unterminated sets
//! and groups, misplaced quantifiers, bad escapes, group names and references); patterns in
//! verbose mode (`(?x)`) are left to the regex engine.

/// Python's `MAXREPEAT`: repeat counts at or above it overflow.
const MAX_REPEAT: u64 = 4_294_967_295;

/// How deep groups may nest before Python's parser runs out of recursion.
const MAX_NESTING: usize = 400;

/// Checks `p` as Python's `re.compile` would; the error is Python's message.
pub(crate) fn check(p: &str) -> Result<(), String> {
    if uses_verbose(p) {
        return Ok(());
    }
    let chars: Vec<char> = p.chars().collect();
    let mut c =
        Checker { s: &chars, pos: 0, groups: 0, open: Vec::new(), names: Vec::new(), depth: 0 };
    c.alternation()?;
    if c.pos < chars.len() {
        // Only a `)` stops the top level early.
        return Err(format!("unbalanced parenthesis at position {}", c.pos));
    }
    Ok(())
}

fn uses_verbose(p: &str) -> bool {
    let mut rest = p;
    while let Some(i) = rest.find("(?") {
        let flags: String =
            rest[i + 2..].chars().take_while(|c| c.is_ascii_alphabetic() || *c == '-').collect();
        if flags.contains('x') {
            return true;
        }
        rest = &rest[i + 2..];
    }
    false
}

/// A `{m,n}` repeat: the bounds (`None` when left out) and where it ends.
type Braces = (Option<u64>, Option<u64>, usize);

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
}

impl Checker<'_> {
    fn peek(&self) -> Option<char> {
        self.s.get(self.pos).copied()
    }

    fn at(&self, i: usize) -> Option<char> {
        self.s.get(i).copied()
    }

    /// Branches separated by `|`, up to a `)` or the end.
    fn alternation(&mut self) -> Result<Width, String> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err("maximum recursion depth exceeded".to_owned());
        }
        let mut width: Option<Width> = None;
        loop {
            let w = self.sequence()?;
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

    /// Items up to `|`, `)` or the end.
    fn sequence(&mut self) -> Result<Width, String> {
        // Whether the last item may take a quantifier, and whether it already has one.
        let mut can_repeat = false;
        let mut repeated = false;
        let mut total: Width = (0, Some(0));
        // The width of the last item, not yet added to `total` (a quantifier scales it).
        let mut last: Width = (0, Some(0));
        while let Some(ch) = self.peek() {
            let here = self.pos;
            match ch {
                '|' | ')' => return Ok(add(total, last)),
                '*' | '+' | '?' => {
                    self.pos += 1;
                    if repeated {
                        return Err(format!("multiple repeat at position {here}"));
                    }
                    if !can_repeat {
                        return Err(format!("nothing to repeat at position {here}"));
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
                            return Err(format!("multiple repeat at position {here}"));
                        }
                        if !can_repeat {
                            return Err(format!("nothing to repeat at position {here}"));
                        }
                        if let (Some(lo), Some(hi)) = (lo, hi)
                            && lo > hi
                        {
                            return Err(format!(
                                "min repeat greater than max repeat at position {}",
                                here + 1
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
                        self.pos += 1;
                        total = add(total, last);
                        last = (1, Some(1));
                        can_repeat = true;
                        repeated = false;
                    }
                }
                '(' => {
                    total = add(total, last);
                    let (repeatable, w) = self.group()?;
                    last = w;
                    can_repeat = repeatable;
                    repeated = false;
                }
                '[' => {
                    self.class()?;
                    total = add(total, last);
                    last = (1, Some(1));
                    can_repeat = true;
                    repeated = false;
                }
                '\\' => {
                    total = add(total, last);
                    let (repeatable, w) = self.escape()?;
                    last = w;
                    can_repeat = repeatable;
                    repeated = false;
                }
                '^' | '$' => {
                    self.pos += 1;
                    total = add(total, last);
                    last = (0, Some(0));
                    can_repeat = false;
                    repeated = false;
                }
                _ => {
                    self.pos += 1;
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
    fn braces(&self, start: usize) -> Result<Option<Braces>, String> {
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
        let num = |s: &str| -> Result<Option<u64>, String> {
            if s.is_empty() {
                return Ok(None);
            }
            match s.parse::<u64>() {
                Ok(n) if n < MAX_REPEAT => Ok(Some(n)),
                _ => Err("the repetition number is too large".to_owned()),
            }
        };
        let lo_n = num(&lo)?;
        let hi_n = match &hi {
            None => lo_n,
            Some(h) => num(h)?,
        };
        Ok(Some((lo_n, hi_n, i + 1)))
    }

    /// A group at `(`; returns whether it may take a quantifier, and its width.
    fn group(&mut self) -> Result<(bool, Width), String> {
        let open = self.pos;
        self.pos += 1;
        let mut capture: Option<usize> = None;
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
                            return Ok((false, (0, Some(0))));
                        }
                    }
                    return Err(format!("missing ), unterminated comment at position {open}"));
                }
                Some('P') => match self.at(self.pos + 1) {
                    Some('<') => {
                        self.pos += 2;
                        let name = self.name(">")?;
                        self.groups += 1;
                        if let Some((_, was)) = self.names.iter().find(|(n, _)| *n == name.0) {
                            return Err(format!(
                                "redefinition of group name {} as group {}; was group {was} at position {}",
                                crate::pyval::str_repr(&name.0),
                                self.groups,
                                name.1
                            ));
                        }
                        self.names.push((name.0, self.groups));
                        capture = Some(self.groups);
                    }
                    Some('=') => {
                        self.pos += 2;
                        let (n, at) = self.name(")")?;
                        match self.names.iter().find(|(m, _)| *m == n) {
                            Some((_, g)) if !self.open.contains(g) => return Ok((true, (0, None))),
                            Some(_) => {
                                return Err(format!(
                                    "cannot refer to an open group at position {at}"
                                ));
                            }
                            None => {
                                return Err(format!(
                                    "unknown group name {} at position {at}",
                                    crate::pyval::str_repr(&n)
                                ));
                            }
                        }
                    }
                    other => {
                        let shown =
                            other.map(|c| format!("P{c}")).unwrap_or_else(|| "P".to_owned());
                        return Err(format!("unknown extension ?{shown} at position {q}"));
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
                Some(c) if "aiLmsux-".contains(c) => {
                    while self.peek().is_some_and(|c| "aiLmsux-".contains(c)) {
                        self.pos += 1;
                    }
                    match self.peek() {
                        Some(')') => {
                            self.pos += 1;
                            return Ok((false, (0, Some(0))));
                        }
                        Some(':') => self.pos += 1,
                        None => return Err(format!("missing -, : or ) at position {}", self.pos)),
                        Some(_) => return Err(format!("unknown flag at position {}", self.pos)),
                    }
                }
                Some('<') => {
                    let next = self.at(self.pos + 1).map(String::from).unwrap_or_default();
                    return Err(format!("unknown extension ?<{next} at position {q}"));
                }
                Some(c) => return Err(format!("unknown extension ?{c} at position {q}")),
                None => return Err(format!("unexpected end of pattern at position {}", self.pos)),
            }
        } else {
            self.groups += 1;
            capture = Some(self.groups);
        }
        if let Some(g) = capture {
            self.open.push(g);
        }
        let width = self.alternation()?;
        if self.peek() != Some(')') {
            return Err(format!("missing ), unterminated subpattern at position {open}"));
        }
        self.pos += 1;
        if let Some(g) = capture {
            self.open.retain(|o| *o != g);
        }
        if lookbehind && width.1 != Some(width.0) {
            return Err("look-behind requires fixed-width pattern".to_owned());
        }
        Ok((true, if lookaround { (0, Some(0)) } else { width }))
    }

    /// A group name up to `end`; returns it with its position.
    fn name(&mut self, end: &str) -> Result<(String, usize), String> {
        let start = self.pos;
        let mut name = String::new();
        loop {
            match self.peek() {
                None => {
                    return Err(format!("missing {end}, unterminated name at position {start}"));
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
            return Err(format!("missing group name at position {start}"));
        }
        let ident = name.chars().next().is_some_and(|c| c == '_' || c.is_alphabetic())
            && name.chars().all(|c| c == '_' || c.is_alphanumeric());
        if !ident {
            return Err(format!(
                "bad character in group name {} at position {start}",
                crate::pyval::str_repr(&name)
            ));
        }
        Ok((name, start))
    }

    /// An escape outside a class; returns whether it may take a quantifier, and its width.
    fn escape(&mut self) -> Result<(bool, Width), String> {
        let r = self.escape_kind()?;
        Ok(match r {
            Esc::Anchor => (false, (0, Some(0))),
            Esc::Char => (true, (1, Some(1))),
            Esc::GroupRef => (true, (0, None)),
        })
    }

    fn escape_kind(&mut self) -> Result<Esc, String> {
        let start = self.pos;
        let Some(e) = self.at(start + 1) else {
            return Err(format!("bad escape (end of pattern) at position {start}"));
        };
        self.pos += 2;
        match e {
            'A' | 'b' | 'B' | 'Z' => Ok(Esc::Anchor),
            'd' | 'D' | 's' | 'S' | 'w' | 'W' | 'a' | 'f' | 'n' | 'r' | 't' | 'v' | '\\' => {
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
                        return Err(format!(
                            "octal escape value \\{digits} outside of range 0-0o377 at position {start}"
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
                    return Err(format!("invalid group reference {g} at position {}", start + 1));
                }
                if self.open.contains(&g) {
                    return Err(format!("cannot refer to an open group at position {start}"));
                }
                Ok(Esc::GroupRef)
            }
            c if c.is_ascii_alphabetic() => Err(format!("bad escape \\{c} at position {start}")),
            _ => Ok(Esc::Char),
        }
    }

    fn hex_escape(&mut self, start: usize, e: char) -> Result<(), String> {
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
                return Err(format!("missing {{ at position {}", start + 2));
            }
        };
        let mut got = String::new();
        while got.len() < n && self.peek().is_some_and(|c| c.is_ascii_hexdigit()) {
            got.push(self.peek().unwrap_or('0'));
            self.pos += 1;
        }
        if got.len() < n {
            return Err(format!("incomplete escape \\{e}{got} at position {start}"));
        }
        Ok(())
    }

    /// A class at `[`.
    fn class(&mut self) -> Result<(), String> {
        let open = self.pos;
        self.pos += 1;
        if self.peek() == Some('^') {
            self.pos += 1;
        }
        let mut first = true;
        loop {
            let item_start = self.pos;
            let Some(c) = self.peek() else {
                return Err(format!("unterminated character set at position {open}"));
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
                        return Err(format!("bad character range {text} at position {item_start}"));
                    }
                }
            }
        }
    }

    /// One class member: the character it stands for, or `None` for a category (`\d`).
    fn class_atom(&mut self) -> Result<Option<u32>, String> {
        let start = self.pos;
        let Some(c) = self.peek() else {
            return Ok(None);
        };
        self.pos += 1;
        if c != '\\' {
            return Ok(Some(u32::from(c)));
        }
        let Some(e) = self.peek() else {
            return Err(format!("bad escape (end of pattern) at position {start}"));
        };
        self.pos += 1;
        let simple = |ch: char| Ok(Some(u32::from(ch)));
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
                    return Err(format!(
                        "octal escape value \\{digits} outside of range 0-0o377 at position {start}"
                    ));
                }
                Ok(Some(v))
            }
            c if c.is_ascii_alphanumeric() => Err(format!("bad escape \\{c} at position {start}")),
            c => simple(c),
        }
    }
}

#[cfg(test)]
mod tests;
