//! JavaScript semantics Gemini CLI relies on, reproduced where they decide what runs:
//! `String.prototype.trim`, `ToNumber`, truthiness, Node's timer clamp, `JSON.parse` of a
//! hook's output, and the `shell-quote` quoting of substituted values.

use std::time::Duration;

use serde_json::Value;

/// Whether `c` is JavaScript whitespace (`WhiteSpace` or `LineTerminator`): what `trim`
/// removes and what a regular expression's `\s` matches.
pub(crate) use hooks_json::is_js_space;

/// `String.prototype.trim` (Rust's `trim` differs: it keeps U+FEFF and removes U+0085).
pub(crate) fn trim(s: &str) -> &str {
    s.trim_matches(is_js_space)
}

/// `ToNumber` of a string (`Number("…")`): surrounding whitespace ignored, empty is 0,
/// `0x`/`0o`/`0b` integers, `Infinity`, decimal literals; anything else is NaN.
pub(crate) fn string_to_number(s: &str) -> f64 {
    let t = trim(s);
    if t.is_empty() {
        return 0.0;
    }
    let radix = |digits: &str, radix: u32| -> f64 {
        if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
            return f64::NAN;
        }
        digits
            .chars()
            .fold(0.0, |acc, c| acc * f64::from(radix) + f64::from(c.to_digit(radix).unwrap_or(0)))
    };
    for (prefix, r) in [("0x", 16), ("0X", 16), ("0o", 8), ("0O", 8), ("0b", 2), ("0B", 2)] {
        if let Some(rest) = t.strip_prefix(prefix) {
            return radix(rest, r);
        }
    }
    let (sign, body) = match t.as_bytes().first() {
        Some(b'-') => (-1.0, &t[1..]),
        Some(b'+') => (1.0, &t[1..]),
        _ => (1.0, t),
    };
    if body == "Infinity" {
        return sign * f64::INFINITY;
    }
    if is_decimal_literal(body) {
        return body.parse::<f64>().map_or(f64::NAN, |v| sign * v);
    }
    f64::NAN
}

/// `StrUnsignedDecimalLiteral`: digits with an optional fraction and exponent, at least one
/// digit in the mantissa.
fn is_decimal_literal(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    let int_digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    i += int_digits;
    let mut frac_digits = 0;
    if b.get(i) == Some(&b'.') {
        i += 1;
        frac_digits =
            b.get(i..).unwrap_or_default().iter().take_while(|c| c.is_ascii_digit()).count();
        i += frac_digits;
    }
    if int_digits + frac_digits == 0 {
        return false;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let exp = b.get(i..).unwrap_or_default().iter().take_while(|c| c.is_ascii_digit()).count();
        if exp == 0 {
            return false;
        }
        i += exp;
    }
    i == b.len()
}

/// `ToNumber` of a JSON value (`value * 1`, as Node's timers coerce a delay).
pub(crate) fn to_number(v: &Value) -> f64 {
    match v {
        Value::Null => 0.0,
        Value::Bool(b) => f64::from(u8::from(*b)),
        Value::Number(n) => n.as_f64().unwrap_or(f64::NAN),
        Value::String(s) => string_to_number(s),
        // `[x]` becomes `String(x)`, `[]` the empty string; longer arrays and objects NaN.
        Value::Array(items) => match items.as_slice() {
            [] => 0.0,
            [Value::String(s)] => string_to_number(s),
            [Value::Number(n)] => n.as_f64().unwrap_or(f64::NAN),
            [Value::Null] => 0.0,
            _ => f64::NAN,
        },
        Value::Object(_) => f64::NAN,
    }
}

/// JavaScript truthiness.
pub(crate) fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0 && !f.is_nan()),
        Value::String(s) => !s.is_empty(),
        Value::Array(_) | Value::Object(_) => true,
    }
}

/// Node's largest timer delay, 2³¹−1 ms.
pub(crate) const TIMER_MAX_MS: f64 = 2_147_483_647.0;

/// The delay Node's `setTimeout` arms for `ms`: a value below 1, above 2³¹−1 or NaN
/// becomes 1 ms ("the delay will be set to 1"); fractions of a millisecond are dropped.
pub(crate) fn node_timer(ms: f64) -> Duration {
    if ms.is_nan() || !(1.0..=TIMER_MAX_MS).contains(&ms) {
        return Duration::from_millis(1);
    }
    // In range, so the cast neither truncates the integer part nor saturates.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    Duration::from_millis(ms.trunc() as u64)
}

/// What `JSON.parse` makes of a hook's trimmed output, as Gemini CLI's runner reads it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ParsedOutput {
    /// An object (or an array, which JavaScript counts as an object): the hook's output.
    Object(serde_json::Map<String, Value>),
    /// Valid JSON that is no object (a number, `true`, `null`, or a string holding one):
    /// no output at all.
    NotObject,
    /// Not JSON (or a JSON string whose content is not JSON): plain text.
    Text,
}

/// `JSON.parse(text)`, and once more if the result is a string, as Gemini CLI's
/// `HookRunner` does.
pub(crate) fn parse_output(text: &str) -> ParsedOutput {
    let Ok(first) = serde_json::from_str::<Value>(text) else { return ParsedOutput::Text };
    let value = match first {
        Value::String(inner) => match serde_json::from_str::<Value>(&inner) {
            Ok(v) => v,
            Err(_) => return ParsedOutput::Text,
        },
        v => v,
    };
    match value {
        Value::Object(m) => ParsedOutput::Object(m),
        Value::Array(_) => ParsedOutput::Object(serde_json::Map::new()),
        _ => ParsedOutput::NotObject,
    }
}

/// `shell-quote`'s `quote([s])`, which Gemini CLI uses for the values it substitutes into a
/// command line under bash.
pub(crate) fn shell_quote(s: &str) -> String {
    if s.is_empty() {
        return "''".to_owned();
    }
    let has = |f: fn(char) -> bool| s.chars().any(f);
    if has(|c| c == '"' || c == '\\' || is_js_space(c)) && !s.contains('\'') {
        return format!("'{s}'");
    }
    if has(|c| c == '"' || c == '\'' || is_js_space(c)) {
        let mut out = String::with_capacity(s.len() + 2);
        out.push('"');
        for c in s.chars() {
            if matches!(c, '"' | '\\' | '$' | '`' | '!') {
                out.push('\\');
            }
            out.push(c);
        }
        out.push('"');
        return out;
    }
    escape_meta(s)
}

/// `shell-quote`'s last case, `s.replace(/([A-Za-z]:)?([#!"$&'()*,:;<=>?@[\\\]^`{|}])/g,
/// "$1\\$2")`: every metacharacter is escaped, except that a drive letter's colon right before
/// a metacharacter stays as it is.
fn escape_meta(original: &str) -> String {
    let meta = |c: char| "#!\"$&'()*,:;<=>?@[\\]^`{|}".contains(c);
    let chars: Vec<char> = original.chars().collect();
    let mut out = String::with_capacity(original.len() + 8);
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        if c.is_ascii_alphabetic()
            && chars.get(i + 1) == Some(&':')
            && let Some(&m) = chars.get(i + 2).filter(|&&n| meta(n))
        {
            out.push(c);
            out.push(':');
            out.push('\\');
            out.push(m);
            i += 3;
            continue;
        }
        if meta(c) {
            out.push('\\');
        }
        out.push(c);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests;
