//! Python-like values: what PyYAML's `safe_load` and `json.loads` would hand Chrys, with
//! Python's `type().__name__`, `repr()`, `str()` and key equality.

use serde_json::Value;

/// An integer, small or not (Python ints are unbounded).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum PyInt {
    /// Fits in 128 bits.
    Small(i128),
    /// Decimal digits (with a leading `-` when negative) of a larger value.
    Big(String),
}

/// One parsed value with the position it started at (YAML only).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Node {
    pub(crate) value: PyValue,
    /// 1-based line and column.
    pub(crate) mark: Option<(u32, u32)>,
}

/// A value as Python sees it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum PyValue {
    None,
    Bool(bool),
    Int(PyInt),
    Float(f64),
    Str(String),
    /// `datetime.date(y, m, d)`.
    Date(i64, u32, u32),
    /// A `datetime.datetime`, kept as its Python repr.
    DateTime(String),
    List(Vec<Node>),
    /// Keys are unique under Python equality; insertion order is kept.
    Dict(Vec<(Node, Node)>),
    /// `bytes` (YAML `!!binary`).
    Bytes(Vec<u8>),
    /// `set` (YAML `!!set`), members in file order.
    Set(Vec<Node>),
}

impl Node {
    pub(crate) fn new(value: PyValue, mark: Option<(u32, u32)>) -> Node {
        Node { value, mark }
    }
}

impl PyValue {
    /// `type(v).__name__`.
    pub(crate) fn type_name(&self) -> &'static str {
        match self {
            PyValue::None => "NoneType",
            PyValue::Bool(_) => "bool",
            PyValue::Int(_) => "int",
            PyValue::Float(_) => "float",
            PyValue::Str(_) => "str",
            PyValue::Date(..) => "date",
            PyValue::DateTime(_) => "datetime",
            PyValue::List(_) => "list",
            PyValue::Dict(_) => "dict",
            PyValue::Bytes(_) => "bytes",
            PyValue::Set(_) => "set",
        }
    }

    /// Python truthiness.
    pub(crate) fn truthy(&self) -> bool {
        match self {
            PyValue::None => false,
            PyValue::Bool(b) => *b,
            PyValue::Int(PyInt::Small(i)) => *i != 0,
            PyValue::Int(PyInt::Big(_)) => true,
            PyValue::Float(f) => *f != 0.0,
            PyValue::Str(s) => !s.is_empty(),
            PyValue::Date(..) | PyValue::DateTime(_) => true,
            PyValue::List(l) => !l.is_empty(),
            PyValue::Dict(d) => !d.is_empty(),
            PyValue::Bytes(b) => !b.is_empty(),
            PyValue::Set(s) => !s.is_empty(),
        }
    }

    /// The value as a number when Python's `==` would compare it numerically.
    fn numeric(&self) -> Option<f64> {
        match self {
            PyValue::Bool(b) => Some(f64::from(u8::from(*b))),
            #[allow(clippy::cast_precision_loss)]
            PyValue::Int(PyInt::Small(i)) => Some(*i as f64),
            PyValue::Float(f) => Some(*f),
            _ => None,
        }
    }

    /// Python `==` (used for dict keys and for `version != 1`).
    pub(crate) fn py_eq(&self, other: &PyValue) -> bool {
        if let (PyValue::Int(PyInt::Small(a)), PyValue::Int(PyInt::Small(b))) = (self, other) {
            return a == b;
        }
        if let (Some(a), Some(b)) = (self.numeric(), other.numeric()) {
            return a == b;
        }
        match (self, other) {
            (PyValue::List(a), PyValue::List(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.value.py_eq(&y.value))
            }
            (PyValue::Dict(a), PyValue::Dict(b)) => {
                a.len() == b.len()
                    && a.iter().all(|(k, v)| {
                        b.iter()
                            .any(|(k2, v2)| k.value.py_eq(&k2.value) && v.value.py_eq(&v2.value))
                    })
            }
            (PyValue::Float(_) | PyValue::Bool(_) | PyValue::Int(_), _) => false,
            _ => self == other,
        }
    }

    /// Whether Python could use it as a dict key.
    pub(crate) fn hashable(&self) -> bool {
        !matches!(self, PyValue::List(_) | PyValue::Dict(_) | PyValue::Set(_))
    }

    /// The string, when it is one.
    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            PyValue::Str(s) => Some(s),
            _ => None,
        }
    }

    /// Looks a string key up in a dict.
    pub(crate) fn get(&self, key: &str) -> Option<&Node> {
        match self {
            PyValue::Dict(pairs) => {
                pairs.iter().find(|(k, _)| k.value.as_str() == Some(key)).map(|(_, v)| v)
            }
            _ => None,
        }
    }

    /// `repr(v)`.
    pub(crate) fn repr(&self) -> String {
        match self {
            PyValue::None => "None".to_owned(),
            PyValue::Bool(true) => "True".to_owned(),
            PyValue::Bool(false) => "False".to_owned(),
            PyValue::Int(PyInt::Small(i)) => i.to_string(),
            PyValue::Int(PyInt::Big(s)) => s.clone(),
            PyValue::Float(f) => float_repr(*f),
            PyValue::Str(s) => str_repr(s),
            PyValue::Date(y, m, d) => format!("datetime.date({y}, {m}, {d})"),
            PyValue::DateTime(r) => r.clone(),
            PyValue::List(items) => {
                let parts: Vec<String> = items.iter().map(|n| n.value.repr()).collect();
                format!("[{}]", parts.join(", "))
            }
            PyValue::Dict(pairs) => {
                let parts: Vec<String> = pairs
                    .iter()
                    .map(|(k, v)| format!("{}: {}", k.value.repr(), v.value.repr()))
                    .collect();
                format!("{{{}}}", parts.join(", "))
            }
            PyValue::Bytes(b) => {
                let mut out = String::from("b'");
                for &c in b {
                    match c {
                        b'\\' => out.push_str("\\\\"),
                        b'\'' => out.push_str("\\'"),
                        b'\n' => out.push_str("\\n"),
                        b'\r' => out.push_str("\\r"),
                        b'\t' => out.push_str("\\t"),
                        0x20..=0x7e => out.push(char::from(c)),
                        _ => out.push_str(&format!("\\x{c:02x}")),
                    }
                }
                out.push('\'');
                out
            }
            PyValue::Set(items) if items.is_empty() => "set()".to_owned(),
            PyValue::Set(items) => {
                let parts: Vec<String> = items.iter().map(|n| n.value.repr()).collect();
                format!("{{{}}}", parts.join(", "))
            }
        }
    }

    /// `str(v)`.
    pub(crate) fn py_str(&self) -> String {
        match self {
            PyValue::Str(s) => s.clone(),
            PyValue::Date(y, m, d) => format!("{y:04}-{m:02}-{d:02}"),
            other => other.repr(),
        }
    }
}

/// `sorted(keys, key=str)` rendered as Python renders the list.
pub(crate) fn sorted_keys_repr(keys: &[&PyValue]) -> String {
    let mut keyed: Vec<(String, String)> = keys.iter().map(|k| (k.py_str(), k.repr())).collect();
    // Python compares str by code point, which is UTF-8 byte order too; the sort is stable.
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    let parts: Vec<String> = keyed.into_iter().map(|(_, r)| r).collect();
    format!("[{}]", parts.join(", "))
}

/// Python's `repr(float)`: the shortest round-trip digits, scientific below 1e-4 and from 1e16.
pub(crate) fn float_repr(f: f64) -> String {
    if f.is_nan() {
        return "nan".to_owned();
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf".to_owned() } else { "-inf".to_owned() };
    }
    if f == 0.0 {
        return if f.is_sign_negative() { "-0.0".to_owned() } else { "0.0".to_owned() };
    }
    // `{:e}` gives the shortest round-trip digits: `d.ddddde<exp>`.
    let sci = format!("{f:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let (neg, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => (true, m),
        None => (false, mantissa),
    };
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let sign = if neg { "-" } else { "" };
    if !(-4..16).contains(&exp) {
        let (head, tail) = digits.split_at(1);
        let frac = if tail.is_empty() { String::new() } else { format!(".{tail}") };
        let esign = if exp < 0 { '-' } else { '+' };
        return format!("{sign}{head}{frac}e{esign}{:02}", exp.abs());
    }
    let n = digits.len() as i32;
    if exp < 0 {
        let zeros = "0".repeat(usize::try_from(-exp - 1).unwrap_or(0));
        return format!("{sign}0.{zeros}{digits}");
    }
    let int_len = exp + 1;
    if int_len >= n {
        let zeros = "0".repeat(usize::try_from(int_len - n).unwrap_or(0));
        format!("{sign}{digits}{zeros}.0")
    } else {
        let (a, b) = digits.split_at(usize::try_from(int_len).unwrap_or(0));
        format!("{sign}{a}.{b}")
    }
}

/// Python's `repr(str)`.
pub(crate) fn str_repr(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') { '"' } else { '\'' };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if is_printable(c) => out.push(c),
            c => {
                let n = u32::from(c);
                if n < 0x100 {
                    out.push_str(&format!("\\x{n:02x}"));
                } else if n < 0x10000 {
                    out.push_str(&format!("\\u{n:04x}"));
                } else {
                    out.push_str(&format!("\\U{n:08x}"));
                }
            }
        }
    }
    out.push(quote);
    out
}

/// Python's `str.isprintable()` for one character, without the Unicode database: control
/// characters, separators other than the ASCII space, the format characters and the private
/// use areas are not printable. Unassigned code points are treated as printable (Python
/// says they are not); `specs/formats/chrys.md` lists this as a deviation.
pub(crate) fn is_printable(c: char) -> bool {
    let n = u32::from(c);
    if c == ' ' {
        return true;
    }
    if c.is_control() {
        return false;
    }
    const NOT_PRINTABLE: &[(u32, u32)] = &[
        (0x00A0, 0x00A0),
        (0x00AD, 0x00AD),
        (0x0600, 0x0605),
        (0x061C, 0x061C),
        (0x06DD, 0x06DD),
        (0x070F, 0x070F),
        (0x0890, 0x0891),
        (0x08E2, 0x08E2),
        (0x1680, 0x1680),
        (0x180E, 0x180E),
        (0x2000, 0x200F),
        (0x2028, 0x202F),
        (0x205F, 0x2064),
        (0x2066, 0x206F),
        (0x3000, 0x3000),
        (0xD800, 0xF8FF),
        (0xFEFF, 0xFEFF),
        (0xFFF9, 0xFFFB),
        (0x110BD, 0x110BD),
        (0x110CD, 0x110CD),
        (0x13430, 0x1343F),
        (0x1BCA0, 0x1BCA3),
        (0x1D173, 0x1D17A),
        (0xE0001, 0xE0001),
        (0xE0020, 0xE007F),
        (0xF0000, 0x10FFFF),
    ];
    !NOT_PRINTABLE.iter().any(|&(lo, hi)| (lo..=hi).contains(&n))
}

/// Python's `str()` of a value `json.loads` produced, as Chrys's matcher stringifies
/// non-string arguments.
pub(crate) fn json_py_str(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => json_py_repr(other),
    }
}

/// Python's `repr()` of a value `json.loads` produced.
pub(crate) fn json_py_repr(v: &Value) -> String {
    match v {
        Value::Null => "None".to_owned(),
        Value::Bool(true) => "True".to_owned(),
        Value::Bool(false) => "False".to_owned(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.to_string()
            } else if let Some(u) = n.as_u64() {
                u.to_string()
            } else {
                float_repr(n.as_f64().unwrap_or(f64::NAN))
            }
        }
        Value::String(s) => str_repr(s),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(json_py_repr).collect();
            format!("[{}]", parts.join(", "))
        }
        Value::Object(map) => {
            let parts: Vec<String> =
                map.iter().map(|(k, v)| format!("{}: {}", str_repr(k), json_py_repr(v))).collect();
            format!("{{{}}}", parts.join(", "))
        }
    }
}

/// Python truthiness of a JSON value.
pub(crate) fn json_truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
    }
}

#[cfg(test)]
mod tests;
