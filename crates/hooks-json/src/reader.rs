//! The one reader behind every dialect: RFC 8259's grammar with positions, plus the few
//! departures a dialect's [`Rules`] switch on. It stops at the first fault and says what and
//! where ([`Stop`]); each dialect words it as its agent's parser does.

use serde_json::Number;

use crate::{Kind, Member, Node, SyntaxError};

/// What the reader accepts beyond RFC 8259's grammar, which it always checks.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rules {
    /// The deepest nesting accepted.
    pub(crate) max_depth: usize,
    /// A number too large for `f64` reads as `null` (the caller's checker accepted it, as
    /// `JSON.parse` does, reading `Infinity`) instead of being an error.
    pub(crate) big_numbers_are_null: bool,
    /// Python's `json.loads`: `NaN`, `Infinity` and `-Infinity` are values, numbers are kept as
    /// written ([`Kind::NumberText`]), its number scanner stops before a `.` or an exponent
    /// without digits instead of failing, only containers count towards the depth, and its
    /// error positions (a trailing comma, the opening quote of an unterminated string, the
    /// backslash of a bad escape) are kept.
    pub(crate) python: bool,
}

impl Rules {
    pub(crate) const STRICT: Rules =
        Rules { max_depth: crate::MAX_DEPTH, big_numbers_are_null: false, python: false };
}

/// A place in the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Pos {
    /// 1-based line.
    pub(crate) line: u32,
    /// 1-based column, in characters.
    pub(crate) column: u32,
    /// Byte offset.
    pub(crate) byte: usize,
}

/// Why the reader stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fault {
    /// Text after the document's value.
    ExtraData,
    /// Nesting deeper than the rules allow.
    TooDeep,
    /// A value expected and the text ended.
    EndOfInput,
    /// A value expected and something else found.
    ExpectedValue,
    /// An object key expected.
    ExpectedKey,
    /// `:` expected after a key.
    ExpectedColon,
    /// `,` or the container's end expected.
    ExpectedComma {
        /// In an object (else an array).
        object: bool,
    },
    /// A comma right before the container's end (Python names it).
    TrailingComma {
        /// In an object (else an array).
        object: bool,
        /// The comma.
        comma: Pos,
    },
    /// The text ended inside a string.
    Unterminated {
        /// The opening quote.
        open: Pos,
    },
    /// A backslash followed by a character that is no escape (or by nothing).
    InvalidEscape {
        /// The backslash.
        backslash: Pos,
    },
    /// `\u` not followed by four hex digits (Python: nor by one more character).
    InvalidUnicodeEscape {
        /// The `u`.
        u: Pos,
    },
    /// A control character inside a string.
    ControlCharacter,
    /// Bytes that are not UTF-8.
    NotUtf8,
    /// A number that breaks the grammar (strict dialects).
    InvalidNumber,
    /// A number too large for `f64` (strict dialects).
    NumberOutOfRange {
        /// The number's first character.
        start: Pos,
    },
    /// An integer with more decimal digits than Python converts (see
    /// [`crate::PYTHON_INT_MAX_DIGITS`]).
    IntTooLong {
        /// Its digits (the sign not counted).
        digits: usize,
        /// The number's first character.
        start: Pos,
    },
}

/// Where the reader stopped and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Stop {
    pub(crate) fault: Fault,
    /// Where reading stopped.
    pub(crate) at: Pos,
}

impl Stop {
    /// This crate's own wording and position ([`crate::Dialect::Strict`]).
    pub(crate) fn strict(self) -> SyntaxError {
        let message = match self.fault {
            Fault::ExtraData => "unexpected text after the JSON value",
            Fault::TooDeep => "the document is nested too deeply",
            Fault::EndOfInput => "unexpected end of the document",
            Fault::ExpectedValue | Fault::TrailingComma { .. } => "expected a JSON value",
            Fault::ExpectedKey => "expected a string key",
            Fault::ExpectedColon => "expected `:` after the key",
            Fault::ExpectedComma { object: true } => "expected `,` or `}`",
            Fault::ExpectedComma { object: false } => "expected `,` or `]`",
            Fault::Unterminated { .. } => "unterminated string",
            Fault::InvalidEscape { .. } => "invalid escape sequence",
            Fault::InvalidUnicodeEscape { .. } => "expected four hex digits after `\\u`",
            Fault::ControlCharacter => "control character inside a string",
            Fault::NotUtf8 => "the file is not valid UTF-8",
            Fault::InvalidNumber => "invalid number",
            Fault::NumberOutOfRange { .. } | Fault::IntTooLong { .. } => "number out of range",
        };
        let at = match self.fault {
            Fault::NumberOutOfRange { start } | Fault::IntTooLong { start, .. } => start,
            _ => self.at,
        };
        SyntaxError { message: message.to_owned(), line: at.line, column: at.column }
    }
}

pub(crate) struct Reader<'a> {
    /// The bytes parsed.
    bytes: &'a [u8],
    /// The bytes columns are counted in: the original text when comments were blanked (as
    /// long as `bytes`, with the same line breaks).
    shown: &'a [u8],
    pub(crate) pos: usize,
    line: u32,
    column: u32,
    rules: Rules,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(bytes: &'a [u8], shown: &'a [u8], rules: Rules) -> Reader<'a> {
        Reader { bytes, shown, pos: 0, line: 1, column: 1, rules }
    }

    /// The one value of the whole input, surrounded by whitespace only.
    pub(crate) fn document(mut self) -> Result<Node, Stop> {
        self.skip_ws();
        let node = self.value(0)?;
        self.skip_ws();
        if self.pos < self.bytes.len() {
            return Err(self.stop(Fault::ExtraData));
        }
        Ok(node)
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn here(&self) -> Pos {
        Pos { line: self.line, column: self.column, byte: self.pos }
    }

    fn seek(&mut self, p: Pos) {
        (self.pos, self.line, self.column) = (p.byte, p.line, p.column);
    }

    /// Moves one byte forward, keeping line and character column.
    pub(crate) fn bump(&mut self) {
        let Some(b) = self.peek() else { return };
        let shown = self.shown.get(self.pos).copied().unwrap_or(b);
        self.pos += 1;
        if b == b'\n' {
            self.line = self.line.saturating_add(1);
            self.column = 1;
        } else if shown & 0xC0 != 0x80 {
            // Count characters, not bytes: continuation bytes do not move the column.
            self.column = self.column.saturating_add(1);
        }
    }

    fn bump_n(&mut self, n: usize) {
        for _ in 0..n {
            self.bump();
        }
    }

    pub(crate) fn stop(&self, fault: Fault) -> Stop {
        Stop { fault, at: self.here() }
    }

    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.bump();
        }
    }

    fn at_word(&self, word: &[u8]) -> bool {
        self.bytes.get(self.pos..self.pos + word.len()) == Some(word)
    }

    fn word(&mut self, word: &[u8], kind: Kind) -> Result<Kind, Stop> {
        if !self.at_word(word) {
            return Err(self.stop(Fault::ExpectedValue));
        }
        self.bump_n(word.len());
        Ok(kind)
    }

    /// Python's words for the floats JSON has no syntax for.
    fn python_word(&mut self) -> Option<Kind> {
        let word: &[u8] =
            [b"NaN" as &[u8], b"Infinity", b"-Infinity"].into_iter().find(|w| self.at_word(w))?;
        self.bump_n(word.len());
        Some(Kind::NumberText(String::from_utf8_lossy(word).into_owned()))
    }

    fn value(&mut self, depth: usize) -> Result<Node, Stop> {
        let container = matches!(self.peek(), Some(b'{' | b'['));
        // Python counts the containers opened; the others count every value.
        let too_deep = if self.rules.python {
            container && depth >= self.rules.max_depth
        } else {
            depth > self.rules.max_depth
        };
        if too_deep {
            return Err(self.stop(Fault::TooDeep));
        }
        let start = self.here();
        if self.rules.python
            && let Some(kind) = self.python_word()
        {
            return Ok(Node {
                kind,
                line: start.line,
                column: start.column,
                start: start.byte,
                end: self.pos,
            });
        }
        let kind = match self.peek() {
            None => return Err(self.stop(Fault::EndOfInput)),
            Some(b'{') => self.object(depth)?,
            Some(b'[') => self.array(depth)?,
            Some(b'"') => Kind::String(self.string()?),
            Some(b't') => self.word(b"true", Kind::Bool(true))?,
            Some(b'f') => self.word(b"false", Kind::Bool(false))?,
            Some(b'n') => self.word(b"null", Kind::Null)?,
            Some(b'-' | b'0'..=b'9') if self.rules.python => self.python_number()?,
            Some(b'-' | b'0'..=b'9') => self.number()?,
            Some(_) => return Err(self.stop(Fault::ExpectedValue)),
        };
        Ok(Node { kind, line: start.line, column: start.column, start: start.byte, end: self.pos })
    }

    /// At a container's opening bracket: consumes it, and its closing one too when the
    /// container is empty (`true`).
    fn open(&mut self, close: u8) -> bool {
        self.bump();
        self.skip_ws();
        let empty = self.peek() == Some(close);
        if empty {
            self.bump();
        }
        empty
    }

    /// After an item: consumes the comma that follows (`false`: another item comes) or the
    /// container's end (`true`). Python names a comma right before the end.
    fn next_item(&mut self, close: u8, object: bool) -> Result<bool, Stop> {
        self.skip_ws();
        match self.peek() {
            Some(b',') => {
                let comma = self.here();
                self.bump();
                self.skip_ws();
                if self.rules.python && self.peek() == Some(close) {
                    let fault = Fault::TrailingComma { object, comma };
                    return Err(Stop { fault, at: self.here() });
                }
                Ok(false)
            }
            Some(c) if c == close => {
                self.bump();
                Ok(true)
            }
            _ => Err(self.stop(Fault::ExpectedComma { object })),
        }
    }

    fn object(&mut self, depth: usize) -> Result<Kind, Stop> {
        let mut members = Vec::new();
        if self.open(b'}') {
            return Ok(Kind::Object(members));
        }
        loop {
            self.skip_ws();
            if self.peek() != Some(b'"') {
                return Err(self.stop(Fault::ExpectedKey));
            }
            let (line, column) = (self.line, self.column);
            let key = self.string()?;
            self.skip_ws();
            if self.peek() != Some(b':') {
                return Err(self.stop(Fault::ExpectedColon));
            }
            self.bump();
            self.skip_ws();
            let value = self.value(depth + 1)?;
            members.push(Member { key, line, column, value });
            if self.next_item(b'}', true)? {
                return Ok(Kind::Object(members));
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<Kind, Stop> {
        let mut items = Vec::new();
        if self.open(b']') {
            return Ok(Kind::Array(items));
        }
        loop {
            self.skip_ws();
            items.push(self.value(depth + 1)?);
            if self.next_item(b']', false)? {
                return Ok(Kind::Array(items));
            }
        }
    }

    /// Four hex digits; `None` (nothing consumed) when they are not there.
    fn hex4(&mut self) -> Option<u32> {
        let digits = self.bytes.get(self.pos..self.pos + 4)?;
        let mut v = 0u32;
        for &b in digits {
            v = v * 16 + char::from(b).to_digit(16)?;
        }
        self.bump_n(4);
        Some(v)
    }

    /// Strict: the four digits after `\u`, the error at the first one that is not a digit.
    fn strict_hex4(&mut self) -> Result<u32, Stop> {
        let mut v = 0u32;
        for _ in 0..4 {
            let Some(d) = self.peek().and_then(|b| char::from(b).to_digit(16)) else {
                return Err(self.stop(Fault::InvalidUnicodeEscape { u: self.here() }));
            };
            v = v * 16 + d;
            self.bump();
        }
        Ok(v)
    }

    /// After `\u`, at its first digit: the character, surrogate pairs joined (a lone
    /// surrogate, valid in JavaScript and Python strings, becomes U+FFFD).
    fn unicode_escape(&mut self, u: Pos) -> Result<char, Stop> {
        let hi = if self.rules.python {
            // Python wants the digits and one more character after them.
            let fits = self.pos + 4 < self.bytes.len();
            match self.hex4().filter(|_| fits) {
                Some(v) => v,
                None => return Err(Stop { fault: Fault::InvalidUnicodeEscape { u }, at: u }),
            }
        } else {
            self.strict_hex4()?
        };
        if !(0xD800..0xDC00).contains(&hi) || !self.at_word(b"\\u") {
            return Ok(char::from_u32(hi).unwrap_or('\u{FFFD}'));
        }
        let back = self.here();
        self.bump_n(2);
        let lo = if self.rules.python {
            // A malformed second escape fails when read on its own, at the same place.
            self.hex4().filter(|_| self.pos < self.bytes.len())
        } else {
            Some(self.strict_hex4()?)
        };
        match lo {
            Some(lo) if (0xDC00..0xE000).contains(&lo) => {
                Ok(char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))
                    .unwrap_or('\u{FFFD}'))
            }
            _ => {
                self.seek(back);
                Ok('\u{FFFD}')
            }
        }
    }

    fn string(&mut self) -> Result<String, Stop> {
        let open = self.here();
        self.bump();
        let mut out = Vec::new();
        loop {
            match self.peek() {
                None => return Err(self.stop(Fault::Unterminated { open })),
                Some(b'"') => {
                    self.bump();
                    // The input is valid UTF-8 and escapes produce valid UTF-8.
                    return Ok(String::from_utf8_lossy(&out).into_owned());
                }
                Some(b'\\') => {
                    let backslash = self.here();
                    self.bump();
                    let c = match self.peek() {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            let u = self.here();
                            self.bump();
                            let c = self.unicode_escape(u)?;
                            let mut buf = [0u8; 4];
                            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                            continue;
                        }
                        None if self.rules.python => {
                            return Err(self.stop(Fault::Unterminated { open }));
                        }
                        _ => return Err(self.stop(Fault::InvalidEscape { backslash })),
                    };
                    self.bump();
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                Some(b) if b < 0x20 => return Err(self.stop(Fault::ControlCharacter)),
                Some(b) => {
                    out.push(b);
                    self.bump();
                }
            }
        }
    }

    fn digits(&mut self) -> usize {
        let mut n = 0;
        while let Some(b'0'..=b'9') = self.peek() {
            self.bump();
            n += 1;
        }
        n
    }

    fn number(&mut self) -> Result<Kind, Stop> {
        let start = self.here();
        if self.peek() == Some(b'-') {
            self.bump();
        }
        match self.peek() {
            Some(b'0') => self.bump(),
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(self.stop(Fault::InvalidNumber)),
        }
        if self.peek() == Some(b'.') {
            self.bump();
            if self.digits() == 0 {
                return Err(self.stop(Fault::InvalidNumber));
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.bump();
            if let Some(b'+' | b'-') = self.peek() {
                self.bump();
            }
            if self.digits() == 0 {
                return Err(self.stop(Fault::InvalidNumber));
            }
        }
        let text = std::str::from_utf8(self.bytes.get(start.byte..self.pos).unwrap_or_default())
            .unwrap_or_default();
        match serde_json::from_str::<Number>(text) {
            Ok(n) => Ok(Kind::Number(n)),
            Err(_) if self.rules.big_numbers_are_null => Ok(Kind::Null),
            Err(_) => Err(self.stop(Fault::NumberOutOfRange { start })),
        }
    }

    /// Python's number scanner: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?`, where a `.`
    /// or an exponent without digits ends the number before it (the next token then fails).
    fn python_number(&mut self) -> Result<Kind, Stop> {
        let start = self.here();
        if self.peek() == Some(b'-') {
            self.bump();
        }
        let int_digits = match self.peek() {
            Some(b'0') => {
                self.bump();
                1
            }
            Some(b'1'..=b'9') => self.digits(),
            _ => {
                self.seek(start);
                return Err(self.stop(Fault::ExpectedValue));
            }
        };
        let mut float = false;
        if self.peek() == Some(b'.') && matches!(self.bytes.get(self.pos + 1), Some(b'0'..=b'9')) {
            self.bump();
            self.digits();
            float = true;
        }
        if let Some(b'e' | b'E') = self.peek() {
            let e = self.here();
            self.bump();
            if let Some(b'+' | b'-') = self.peek() {
                self.bump();
            }
            if self.digits() == 0 {
                self.seek(e);
            } else {
                float = true;
            }
        }
        if !float && int_digits > crate::PYTHON_INT_MAX_DIGITS {
            return Err(self.stop(Fault::IntTooLong { digits: int_digits, start }));
        }
        let text = &self.bytes[start.byte..self.pos];
        Ok(Kind::NumberText(String::from_utf8_lossy(text).into_owned()))
    }
}
