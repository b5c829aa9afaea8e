//! Chrys's JSON files as Python values: [`hooks_json::python_loads`] reads them as Python's
//! `json.loads` does (`NaN` and the infinities, unbounded integers, `JSONDecodeError`'s words
//! and positions), and this module turns the tree into the values Chrys's loader sees.

use hooks_json::{Kind, PythonError};

use crate::pyval::{Node, PyInt, PyValue};

/// Parses `text`; the error is the `str()` of what Python raises (`Expecting value: line 1
/// column 1 (char 0)`).
pub(crate) fn load(text: &str) -> Result<Node, PythonError> {
    Ok(Node::new(value(&hooks_json::python_loads(text)?), None))
}

fn value(node: &hooks_json::Node) -> PyValue {
    match &node.kind {
        Kind::Null => PyValue::None,
        Kind::Bool(b) => PyValue::Bool(*b),
        Kind::NumberText(text) => number(text),
        // Not produced by `python_loads`; read as the text it would have had.
        Kind::Number(n) => number(&n.to_string()),
        Kind::String(s) => PyValue::Str(s.clone()),
        Kind::Array(items) => {
            PyValue::List(items.iter().map(|n| Node::new(value(n), None)).collect())
        }
        // A dict: each key once, at its first place, with its last value.
        Kind::Object(_) => PyValue::Dict(
            node.entries()
                .into_iter()
                .map(|m| {
                    (Node::new(PyValue::Str(m.key.clone()), None), Node::new(value(&m.value), None))
                })
                .collect(),
        ),
    }
}

/// A number as Python's scanner converts its text: `float()` for a fraction, an exponent or
/// one of the words, `int()` otherwise.
fn number(text: &str) -> PyValue {
    match text {
        "NaN" => PyValue::Float(f64::NAN),
        "Infinity" => PyValue::Float(f64::INFINITY),
        "-Infinity" => PyValue::Float(f64::NEG_INFINITY),
        _ if text.contains(['.', 'e', 'E']) => PyValue::Float(text.parse().unwrap_or(f64::NAN)),
        _ => PyValue::Int(match text.parse::<i128>() {
            Ok(n) => PyInt::Small(n),
            Err(_) => PyInt::Big(text.to_owned()),
        }),
    }
}

#[cfg(test)]
mod tests;
