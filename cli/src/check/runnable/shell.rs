//! The little of POSIX shell syntax `hooks check` reads: the plain words at the start of a
//! command line, so it can tell which program the line starts without running a shell.

/// Shell keywords and builtins: a command line starting with one runs no program of its own
/// name (or one this module cannot follow).
const BUILTINS_AND_KEYWORDS: &[&str] = &[
    "!", ".", ":", "[", "[[", "alias", "bg", "break", "builtin", "case", "cd", "command",
    "continue", "declare", "do", "done", "echo", "elif", "else", "esac", "eval", "exec", "exit",
    "export", "false", "fg", "fi", "for", "function", "getopts", "hash", "if", "jobs", "kill",
    "let", "local", "printf", "pwd", "read", "readonly", "return", "select", "set", "shift",
    "source", "test", "then", "time", "times", "trap", "true", "type", "typeset", "ulimit",
    "umask", "unalias", "unset", "until", "wait", "while",
];

/// Whether `word` is a shell keyword or builtin.
pub(super) fn is_builtin_or_keyword(word: &str) -> bool {
    BUILTINS_AND_KEYWORDS.contains(&word)
}

/// How reading one word ended.
enum Word {
    /// A plain word, unquoted.
    Plain(String),
    /// A plain word followed directly by an operator (`;`, `|`, `&`, `<`, `>`): the command
    /// ends after it.
    Last(String),
    /// The command ends here (an operator, a comment, a newline or the end).
    End,
    /// Syntax this module does not follow.
    Unknown,
}

/// The plain words at the start of `script`'s first simple command, unquoted, with `$NAME`
/// and `${NAME}` filled in for the names in `vars`.
///
/// Reading stops at the first operator (`;`, `|`, `&`, `<`, `>`), newline or comment, and
/// before the first word using anything else: other expansions, command substitution,
/// backslashes, globs, braces, `~`, subshells. `None` when not even the first word is plain.
pub(super) fn simple_words(script: &str, vars: &[(&str, &str)]) -> Option<Vec<String>> {
    let mut chars = script.chars().peekable();
    let mut words = Vec::new();
    loop {
        while chars.next_if(|c| *c == ' ' || *c == '\t').is_some() {}
        match read_word(&mut chars, vars) {
            Word::Plain(w) => words.push(w),
            Word::Last(w) => {
                // `2>file`: the digits name a descriptor, not an argument.
                if !w.chars().all(|c| c.is_ascii_digit()) {
                    words.push(w);
                }
                break;
            }
            Word::End | Word::Unknown => break,
        }
    }
    (!words.is_empty()).then_some(words)
}

fn read_word(chars: &mut std::iter::Peekable<std::str::Chars<'_>>, vars: &[(&str, &str)]) -> Word {
    let mut word = String::new();
    match chars.peek() {
        None | Some(';' | '|' | '&' | '<' | '>' | '\n' | '\r' | '#') => return Word::End,
        Some('~' | '(' | ')' | '{' | '}') => return Word::Unknown,
        Some(_) => {}
    }
    while let Some(&c) = chars.peek() {
        match c {
            ' ' | '\t' => return Word::Plain(word),
            ';' | '|' | '&' | '<' | '>' | '\n' | '\r' => return Word::Last(word),
            '\'' => {
                chars.next();
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Word::Unknown,
                    }
                }
            }
            '"' => {
                chars.next();
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('$') => match variable(chars, vars) {
                            Some(v) => word.push_str(v),
                            None => return Word::Unknown,
                        },
                        Some('`' | '\\') | None => return Word::Unknown,
                        Some(c) => word.push(c),
                    }
                }
            }
            '$' => {
                chars.next();
                match variable(chars, vars) {
                    Some(v) => word.push_str(v),
                    None => return Word::Unknown,
                }
            }
            '`' | '\\' | '*' | '?' | '[' | ']' | '{' | '}' | '(' | ')' => return Word::Unknown,
            c => {
                chars.next();
                word.push(c);
            }
        }
    }
    Word::Plain(word)
}

/// After a `$`: the value of `NAME` or `{NAME}` when it is one of `vars`.
fn variable<'v>(
    chars: &mut std::iter::Peekable<std::str::Chars<'_>>,
    vars: &[(&str, &'v str)],
) -> Option<&'v str> {
    let braced = chars.next_if_eq(&'{').is_some();
    let mut name = String::new();
    while let Some(c) = chars.next_if(|c| c.is_ascii_alphanumeric() || *c == '_') {
        name.push(c);
    }
    if braced && chars.next_if_eq(&'}').is_none() {
        return None;
    }
    vars.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
}

/// Splits the leading `NAME=value` assignments off `words`: the names assigned, and the rest.
pub(super) fn split_assignments(words: &[String]) -> (Vec<String>, &[String]) {
    let names: Vec<String> = words
        .iter()
        .map_while(|w| {
            let (name, _) = w.split_once('=')?;
            let valid = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            valid.then(|| name.to_owned())
        })
        .collect();
    let rest = words.get(names.len()..).unwrap_or(&[]);
    (names, rest)
}
