//! A lexer for the POSIX shell command lines hooks run: words with their quoting and
//! expansions kept apart, the operators between commands, redirections, and what it could
//! not read.
//!
//! It follows the token-recognition rules of the POSIX shell (XCU 2.3) as far as finding
//! the files a command names needs: quote removal (`'…'`, `"…"`, `\`, `$'…'`), parameters
//! (`$NAME`, `${NAME}`, `${NAME:-…}`), a leading `~`, command substitutions (whose text is
//! kept so it can be analysed in turn), operators (`&&`, `||`, `;`, `|`, `&`, `(`, `)`,
//! newline) and redirections. Everything else that makes a word's value unknowable
//! (arithmetic, special parameters, other parameter operators, unquoted globs) is an
//! [`Part::Opaque`] part, and constructs it does not model (here-documents, `case`) are
//! reported in [`Lexed::uncertain`]. It never fails and never panics: bad quoting is read as
//! far as it goes and reported.

#[cfg(test)]
mod tests;

/// One piece of a word, quotes removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    /// Literal text.
    Lit(String),
    /// A parameter by name (`$NAME`, `${NAME}`, `${NAME:-default}`).
    Var(String),
    /// A leading unquoted `~` (empty) or `~user`.
    Tilde(String),
    /// A piece whose value cannot be known from the text: a command substitution, an
    /// arithmetic expansion, a special or positional parameter, a parameter expansion with
    /// an operator, or an unquoted glob character.
    Opaque,
}

/// One word: its parts in order. A word of only empty literals is the empty word (`''`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Word {
    /// The parts.
    pub parts: Vec<Part>,
}

impl Word {
    /// The word's text when it is all literal.
    pub fn literal(&self) -> Option<String> {
        let mut out = String::new();
        for part in &self.parts {
            match part {
                Part::Lit(s) => out.push_str(s),
                Part::Var(_) | Part::Tilde(_) | Part::Opaque => return None,
            }
        }
        Some(out)
    }

    /// A word of one literal.
    pub fn lit(text: &str) -> Word {
        Word { parts: vec![Part::Lit(text.to_owned())] }
    }
}

/// What separates two commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sep {
    /// `;` or a newline.
    Seq,
    /// `&&`.
    And,
    /// `||`.
    Or,
    /// `|` or `|&`.
    Pipe,
    /// `&`.
    Background,
    /// `(`.
    Open,
    /// `)`.
    Close,
}

/// A redirection operator; the next word is its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Redir {
    /// `<` or `<>`: a file read.
    Input,
    /// `>`, `>>`, `>|`, `&>`, `&>>`: a file written.
    Output,
    /// `<&` or `>&`: the target is a file descriptor (or, for `>&word`, a file).
    Dup,
    /// `<<<`: the target is a string, not a file.
    HereString,
}

/// One token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Token {
    /// A word.
    Word(Word),
    /// A separator between commands.
    Sep(Sep),
    /// A redirection; the next word is its target.
    Redir(Redir),
}

/// A lexed command line.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Lexed {
    /// The tokens in order.
    pub tokens: Vec<Token>,
    /// The text of each command substitution (`$(…)`, `` `…` ``), to analyse in turn.
    pub substitutions: Vec<String>,
    /// Why parts of the line could not be read with confidence (deduplicated).
    pub uncertain: Vec<&'static str>,
}

impl Lexed {
    fn note(&mut self, why: &'static str) {
        if !self.uncertain.contains(&why) {
            self.uncertain.push(why);
        }
    }
}

/// The word being built.
#[derive(Default)]
struct Builder {
    started: bool,
    parts: Vec<Part>,
    text: String,
}

impl Builder {
    fn push_char(&mut self, c: char) {
        self.started = true;
        self.text.push(c);
    }

    fn push_part(&mut self, part: Part) {
        self.started = true;
        if !self.text.is_empty() {
            self.parts.push(Part::Lit(std::mem::take(&mut self.text)));
        }
        self.parts.push(part);
    }

    fn take(&mut self) -> Option<Word> {
        if !self.started {
            return None;
        }
        if !self.text.is_empty() || self.parts.is_empty() {
            self.parts.push(Part::Lit(std::mem::take(&mut self.text)));
        }
        self.started = false;
        Some(Word { parts: std::mem::take(&mut self.parts) })
    }

    /// Whether the word so far is an unquoted run of digits (an I/O number before `<`/`>`).
    fn is_io_number(&self) -> bool {
        self.parts.is_empty()
            && !self.text.is_empty()
            && self.text.bytes().all(|b| b.is_ascii_digit())
    }
}

/// Lexes `src` as a POSIX shell command line.
pub fn lex(src: &str) -> Lexed {
    let chars: Vec<char> = src.chars().collect();
    let mut out = Lexed::default();
    let mut word = Builder::default();
    let mut i = 0;
    let flush = |word: &mut Builder, out: &mut Lexed| {
        if let Some(w) = word.take() {
            out.tokens.push(Token::Word(w));
        }
    };
    while let Some(&c) = chars.get(i) {
        match c {
            ' ' | '\t' | '\r' => {
                flush(&mut word, &mut out);
                i += 1;
            }
            '\n' => {
                flush(&mut word, &mut out);
                out.tokens.push(Token::Sep(Sep::Seq));
                i += 1;
            }
            '#' if !word.started => {
                while chars.get(i).is_some_and(|&c| c != '\n') {
                    i += 1;
                }
            }
            '\\' => match chars.get(i + 1) {
                Some('\n') => i += 2,
                Some(&next) => {
                    word.push_char(next);
                    i += 2;
                }
                None => i += 1,
            },
            '\'' => {
                word.started = true;
                i = single_quoted(&chars, i + 1, &mut word, &mut out);
            }
            '"' => {
                word.started = true;
                i = double_quoted(&chars, i + 1, &mut word, &mut out);
            }
            '$' => i = dollar(&chars, i, &mut word, &mut out, false),
            '`' => i = backtick(&chars, i + 1, &mut word, &mut out),
            '~' if !word.started => i = tilde(&chars, i + 1, &mut word),
            '*' | '?' => {
                out.note("a glob pattern");
                word.push_part(Part::Opaque);
                i += 1;
            }
            '[' if chars.get(i + 1..).is_some_and(closes_bracket) => {
                out.note("a glob pattern");
                word.push_part(Part::Opaque);
                i += 1;
                while chars.get(i).is_some_and(|&c| c != ']') {
                    i += 1;
                }
                i += 1;
            }
            '|' => {
                flush(&mut word, &mut out);
                let (sep, len) = match chars.get(i + 1) {
                    Some('|') => (Sep::Or, 2),
                    Some('&') => (Sep::Pipe, 2),
                    _ => (Sep::Pipe, 1),
                };
                out.tokens.push(Token::Sep(sep));
                i += len;
            }
            '&' => {
                flush(&mut word, &mut out);
                match (chars.get(i + 1), chars.get(i + 2)) {
                    (Some('&'), _) => {
                        out.tokens.push(Token::Sep(Sep::And));
                        i += 2;
                    }
                    (Some('>'), Some('>')) => {
                        out.tokens.push(Token::Redir(Redir::Output));
                        i += 3;
                    }
                    (Some('>'), _) => {
                        out.tokens.push(Token::Redir(Redir::Output));
                        i += 2;
                    }
                    _ => {
                        out.tokens.push(Token::Sep(Sep::Background));
                        i += 1;
                    }
                }
            }
            ';' => {
                flush(&mut word, &mut out);
                if chars.get(i + 1) == Some(&';') {
                    out.note("a case statement");
                    i += 1;
                }
                out.tokens.push(Token::Sep(Sep::Seq));
                i += 1;
            }
            '(' | ')' => {
                flush(&mut word, &mut out);
                out.tokens.push(Token::Sep(if c == '(' { Sep::Open } else { Sep::Close }));
                i += 1;
            }
            '<' | '>' => {
                if word.is_io_number() {
                    word = Builder::default();
                } else {
                    flush(&mut word, &mut out);
                }
                i = redirection(&chars, i, &mut out);
            }
            other => {
                word.push_char(other);
                i += 1;
            }
        }
    }
    flush(&mut word, &mut out);
    out
}

/// Whether `rest` (after a `[`) closes the bracket before the word ends: a glob.
fn closes_bracket(rest: &[char]) -> bool {
    for &c in rest {
        match c {
            ']' => return true,
            ' ' | '\t' | '\n' | ';' | '&' | '|' | '(' | ')' | '<' | '>' => return false,
            _ => {}
        }
    }
    false
}

fn single_quoted(chars: &[char], mut i: usize, word: &mut Builder, out: &mut Lexed) -> usize {
    while let Some(&c) = chars.get(i) {
        if c == '\'' {
            return i + 1;
        }
        word.push_char(c);
        i += 1;
    }
    out.note("an unterminated quote");
    i
}

fn double_quoted(chars: &[char], mut i: usize, word: &mut Builder, out: &mut Lexed) -> usize {
    while let Some(&c) = chars.get(i) {
        match c {
            '"' => return i + 1,
            '\\' => match chars.get(i + 1) {
                Some('\n') => i += 2,
                Some(&next @ ('$' | '`' | '"' | '\\')) => {
                    word.push_char(next);
                    i += 2;
                }
                _ => {
                    word.push_char('\\');
                    i += 1;
                }
            },
            '$' => i = dollar(chars, i, word, out, true),
            '`' => i = backtick(chars, i + 1, word, out),
            other => {
                word.push_char(other);
                i += 1;
            }
        }
    }
    out.note("an unterminated quote");
    i
}

fn is_name_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// A `$` at `i`: a parameter, a substitution, ANSI-C or locale quoting, or a plain `$`.
fn dollar(chars: &[char], i: usize, word: &mut Builder, out: &mut Lexed, quoted: bool) -> usize {
    match chars.get(i + 1) {
        Some('(') if chars.get(i + 2) == Some(&'(') => {
            word.push_part(Part::Opaque);
            out.note("an arithmetic expansion");
            match balanced(chars, i + 3, '(', ')') {
                Some(end) if chars.get(end + 1) == Some(&')') => end + 2,
                Some(end) => end + 1,
                None => chars.len(),
            }
        }
        Some('(') => {
            word.push_part(Part::Opaque);
            out.note("a command substitution");
            let start = i + 2;
            let end = balanced(chars, start, '(', ')');
            let stop = end.unwrap_or(chars.len());
            out.substitutions.push(chars.get(start..stop).unwrap_or_default().iter().collect());
            end.map_or(chars.len(), |e| e + 1)
        }
        Some('{') => {
            let start = i + 2;
            let end = balanced(chars, start, '{', '}');
            let stop = end.unwrap_or(chars.len());
            let inner: String = chars.get(start..stop).unwrap_or_default().iter().collect();
            let name_len = inner.chars().take_while(|&c| is_name_char(c)).count();
            let (name, rest) = inner.split_at(name_len);
            let named = inner.chars().next().is_some_and(is_name_start);
            if named && (rest.is_empty() || rest.starts_with(":-") || rest.starts_with('-')) {
                word.push_part(Part::Var(name.to_owned()));
            } else {
                word.push_part(Part::Opaque);
                out.note("a parameter expansion with an operator");
            }
            if end.is_none() {
                out.note("an unterminated parameter expansion");
            }
            end.map_or(chars.len(), |e| e + 1)
        }
        Some('\'') if !quoted => ansi_c(chars, i + 2, word, out),
        Some('"') if !quoted => {
            word.started = true;
            double_quoted(chars, i + 2, word, out)
        }
        Some(&c) if is_name_start(c) => {
            let mut j = i + 1;
            let mut name = String::new();
            while let Some(&c) = chars.get(j).filter(|&&c| is_name_char(c)) {
                name.push(c);
                j += 1;
            }
            word.push_part(Part::Var(name));
            j
        }
        Some(c) if c.is_ascii_digit() || "@*#?$!-".contains(*c) => {
            word.push_part(Part::Opaque);
            out.note("a special or positional parameter");
            i + 2
        }
        _ => {
            word.push_char('$');
            i + 1
        }
    }
}

/// `$'…'`: the text with the common backslash escapes.
fn ansi_c(chars: &[char], mut i: usize, word: &mut Builder, out: &mut Lexed) -> usize {
    word.started = true;
    while let Some(&c) = chars.get(i) {
        match c {
            '\'' => return i + 1,
            '\\' => {
                let unescaped = match chars.get(i + 1) {
                    Some('n') => '\n',
                    Some('t') => '\t',
                    Some('r') => '\r',
                    Some(&c @ ('\\' | '\'' | '"' | '?')) => c,
                    Some(_) => {
                        out.note("an ANSI-C escape");
                        word.push_part(Part::Opaque);
                        i += 2;
                        continue;
                    }
                    None => return i + 1,
                };
                word.push_char(unescaped);
                i += 2;
            }
            other => {
                word.push_char(other);
                i += 1;
            }
        }
    }
    out.note("an unterminated quote");
    i
}

fn backtick(chars: &[char], start: usize, word: &mut Builder, out: &mut Lexed) -> usize {
    word.push_part(Part::Opaque);
    out.note("a command substitution");
    let mut i = start;
    let mut inner = String::new();
    while let Some(&c) = chars.get(i) {
        match c {
            '`' => {
                out.substitutions.push(inner);
                return i + 1;
            }
            '\\' => {
                if let Some(&next) = chars.get(i + 1) {
                    inner.push(next);
                }
                i += 2;
            }
            other => {
                inner.push(other);
                i += 1;
            }
        }
    }
    out.substitutions.push(inner);
    out.note("an unterminated quote");
    i
}

/// Whether `c` may be part of the user name of a tilde prefix (`~user`).
pub(crate) fn is_user_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')
}

/// A leading `~`: the user name up to the first `/` or the end of the word, when it is one.
fn tilde(chars: &[char], start: usize, word: &mut Builder) -> usize {
    let mut j = start;
    let mut user = String::new();
    while let Some(&c) = chars.get(j) {
        if is_user_name_char(c) {
            user.push(c);
            j += 1;
        } else {
            break;
        }
    }
    match chars.get(j) {
        None | Some('/' | ' ' | '\t' | '\n' | ';' | '&' | '|' | ')' | '<' | '>' | ':') => {
            word.push_part(Part::Tilde(user));
            j
        }
        Some(_) => {
            word.push_char('~');
            start
        }
    }
}

/// The index of the `close` that balances an `open` already consumed before `start`,
/// skipping quoted text; `None` when it never closes.
fn balanced(chars: &[char], start: usize, open: char, close: char) -> Option<usize> {
    let mut depth = 1usize;
    let mut i = start;
    while let Some(&c) = chars.get(i) {
        match c {
            '\\' => i += 1,
            '\'' => {
                i += 1;
                while chars.get(i).is_some_and(|&c| c != '\'') {
                    i += 1;
                }
            }
            '"' => {
                i += 1;
                while let Some(&c) = chars.get(i) {
                    if c == '\\' {
                        i += 1;
                    } else if c == '"' {
                        break;
                    }
                    i += 1;
                }
            }
            c if c == open => depth += 1,
            c if c == close => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// A redirection operator at `i`.
fn redirection(chars: &[char], i: usize, out: &mut Lexed) -> usize {
    let next = chars.get(i + 1).copied();
    let (redir, len) = if chars.get(i) == Some(&'<') {
        match (next, chars.get(i + 2)) {
            (Some('<'), Some('<')) => (Redir::HereString, 3),
            (Some('<'), _) => {
                out.note("a here-document");
                (Redir::HereString, if chars.get(i + 2) == Some(&'-') { 3 } else { 2 })
            }
            (Some('&'), _) => (Redir::Dup, 2),
            (Some('>'), _) => (Redir::Input, 2),
            _ => (Redir::Input, 1),
        }
    } else {
        match next {
            Some('>' | '|') => (Redir::Output, 2),
            Some('&') => (Redir::Dup, 2),
            _ => (Redir::Output, 1),
        }
    };
    out.tokens.push(Token::Redir(redir));
    i + len
}
