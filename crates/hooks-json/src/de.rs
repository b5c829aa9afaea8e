//! Serde-derived structures read from a positioned tree: [`from_node`] deserializes any
//! `Deserialize` type from a [`Node`], [`At`] keeps where a value (and its key) stood, and
//! [`Checked`] keeps a value of the wrong type instead of failing, so that an adapter
//! declares a file's shape once and its parser only validates.
//!
//! [`Pairs`] lists every member as written (duplicates kept) and [`Both`] reads one value as
//! two declarations, for the readers that warn about each key written.
//!
//! Reading follows `JSON.parse`: of a key written twice, the last value counts; a key that
//! is present with `null` is `Some` of whatever `null` reads as (only an absent key is
//! `None`), because adapters tell "missing" from "null".
//!
//! ```
//! use hooks_json::{At, Checked, from_node, parse};
//! #[derive(serde::Deserialize)]
//! struct Handler {
//!     command: Option<At<Checked<String>>>,
//!     timeout: Option<At<Checked<f64>>>,
//! }
//! let root = parse(b"{\"command\": \"x\",\n \"timeout\": \"5\"}").unwrap();
//! let h: Handler = from_node(&root).unwrap();
//! let t = h.timeout.unwrap();
//! assert_eq!((t.line, t.column, t.found), (2, 13, "a string"));
//! assert!(matches!(t.value, Checked::Wrong(_)));
//! ```

use std::{fmt, marker::PhantomData};

use serde::{
    Deserialize, Deserializer,
    de::{
        self, DeserializeSeed, IgnoredAny, IntoDeserializer, MapAccess, SeqAccess, Visitor,
        value::BorrowedStrDeserializer,
    },
};
use serde_json::Value;

use crate::{Kind, Member, Node};

// `At`, `Checked`, `Both` (and so `Keyed`) and `Pairs` ask the deserializer for a struct of a
// reserved name; the tree's deserializer answers with the node's position, the node twice,
// or every member as written.

/// Why a tree does not fit the type asked for (the structure, not a value's type: a
/// [`Checked`] field never fails).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeError(String);

impl fmt::Display for DeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DeError {}

impl de::Error for DeError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        DeError(msg.to_string())
    }
}

/// Deserializes `T` from a parsed tree.
pub fn from_node<'de, T: Deserialize<'de>>(node: &'de Node) -> Result<T, DeError> {
    T::deserialize(NodeDe { node, key: None })
}

/// A value with the position of its first character, and of its key when it is an object's
/// member. Only [`from_node`] can read it.
#[derive(Debug, Clone, PartialEq)]
pub struct At<T> {
    /// The value.
    pub value: T,
    /// 1-based line of the value.
    pub line: u32,
    /// 1-based column (in characters) of the value.
    pub column: u32,
    /// 1-based line and column of the member's key, when the value has one.
    pub key: Option<(u32, u32)>,
    /// The JSON type of the value as written (`Node::type_name`: `a string`, `null`, ...).
    pub found: &'static str,
}

impl<T> At<T> {
    /// Where the value starts.
    pub fn at(&self) -> (u32, u32) {
        (self.line, self.column)
    }

    /// Where the key starts, or the value when it has none.
    pub fn key_at(&self) -> (u32, u32) {
        self.key.unwrap_or((self.line, self.column))
    }
}

/// A member as a structure declares it: absent (`None`), or present where it stands, of type
/// `T` or not ([`Checked`]).
pub type Field<T> = Option<At<Checked<T>>>;

/// A value of type `T`, or the value as written when it is not a `T` (so one wrong field is
/// a diagnostic, not a failure of the whole structure). Only [`from_node`] can read it.
#[derive(Debug, Clone, PartialEq)]
pub enum Checked<T> {
    /// It is a `T`.
    Ok(T),
    /// It is not: the value as written.
    Wrong(Value),
}

impl<T> Checked<T> {
    /// The value, when it has the type asked for.
    pub fn ok(&self) -> Option<&T> {
        match self {
            Checked::Ok(v) => Some(v),
            Checked::Wrong(_) => None,
        }
    }

    /// Whether the value as written is `null` (and `T` does not read it).
    pub fn is_null(&self) -> bool {
        matches!(self, Checked::Wrong(Value::Null))
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Checked<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct CheckedVisitor<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for CheckedVisitor<T> {
            type Value = Checked<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a value read by hooks_json::from_node")
            }
            // The tree's deserializer offers the same node twice: as a `T`, then, only when
            // that failed, as written.
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Checked<T>, A::Error> {
                map.next_key::<IgnoredAny>()?;
                if let Ok(v) = map.next_value::<T>() {
                    return Ok(Checked::Ok(v));
                }
                map.next_key::<IgnoredAny>()?;
                map.next_value().map(Checked::Wrong)
            }
        }
        d.deserialize_struct(CHECKED, CHECKED_FIELDS, CheckedVisitor(PhantomData))
    }
}

/// An object's members in document order (each key once, with its last value, as
/// `Object.entries` gives them); use `At<T>` values for the keys' positions.
#[derive(Debug, Clone, PartialEq)]
pub struct Entries<T>(pub Vec<(String, T)>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Entries<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(MembersVisitor(PhantomData)).map(Entries)
    }
}

/// Reads an object's members as the deserializer hands them out, in order.
struct MembersVisitor<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for MembersVisitor<T> {
    type Value = Vec<(String, T)>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::with_capacity(map.size_hint().unwrap_or(0));
        while let Some(entry) = map.next_entry()? {
            out.push(entry);
        }
        Ok(out)
    }
}

/// A structure read from an object together with every key the object holds and where it
/// stands, in document order (each key once), so keys the structure does not know can be
/// named. Only [`from_node`] can read it.
#[derive(Debug, Clone, PartialEq)]
pub struct Keyed<T> {
    /// The structure.
    pub value: T,
    /// Each key with the line and column of its (last) occurrence.
    pub keys: Vec<(String, (u32, u32))>,
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Keyed<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let Both(value, Entries(keys)) = Both::<T, Entries<At<IgnoredAny>>>::deserialize(d)?;
        let keys = keys.into_iter().map(|(k, at)| (k, at.key_at())).collect();
        Ok(Keyed { value, keys })
    }
}

/// Every member of an object in document order, duplicate keys kept (each with its own
/// value), for a reader that names every occurrence (a warning per duplicate, an unknown key
/// each time it is written); [`Entries`] gives each key once, as `JSON.parse` sees them. Only
/// [`from_node`] can read it; anything but an object fails.
#[derive(Debug, Clone, PartialEq)]
pub struct Pairs<T>(pub Vec<(String, T)>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Pairs<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_struct(PAIRS, &[], MembersVisitor(PhantomData)).map(Pairs)
    }
}

/// One value read as two declarations (say the fields a structure knows, and the
/// [`Pairs`] of every key written); either failing fails both. Only [`from_node`] can read
/// it.
#[derive(Debug, Clone, PartialEq)]
pub struct Both<A, B>(pub A, pub B);

impl<'de, A: Deserialize<'de>, B: Deserialize<'de>> Deserialize<'de> for Both<A, B> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct BothVisitor<A, B>(PhantomData<(A, B)>);
        impl<'de, A: Deserialize<'de>, B: Deserialize<'de>> Visitor<'de> for BothVisitor<A, B> {
            type Value = Both<A, B>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a value read by hooks_json::from_node")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Both<A, B>, M::Error> {
                map.next_key::<IgnoredAny>()?;
                let a = map.next_value()?;
                map.next_key::<IgnoredAny>()?;
                let b = map.next_value()?;
                Ok(Both(a, b))
            }
        }
        d.deserialize_struct(BOTH, SAME_NODE_TWICE, BothVisitor(PhantomData))
    }
}

/// The name [`At`] asks for, so the tree's deserializer knows to hand out positions.
const AT: &str = "$hooks_json::At";
const AT_FIELDS: &[&str] = &["line", "column", "key_line", "key_column", "found", "value"];
/// The names [`Checked`] and [`Both`] (and so [`Keyed`]) ask for: the tree's deserializer
/// offers their node twice (as two fields), which no other deserializer can.
const CHECKED: &str = "$hooks_json::Checked";
const BOTH: &str = "$hooks_json::Both";
/// The name [`Pairs`] asks for: the tree's deserializer lists every member, duplicates kept.
const PAIRS: &str = "$hooks_json::Pairs";
const SAME_NODE_TWICE: &[&str] = &["value", "again"];
const CHECKED_FIELDS: &[&str] = SAME_NODE_TWICE;

impl<'de, T: Deserialize<'de>> Deserialize<'de> for At<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct AtVisitor<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for AtVisitor<T> {
            type Value = At<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a value read by hooks_json::from_node")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<At<T>, A::Error> {
                let mut n = [0u32; 4];
                for slot in &mut n {
                    map.next_key::<IgnoredAny>()?;
                    *slot = map.next_value()?;
                }
                map.next_key::<IgnoredAny>()?;
                let found: &'de str = map.next_value()?;
                map.next_key::<IgnoredAny>()?;
                let value = map.next_value()?;
                let found = TYPE_NAMES.iter().copied().find(|t| *t == found).unwrap_or("a value");
                let key = (n[2] > 0).then_some((n[2], n[3]));
                Ok(At { value, line: n[0], column: n[1], key, found })
            }
        }
        d.deserialize_struct(AT, AT_FIELDS, AtVisitor(PhantomData))
    }
}

const TYPE_NAMES: [&str; 6] =
    ["null", "a boolean", "a number", "a string", "an array", "an object"];

/// The deserializer of one node; `key` is its member's key position.
#[derive(Clone, Copy)]
struct NodeDe<'de> {
    node: &'de Node,
    key: Option<(u32, u32)>,
}

impl<'de> Deserializer<'de> for NodeDe<'de> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match &self.node.kind {
            Kind::Null => visitor.visit_unit(),
            Kind::Bool(b) => visitor.visit_bool(*b),
            Kind::Number(n) => {
                if let Some(u) = n.as_u64() {
                    visitor.visit_u64(u)
                } else if let Some(i) = n.as_i64() {
                    visitor.visit_i64(i)
                } else {
                    visitor.visit_f64(n.as_f64().unwrap_or(f64::NAN))
                }
            }
            Kind::NumberText(t) => {
                if let Ok(u) = t.parse::<u64>() {
                    visitor.visit_u64(u)
                } else if let Ok(i) = t.parse::<i64>() {
                    visitor.visit_i64(i)
                } else {
                    visitor.visit_f64(t.parse().unwrap_or(f64::NAN))
                }
            }
            Kind::String(s) => visitor.visit_borrowed_str(s),
            Kind::Array(items) => visitor.visit_seq(Items { items: items.iter() }),
            Kind::Object(_) => visitor.visit_map(Members::new(self.node)),
        }
    }

    /// A present value is `Some`, `null` included: only an absent key is `None`.
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        visitor.visit_some(self)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        match name {
            AT => return visitor.visit_map(AtFields { de: self, next: 0 }),
            CHECKED | BOTH => return visitor.visit_map(Twice { de: self, next: 0 }),
            PAIRS => {
                return match self.node.members() {
                    Some(members) => visitor.visit_map(Members::all(members)),
                    None => Err(de::Error::custom(format!(
                        "expected an object, found {}",
                        self.node.type_name()
                    ))),
                };
            }
            _ => {}
        }
        // A structure is an object: never read positionally from an array.
        match self.node.kind {
            Kind::Object(_) => visitor.visit_map(Members::new(self.node)),
            _ => Err(de::Error::custom(format!(
                "expected an object, found {}",
                self.node.type_name()
            ))),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        match &self.node.kind {
            Kind::String(s) => visitor.visit_enum(s.as_str().into_deserializer()),
            _ => Err(de::Error::custom(format!(
                "expected a string naming a variant, found {}",
                self.node.type_name()
            ))),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct seq tuple tuple_struct map identifier ignored_any
    }
}

/// An array's items.
struct Items<'de> {
    items: std::slice::Iter<'de, Node>,
}

impl<'de> SeqAccess<'de> for Items<'de> {
    type Error = DeError;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, DeError> {
        self.items.next().map(|node| seed.deserialize(NodeDe { node, key: None })).transpose()
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

/// An object's members as `JSON.parse` sees them (each key once, the last value), or every
/// member as written ([`Members::all`]).
struct Members<'de> {
    entries: std::vec::IntoIter<&'de Member>,
    value: Option<&'de Member>,
}

impl<'de> Members<'de> {
    fn new(node: &'de Node) -> Members<'de> {
        Members { entries: node.entries().into_iter(), value: None }
    }

    /// Every member as written, duplicates kept ([`Pairs`]).
    fn all(members: &'de [Member]) -> Members<'de> {
        Members { entries: members.iter().collect::<Vec<_>>().into_iter(), value: None }
    }
}

impl<'de> MapAccess<'de> for Members<'de> {
    type Error = DeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DeError> {
        let Some(m) = self.entries.next() else { return Ok(None) };
        self.value = Some(m);
        seed.deserialize(BorrowedStrDeserializer::new(&m.key)).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, DeError> {
        let m = self.value.take().ok_or_else(|| de::Error::custom("a value without its key"))?;
        seed.deserialize(NodeDe { node: &m.value, key: Some((m.line, m.column)) })
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

/// The fields [`At`]'s visitor reads: positions, the type name, then the value.
struct AtFields<'de> {
    de: NodeDe<'de>,
    next: usize,
}

impl<'de> MapAccess<'de> for AtFields<'de> {
    type Error = DeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DeError> {
        let Some(name) = AT_FIELDS.get(self.next) else { return Ok(None) };
        seed.deserialize(BorrowedStrDeserializer::new(name)).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, DeError> {
        let node = self.de.node;
        let (key_line, key_column) = self.de.key.unwrap_or((0, 0));
        let field = self.next;
        self.next += 1;
        match field {
            0 => seed.deserialize(number(node.line)),
            1 => seed.deserialize(number(node.column)),
            2 => seed.deserialize(number(key_line)),
            3 => seed.deserialize(number(key_column)),
            4 => seed.deserialize(BorrowedStrDeserializer::new(node.type_name())),
            _ => seed.deserialize(self.de),
        }
    }
}

/// The same node as two fields (see [`SAME_NODE_TWICE`]).
struct Twice<'de> {
    de: NodeDe<'de>,
    next: usize,
}

impl<'de> MapAccess<'de> for Twice<'de> {
    type Error = DeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DeError> {
        let Some(name) = SAME_NODE_TWICE.get(self.next) else { return Ok(None) };
        self.next += 1;
        seed.deserialize(BorrowedStrDeserializer::new(name)).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, DeError> {
        seed.deserialize(self.de)
    }
}

fn number(n: u32) -> serde::de::value::U32Deserializer<DeError> {
    n.into_deserializer()
}

#[cfg(test)]
mod tests;
