//! JSON to Python values exactly as Python's `json.loads` reads it: `NaN`, `Infinity` and
//! `-Infinity` accepted, integers unbounded, the last duplicate key winning at the first
//! key's position, and errors worded as `json.JSONDecodeError` words them.

use crate::pyval::{Node, PyInt, PyValue};

/// The deepest nesting accepted (CPython's decoder stops at its recursion limit).
pub(crate) const MAX_DEPTH: usize = 200;

/// Parses `text`; the error is `JSONDecodeError`'s text (`Expecting value: line 1 column 1
/// (char 0)`).
pub(crate) fn load(text: &str) -> Result<Node, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut p = JsonParser { s: &chars, pos: 0, depth: 0 };
    p.ws();
    let v = p.value()?;
    p.ws();
    if p.pos < chars.len() {
        return Err(p.err("Extra data", p.pos));
    }
    Ok(Node::new(v, None))
}

struct JsonParser<'a> {
    s: &'a [char],
    pos: usize,
    depth: usize,
}

impl JsonParser<'_> {
    fn err(&self, msg: &str, pos: usize) -> String {
        let before = &self.s[..pos.min(self.s.len())];
        let line = before.iter().filter(|c| **c == '\n').count() + 1;
        let col = match before.iter().rposition(|c| *c == '\n') {
            Some(nl) => pos - nl,
            None => pos + 1,
        };
        format!("{msg}: line {line} column {col} (char {pos})")
    }

    fn peek(&self) -> Option<char> {
        self.s.get(self.pos).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(' ' | '\t' | '\n' | '\r')) {
            self.pos += 1;
        }
    }

    fn starts_with(&self, lit: &str) -> bool {
        let n = lit.chars().count();
        self.s.get(self.pos..self.pos + n).is_some_and(|w| w.iter().copied().eq(lit.chars()))
    }

    fn value(&mut self) -> Result<PyValue, String> {
        let start = self.pos;
        match self.peek() {
            Some('"') => self.string().map(PyValue::Str),
            Some('{') => self.nested(Self::object),
            Some('[') => self.nested(Self::array),
            _ => {
                for (lit, v) in [
                    ("null", PyValue::None),
                    ("true", PyValue::Bool(true)),
                    ("false", PyValue::Bool(false)),
                    ("NaN", PyValue::Float(f64::NAN)),
                    ("Infinity", PyValue::Float(f64::INFINITY)),
                    ("-Infinity", PyValue::Float(f64::NEG_INFINITY)),
                ] {
                    if self.starts_with(lit) {
                        self.pos += lit.chars().count();
                        return Ok(v);
                    }
                }
                self.number().ok_or_else(|| self.err("Expecting value", start))
            }
        }
    }

    fn nested(&mut self, f: fn(&mut Self) -> Result<PyValue, String>) -> Result<PyValue, String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err(&format!("nesting deeper than {MAX_DEPTH} levels"), self.pos));
        }
        let r = f(self);
        self.depth -= 1;
        r
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?`
    fn number(&mut self) -> Option<PyValue> {
        let s = self.s;
        let start = self.pos;
        let mut i = start;
        if s.get(i) == Some(&'-') {
            i += 1;
        }
        match s.get(i) {
            Some('0') => i += 1,
            Some(c) if c.is_ascii_digit() => {
                while s.get(i).is_some_and(char::is_ascii_digit) {
                    i += 1;
                }
            }
            _ => return None,
        }
        let int_end = i;
        if s.get(i) == Some(&'.') && s.get(i + 1).is_some_and(char::is_ascii_digit) {
            i += 1;
            while s.get(i).is_some_and(char::is_ascii_digit) {
                i += 1;
            }
        }
        if matches!(s.get(i), Some('e' | 'E')) {
            let mut j = i + 1;
            if matches!(s.get(j), Some('-' | '+')) {
                j += 1;
            }
            if s.get(j).is_some_and(char::is_ascii_digit) {
                while s.get(j).is_some_and(char::is_ascii_digit) {
                    j += 1;
                }
                i = j;
            }
        }
        self.pos = i;
        let text: String = s[start..i].iter().collect();
        if i == int_end {
            Some(PyValue::Int(match text.parse::<i128>() {
                Ok(n) => PyInt::Small(n),
                Err(_) => PyInt::Big(text),
            }))
        } else {
            Some(PyValue::Float(text.parse::<f64>().unwrap_or(f64::NAN)))
        }
    }

    fn string(&mut self) -> Result<String, String> {
        let open = self.pos;
        self.pos += 1;
        let mut out = String::new();
        loop {
            let Some(c) = self.peek() else {
                return Err(self.err("Unterminated string starting at", open));
            };
            match c {
                '"' => {
                    self.pos += 1;
                    return Ok(out);
                }
                '\\' => {
                    let esc_pos = self.pos;
                    let Some(e) = self.s.get(self.pos + 1).copied() else {
                        return Err(self.err("Unterminated string starting at", open));
                    };
                    self.pos += 2;
                    match e {
                        '"' => out.push('"'),
                        '\\' => out.push('\\'),
                        '/' => out.push('/'),
                        'b' => out.push('\u{8}'),
                        'f' => out.push('\u{c}'),
                        'n' => out.push('\n'),
                        'r' => out.push('\r'),
                        't' => out.push('\t'),
                        'u' => {
                            let hi = self
                                .hex4()
                                .ok_or_else(|| self.err("Invalid \\uXXXX escape", esc_pos + 1))?;
                            let ch = if (0xD800..0xDC00).contains(&hi) && self.starts_with("\\u") {
                                let save = self.pos;
                                self.pos += 2;
                                match self.hex4() {
                                    Some(lo) if (0xDC00..0xE000).contains(&lo) => char::from_u32(
                                        0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00),
                                    ),
                                    _ => {
                                        self.pos = save;
                                        None
                                    }
                                }
                            } else {
                                char::from_u32(hi)
                            };
                            // A lone surrogate is valid in Python's str but not in Rust's.
                            out.push(ch.unwrap_or('\u{FFFD}'));
                        }
                        _ => return Err(self.err("Invalid \\escape", esc_pos)),
                    }
                }
                c if u32::from(c) < 0x20 => {
                    return Err(self.err("Invalid control character at", self.pos));
                }
                c => {
                    out.push(c);
                    self.pos += 1;
                }
            }
        }
    }

    fn hex4(&mut self) -> Option<u32> {
        let w = self.s.get(self.pos..self.pos + 4)?;
        let text: String = w.iter().collect();
        if !text.chars().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        self.pos += 4;
        u32::from_str_radix(&text, 16).ok()
    }

    fn object(&mut self) -> Result<PyValue, String> {
        self.pos += 1;
        let mut pairs: Vec<(Node, Node)> = Vec::new();
        self.ws();
        if self.peek() == Some('}') {
            self.pos += 1;
            return Ok(PyValue::Dict(pairs));
        }
        loop {
            if self.peek() != Some('"') {
                return Err(self.err("Expecting property name enclosed in double quotes", self.pos));
            }
            let key = self.string()?;
            self.ws();
            if self.peek() != Some(':') {
                return Err(self.err("Expecting ':' delimiter", self.pos));
            }
            self.pos += 1;
            self.ws();
            let value = self.value()?;
            match pairs.iter_mut().find(|(k, _)| k.value.as_str() == Some(key.as_str())) {
                Some(slot) => slot.1 = Node::new(value, None),
                None => pairs.push((Node::new(PyValue::Str(key), None), Node::new(value, None))),
            }
            self.ws();
            match self.peek() {
                Some('}') => {
                    self.pos += 1;
                    return Ok(PyValue::Dict(pairs));
                }
                Some(',') => {
                    let comma = self.pos;
                    self.pos += 1;
                    self.ws();
                    if self.peek() == Some('}') {
                        return Err(self.err("Illegal trailing comma before end of object", comma));
                    }
                }
                _ => return Err(self.err("Expecting ',' delimiter", self.pos)),
            }
        }
    }

    fn array(&mut self) -> Result<PyValue, String> {
        self.pos += 1;
        let mut items = Vec::new();
        self.ws();
        if self.peek() == Some(']') {
            self.pos += 1;
            return Ok(PyValue::List(items));
        }
        loop {
            items.push(Node::new(self.value()?, None));
            self.ws();
            match self.peek() {
                Some(']') => {
                    self.pos += 1;
                    return Ok(PyValue::List(items));
                }
                Some(',') => {
                    let comma = self.pos;
                    self.pos += 1;
                    self.ws();
                    if self.peek() == Some(']') {
                        return Err(self.err("Illegal trailing comma before end of array", comma));
                    }
                }
                _ => return Err(self.err("Expecting ',' delimiter", self.pos)),
            }
        }
    }
}

#[cfg(test)]
mod tests;
