//! A call's arguments as the client sent them, before normalization:
//! [`RawArgs`], keys in the order sent, each with an [`ArgValue`].
//!
//! A small model sends any JSON: numbers as strings, `"all"` limits, lists
//! or `{"start", "end"}` objects for line ranges, LSP's
//! `{"textDocument": {"uri"}}` for a path, the arguments wrapped once more.
//! Which argument a key fills depends on the other keys and on its value,
//! so the call is read whole into these types (at the MCP boundary, by
//! [`serde::Deserialize`]) and the lenient readers of `values` and `keys`
//! decide what each value means.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Number;

/// One argument value, of any JSON shape.
#[derive(Debug, Clone, PartialEq)]
pub enum ArgValue {
    /// `null`: a small model's way of leaving an optional argument out.
    Null,
    Flag(bool),
    Number(Number),
    Text(String),
    List(Vec<ArgValue>),
    /// An object: wrapped arguments, a line range, a nested path.
    Fields(RawArgs),
}

/// The arguments of one call, keys in the order sent. A key sent twice keeps
/// its first place and its last value, as a JSON object read by `serde_json`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RawArgs(Vec<(String, ArgValue)>);

impl RawArgs {
    /// Each key and its value, in the order sent.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &ArgValue)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// Each key, in the order sent.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(k, _)| k.as_str())
    }

    fn insert(&mut self, key: String, value: ArgValue) {
        match self.0.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => slot.1 = value,
            None => self.0.push((key, value)),
        }
    }
}

impl ArgValue {
    pub fn is_null(&self) -> bool {
        matches!(self, ArgValue::Null)
    }

    pub fn is_flag(&self) -> bool {
        matches!(self, ArgValue::Flag(_))
    }

    /// The string sent, as sent.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            ArgValue::Text(s) => Some(s),
            _ => None,
        }
    }
}

impl<'de> Deserialize<'de> for RawArgs {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(ArgVisitor).and_then(|value| match value {
            ArgValue::Fields(args) => Ok(args),
            _ => Err(de::Error::custom("the arguments are no object")),
        })
    }
}

impl<'de> Deserialize<'de> for ArgValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ArgVisitor)
    }
}

/// Reads any JSON into an [`ArgValue`].
struct ArgVisitor;

impl<'de> Visitor<'de> for ArgVisitor {
    type Value = ArgValue;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<ArgValue, E> {
        Ok(ArgValue::Flag(b))
    }

    fn visit_i64<E>(self, n: i64) -> Result<ArgValue, E> {
        Ok(ArgValue::Number(n.into()))
    }

    fn visit_u64<E>(self, n: u64) -> Result<ArgValue, E> {
        Ok(ArgValue::Number(n.into()))
    }

    /// A float JSON cannot hold (`NaN`, infinity) reads as `null`, as `serde_json::Value` reads it.
    fn visit_f64<E>(self, n: f64) -> Result<ArgValue, E> {
        Ok(Number::from_f64(n).map_or(ArgValue::Null, ArgValue::Number))
    }

    fn visit_str<E>(self, s: &str) -> Result<ArgValue, E> {
        Ok(ArgValue::Text(s.to_string()))
    }

    fn visit_string<E>(self, s: String) -> Result<ArgValue, E> {
        Ok(ArgValue::Text(s))
    }

    fn visit_unit<E>(self) -> Result<ArgValue, E> {
        Ok(ArgValue::Null)
    }

    fn visit_none<E>(self) -> Result<ArgValue, E> {
        Ok(ArgValue::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<ArgValue, D::Error> {
        ArgValue::deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ArgValue, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(64));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(ArgValue::List(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ArgValue, A::Error> {
        let mut args = RawArgs::default();
        while let Some((key, value)) = map.next_entry::<String, ArgValue>()? {
            args.insert(key, value);
        }
        Ok(ArgValue::Fields(args))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn any_json_is_read_in_the_order_sent() {
        let sent = RawArgs::deserialize(
            json!({"q": "x", "n": 5, "f": 1.5, "b": true, "z": null, "l": [1, "a"], "o": {"start": 3}}),
        )
        .unwrap();
        let keys: Vec<&str> = sent.keys().collect();
        assert_eq!(keys, ["q", "n", "f", "b", "z", "l", "o"]);
        let values: Vec<&ArgValue> = sent.iter().map(|(_, v)| v).collect();
        assert_eq!(values[0].as_str(), Some("x"));
        assert_eq!(values[1], &ArgValue::Number(5.into()));
        assert_eq!(values[2], &ArgValue::Number(Number::from_f64(1.5).unwrap()));
        assert!(values[3].is_flag() && values[4].is_null());
        assert_eq!(values[5], &ArgValue::List(vec![ArgValue::Number(1.into()), ArgValue::Text("a".into())]));
        assert!(matches!(values[6], ArgValue::Fields(f) if f.keys().eq(["start"])));
    }

    #[test]
    fn a_key_sent_twice_keeps_its_place_and_its_last_value() {
        let sent: RawArgs = serde_json::from_str(r#"{"a": 1, "b": 2, "a": 3}"#).unwrap();
        let pairs: Vec<(&str, &ArgValue)> = sent.iter().collect();
        assert_eq!(pairs, [("a", &ArgValue::Number(3.into())), ("b", &ArgValue::Number(2.into()))]);
        assert!(serde_json::from_str::<RawArgs>("[1, 2]").is_err());
        assert!(serde_json::from_str::<RawArgs>("\"a\"").is_err());
    }
}
