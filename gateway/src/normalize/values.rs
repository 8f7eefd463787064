//! Argument values read leniently: numbers as strings, `"all"` limits,
//! booleans as words, `/`-separated paths, wrapped arguments.

use super::raw_args::{ArgValue, RawArgs};

use super::spelling::normalize_name;
use crate::registry::{DEFAULT_LIMIT, MAX_LIMIT, MAX_OFFSET};

/// Keys under which some clients wrap the real arguments once more.
pub(super) const WRAPPER_KEYS: &[&str] = &["arguments", "args", "params", "parameters", "input", "kwargs"];

/// The arguments inside a lone wrapper key, if that is what was sent.
pub(super) fn unwrap_once(raw: &RawArgs) -> Option<RawArgs> {
    let mut present = raw.iter().filter(|(_, v)| !v.is_null());
    let (key, value) = present.next()?;
    if present.next().is_some() || !WRAPPER_KEYS.contains(&normalize_name(key).as_str()) {
        return None;
    }
    object_in(value)
}

/// The arguments a value holds: an object, or a JSON string of one (as some
/// clients send them).
pub(super) fn object_in(value: &ArgValue) -> Option<RawArgs> {
    match value {
        ArgValue::Fields(inner) => Some(inner.clone()),
        ArgValue::Text(s) => serde_json::from_str(s).ok(),
        _ => None,
    }
}

/// Targets that mean "every project".
pub(super) fn is_all_target(t: &str) -> bool {
    matches!(
        t.trim().to_lowercase().as_str(),
        "" | "*" | "all" | "any" | "null" | "none" | "everything" | "all projects" | "all_projects" | "все" | "全部"
    )
}

/// A target that asks for every project by name; an empty or null one
/// (small models fill optional parameters with them) asks for nothing.
pub(super) fn names_every_project(t: &str) -> bool {
    is_all_target(t) && !matches!(t.trim().to_lowercase().as_str(), "" | "null" | "none")
}

pub(super) fn text_of(v: &ArgValue) -> String {
    match v {
        ArgValue::Text(s) => s.trim().to_string(),
        ArgValue::Number(n) => n.to_string(),
        ArgValue::Flag(b) => b.to_string(),
        ArgValue::List(items) => items.iter().map(text_of).filter(|s| !s.is_empty()).collect::<Vec<_>>().join(" "),
        ArgValue::Null | ArgValue::Fields(_) => String::new(),
    }
}

/// `limit`: numbers or numeric strings clamped to 1..=[`MAX_LIMIT`],
/// `"all"` → [`MAX_LIMIT`], anything else → [`DEFAULT_LIMIT`].
pub fn limit_of(v: &ArgValue) -> u32 {
    let n: Option<f64> = match v {
        ArgValue::Number(n) => n.as_f64(),
        ArgValue::Text(s) => {
            let s = s.trim().to_ascii_lowercase();
            if matches!(s.as_str(), "all" | "max" | "*" | "every" | "все" | "全部") {
                return MAX_LIMIT;
            }
            s.parse::<f64>().ok()
        }
        _ => None,
    };
    match n {
        Some(n) if n.is_finite() && n >= 1.0 => (n.floor() as u64).min(MAX_LIMIT as u64) as u32,
        _ => DEFAULT_LIMIT,
    }
}

/// A finite number sent as a number or a string.
pub(super) fn number_of(v: &ArgValue) -> Option<f64> {
    let n = match v {
        ArgValue::Number(n) => n.as_f64()?,
        ArgValue::Text(s) => s.trim().parse::<f64>().ok()?,
        _ => return None,
    };
    n.is_finite().then_some(n)
}

/// A boolean sent as a boolean, a number or a string (`"yes"`, `"false"`, `1`).
pub(super) fn bool_of(v: &ArgValue) -> Option<bool> {
    match v {
        ArgValue::Flag(b) => Some(*b),
        ArgValue::Number(n) => n.as_f64().map(|n| n != 0.0),
        ArgValue::Text(s) => match s.trim().to_ascii_lowercase().as_str() {
            "true" | "yes" | "y" | "1" | "on" => Some(true),
            "false" | "no" | "n" | "0" | "off" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

pub(super) fn offset_of(v: &ArgValue) -> Option<u32> {
    number_of(v).filter(|n| *n >= 0.0).map(|n| n.floor().min(MAX_OFFSET as f64) as u32)
}

/// An offset into a list held in memory (an outline, the projects): no
/// search window caps it.
pub(super) fn list_offset_of(v: &ArgValue) -> Option<u32> {
    number_of(v).filter(|n| *n >= 0.0).map(|n| n.floor().min(u32::MAX as f64) as u32)
}

pub(super) fn line_of(v: &ArgValue) -> Option<u64> {
    number_of(v).filter(|n| *n >= 1.0).map(|n| n.floor().min(u32::MAX as f64) as u64)
}

/// `/`-separated, no `./` or leading `/` duplication, no empty segments.
/// An absolute path keeps one leading `/` (it may name a project root).
pub fn normalize_path(p: &str) -> String {
    let p = p.trim().replace('\\', "/");
    let absolute = p.starts_with('/');
    let parts: Vec<&str> = p.split('/').filter(|s| !s.is_empty() && *s != ".").collect();
    let joined = parts.join("/");
    if absolute {
        format!("/{joined}")
    } else {
        joined
    }
}
