//! Fields as `key: value` lines, for [`super`]: a page's, a result's or a
//! file's other fields ([`Field`], named by the type that has them), and
//! the answers about the whole index (`show_projects`, `show_stats`,
//! `show_tree`'s tree, `admin_sync`), written field by field as their JSON
//! gives them ([`any_fields`]).

use std::fmt::Write;

use serde_json::{Map, Value};

/// A field's value as the text shows it.
pub(super) enum Field {
    Number(u64),
    Text(String),
    /// Scalars, joined with `, `.
    List(Vec<String>),
    /// Fields one level deeper.
    Object(Vec<(&'static str, Field)>),
}

impl Field {
    /// A count, when there is one.
    pub(super) fn count(key: &'static str, n: Option<u64>) -> Option<(&'static str, Field)> {
        n.map(|n| (key, Field::Number(n)))
    }
}

/// Each field as a line (`key: value`; text of several lines under its key;
/// an object's fields one level deeper).
pub(super) fn write_fields(out: &mut String, indent: &str, fields: &[(&'static str, Field)]) {
    for (key, field) in fields {
        let _ = match field {
            Field::Number(n) => writeln!(out, "{indent}{key}: {n}"),
            Field::Text(s) if s.contains('\n') => writeln!(out, "{indent}{key}:\n{s}"),
            Field::Text(s) => writeln!(out, "{indent}{key}: {s}"),
            Field::List(items) => writeln!(out, "{indent}{key}: {}", items.join(", ")),
            Field::Object(inner) => {
                let _ = writeln!(out, "{indent}{key}:");
                write_fields(out, &format!("{indent}  "), inner);
                Ok(())
            }
        };
    }
}

/// Every field of an answer as `key: value` lines, in the order its JSON
/// gives them (lists of scalars joined, objects and lists of objects one per
/// line); nothing for `null`, `false` or a private `_` field.
pub(super) fn any_fields(out: &mut String, answer: &impl serde::Serialize) {
    match serde_json::to_value(answer) {
        Ok(Value::Object(top)) => object(out, &top, ""),
        Ok(other) => out.push_str(&scalar(&other)),
        Err(_) => {}
    }
}

fn object(out: &mut String, obj: &Map<String, Value>, indent: &str) {
    for (k, v) in obj {
        if v.is_null() || v == &Value::Bool(false) || k == "stale" || k == "deleted" || k.starts_with('_') {
            continue;
        }
        match v {
            Value::Object(inner) => {
                let _ = writeln!(out, "{indent}{k}:");
                object(out, inner, &format!("{indent}  "));
            }
            Value::Array(items) if items.iter().any(Value::is_object) => {
                let _ = writeln!(out, "{indent}{k}:");
                for item in items {
                    let line = match item.as_object() {
                        Some(o) => inline(o),
                        None => scalar(item),
                    };
                    let _ = writeln!(out, "{indent}- {line}");
                }
            }
            Value::String(s) if s.contains('\n') => {
                let _ = writeln!(out, "{indent}{k}:\n{s}");
            }
            _ => {
                let _ = writeln!(out, "{indent}{k}: {}", scalar(v));
            }
        }
    }
}

/// An object on one line: `key: value, key: value`.
fn inline(o: &Map<String, Value>) -> String {
    let parts: Vec<String> = o
        .iter()
        .filter(|(k, v)| !v.is_null() && !k.starts_with('_'))
        .map(|(k, v)| match v {
            Value::Object(inner) => format!("{k}: {{{}}}", inline(inner)),
            _ => format!("{k}: {}", scalar(v)),
        })
        .collect();
    parts.join(", ")
}

/// A value as text: strings bare, lists joined, everything else as JSON.
fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(items) => items.iter().map(scalar).collect::<Vec<_>>().join(", "),
        other => other.to_string(),
    }
}
