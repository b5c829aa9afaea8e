//! JSON to Python values, as `json.loads` builds them (the last duplicate key wins).

use serde_json::Value;

use crate::pyval::{Node, PyInt, PyValue};

/// Parses `text`; the error is serde_json's message.
pub(crate) fn load(text: &str) -> Result<Node, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    Ok(from_json(value))
}

/// Converts a JSON value (depth is bounded by serde_json's recursion limit).
pub(crate) fn from_json(v: Value) -> Node {
    let value = match v {
        Value::Null => PyValue::None,
        Value::Bool(b) => PyValue::Bool(b),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                PyValue::Int(PyInt::Small(i128::from(i)))
            } else if let Some(u) = n.as_u64() {
                PyValue::Int(PyInt::Small(i128::from(u)))
            } else {
                PyValue::Float(n.as_f64().unwrap_or(f64::NAN))
            }
        }
        Value::String(s) => PyValue::Str(s),
        Value::Array(items) => PyValue::List(items.into_iter().map(from_json).collect()),
        Value::Object(map) => PyValue::Dict(
            map.into_iter()
                .map(|(k, v)| (Node::new(PyValue::Str(k), None), from_json(v)))
                .collect(),
        ),
    };
    Node::new(value, None)
}
