//! Python `re` patterns on fancy-regex: the few syntax differences translated, `search`
//! semantics (unanchored), and a backtracking budget so a pattern cannot hang a firing.

use fancy_regex::{Regex, RegexBuilder};

use crate::pysyntax::PatternError;

/// The backtracking budget per match; a match that exceeds it counts as a match (see
/// [`search`]).
pub(crate) const BACKTRACK_LIMIT: usize = 1_000_000;

/// Why a Python pattern does not compile here.
#[derive(Debug, Clone, thiserror::Error)]
pub(crate) enum CompileError {
    /// Python rejects it: Python's message.
    #[error(transparent)]
    Python(#[from] PatternError),
    /// Python accepts it but the regex engine does not: the engine's message.
    #[error(transparent)]
    Engine(Box<fancy_regex::Error>),
}

/// Compiles a Python pattern. A pattern Python rejects fails with Python's message; one
/// Python accepts but fancy-regex does not fails with fancy-regex's message.
pub(crate) fn compile(pattern: &str) -> Result<Regex, CompileError> {
    let parsed = crate::pysyntax::parse(pattern)?;
    let translated = translate(&parsed.rewrite(pattern));
    check_repeats(&translated)?;
    RegexBuilder::new(&translated)
        .backtrack_limit(BACKTRACK_LIMIT)
        .build()
        .map_err(|e| CompileError::Engine(Box::new(e)))
}

/// `re.search(pattern, text)` is truthy.
///
/// When the engine gives up (the backtracking budget is spent), the answer is "matches": the
/// hook runs and decides. Python would eventually answer, maybe with a match; reading the
/// budget as "no match" would let an argument crafted to be expensive switch off a gating hook
/// (hardening finding F3). Running a hook that would not have matched is the safe side.
pub(crate) fn search(re: &Regex, text: &str) -> bool {
    re.is_match(text).unwrap_or(true)
}

/// Python rejects `{m,n}` with `m > n`; the regex engines accept some of them.
fn check_repeats(p: &str) -> Result<(), PatternError> {
    let b = p.as_bytes();
    let mut i = 0;
    let mut in_class = false;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            b'[' => in_class = true,
            b']' => in_class = false,
            b'{' if !in_class => {
                let rest = &p[i + 1..];
                if let Some(end) = rest.find('}')
                    && let Some((lo, hi)) = rest[..end].split_once(',')
                    && let (Ok(lo), Ok(hi)) = (lo.parse::<u64>(), hi.parse::<u64>())
                    && lo > hi
                {
                    return Err(PatternError::at("min repeat greater than max repeat", i + 1));
                }
            }
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

/// Rewrites the Python-only spellings that do not depend on flags: `(?P=name)` to
/// `\k<name>`, `\Z` to `\z`, `{,n}` to `{0,n}`, octal escapes to `\\x{..}`, class brackets.
/// Everything that depends on flags (`$`, verbose mode, ASCII mode, the flags themselves) was
/// rewritten from the parse before ([`crate::pysyntax::Parsed::rewrite`]).
fn translate(p: &str) -> String {
    let chars: Vec<char> = p.chars().collect();
    let mut out = String::with_capacity(p.len() + 8);
    let mut i = 0;
    let mut in_class = false;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' => {
                let next = chars.get(i + 1).copied();
                match next {
                    Some('Z') if !in_class => out.push_str("\\z"),
                    Some(d) if d.is_ascii_digit() => {
                        // Python octal escapes: `\0`, `\0d`, `\0dd`, or three octal digits.
                        let oct =
                            |k: usize| chars.get(i + k).is_some_and(|c| ('0'..='7').contains(c));
                        let len = if d == '0' {
                            1 + usize::from(oct(2)) + usize::from(oct(2) && oct(3))
                        } else if oct(1) && oct(2) && oct(3) {
                            3
                        } else {
                            0
                        };
                        if len == 0 {
                            out.push('\\');
                            out.push(d);
                        } else {
                            let digits: String = chars[i + 1..i + 1 + len].iter().collect();
                            let v = u32::from_str_radix(&digits, 8).unwrap_or(0);
                            out.push_str(&format!("\\x{{{v:x}}}"));
                            i += 1 + len;
                            continue;
                        }
                    }
                    Some(n) => {
                        out.push('\\');
                        out.push(n);
                    }
                    None => out.push('\\'),
                }
                i += 2;
                continue;
            }
            '[' if !in_class => {
                in_class = true;
                out.push('[');
                // A `]` (after an optional `^`) right at the start is a literal.
                if chars.get(i + 1) == Some(&'^') {
                    out.push('^');
                    i += 1;
                }
                if chars.get(i + 1) == Some(&']') {
                    out.push_str("\\]");
                    i += 1;
                }
            }
            ']' if in_class => {
                in_class = false;
                out.push(']');
            }
            '[' if in_class => out.push_str("\\["),
            '(' if !in_class
                && chars.get(i + 1) == Some(&'?')
                && chars.get(i + 2) == Some(&'P')
                && chars.get(i + 3) == Some(&'=') =>
            {
                let rest: String = chars[i + 4..].iter().collect();
                if let Some(end) = rest.find(')') {
                    out.push_str("\\k<");
                    out.push_str(&rest[..end]);
                    out.push('>');
                    i += 4 + rest[..end].chars().count() + 1;
                    continue;
                }
                out.push('(');
            }
            '{' if !in_class && chars.get(i + 1) == Some(&',') => {
                let rest: String = chars[i + 2..].iter().collect();
                let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
                if !digits.is_empty() && rest[digits.len()..].starts_with('}') {
                    out.push_str("{0,");
                    i += 2;
                    continue;
                }
                out.push('{');
            }
            c => out.push(c),
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests;
