//! `find_references`: every use of a symbol (calls, method calls, constructor
//! calls, type references, imports), from each file's `references` (one
//! entry per name, kind and `in`, with its lines), through the stored
//! template `find_references`; with `direction: "callees"`, what the
//! symbol's own body uses, through `find_callees`.

use serde::Deserialize;
use vibe_common::document::kinds::ReferenceKind;

use super::answer::{paged, scope_index};
use super::hierarchy::Way;
use crate::answers::{AnswerDirection, Call, Direction, FileResult, Line, ReferencesAnswer, Use, Uses};
use crate::gateway::Gateway;
use crate::normalize::Args;
use crate::search_hits::Hit;
use crate::template_params;
use crate::tool_error::ToolError;

/// The stored templates.
pub use super::hierarchy::CALLERS_TEMPLATE;
pub const CALLEES_TEMPLATE: &str = "find_callees";

/// `direction` as sent: `callers`/`incoming`/`uses`, `callees`/`outgoing`/`calls`.
pub fn direction(raw: Option<&str>) -> Result<Direction, ToolError> {
    match raw.map(|d| d.trim().to_lowercase()).as_deref() {
        None
        | Some("" | "callers" | "caller" | "incoming" | "in" | "uses" | "usages" | "references" | "refs" | "up") => {
            Ok(Direction::Callers)
        }
        Some("callees" | "callee" | "outgoing" | "out" | "calls" | "down") => Ok(Direction::Callees),
        Some(
            "subtypes" | "subtype" | "subclasses" | "subclass" | "implementations" | "implementors" | "implementers"
            | "derived" | "children" | "descendants" | "inheritors",
        ) => Ok(Direction::Subtypes),
        Some(
            "supertypes" | "supertype" | "superclasses" | "superclass" | "parents" | "bases" | "base" | "ancestors"
            | "extends" | "implements",
        ) => Ok(Direction::Supertypes),
        Some(other) => {
            let [callers, callees, subtypes, supertypes] = Direction::ALL.map(Direction::name);
            Err(ToolError::Invalid(format!(
                "direction {other:?}: use {callers:?} (default), {callees:?}, {subtypes:?} or {supertypes:?}"
            )))
        }
    }
}

/// `kind` as sent (`call`, `calls`, `type`, `types`, `import`, `imports`, `all`).
pub fn kinds(raw: Option<&str>) -> Result<Vec<ReferenceKind>, ToolError> {
    let Some(k) = raw.map(|k| k.trim().to_lowercase()).filter(|k| !k.is_empty() && k != "all" && k != "*") else {
        return Ok(ReferenceKind::ALL.to_vec());
    };
    let k = k.trim_end_matches('s');
    let k = match k {
        "invocation" | "method_call" | "function_call" => "call",
        "type_reference" | "class" => "type",
        "require" | "use" | "include" => "import",
        "value" | "constant" | "variable" | "access" => "read",
        other => other,
    };
    ReferenceKind::parse(k).map(|x| vec![x]).ok_or_else(|| {
        let raw = raw.unwrap_or_default();
        ToolError::Invalid(format!("kind {raw:?}: use call, type, import or read (or leave it out for all)"))
    })
}

pub async fn find(gw: &Gateway, args: &Args) -> Result<ReferencesAnswer, ToolError> {
    let (owner, name) = template_params::split_qualified(&args.query);
    if name.is_empty() {
        return Err(ToolError::Invalid("`query` is required: the symbol's name, or Owner.name".into()));
    }
    let kinds = kinds(args.kind.as_deref())?;
    let direction = direction(args.direction.as_deref())?;
    let scope = gw.resolve(args.target.as_deref()).await?;
    let index = scope_index(gw, &scope);
    let way = match direction {
        Direction::Subtypes => Some(Way::Subtypes),
        Direction::Supertypes => Some(Way::Supertypes),
        _ => None,
    };
    if let Some(way) = way {
        let mut answer = super::hierarchy::find(gw, &index, way, (owner, name), args).await?;
        if let Some(note) = scope.note() {
            answer.note = Some(match answer.note {
                Some(found) => format!("{note}; {found}"),
                None => note,
            });
        }
        return Ok(answer);
    }
    // The uses shown per file are those fetched per file.
    let (shown, response) = match direction {
        Direction::Callees => {
            let p = template_params::callees(&args.query, &kinds, args.limit, args.offset);
            (p.inner_limit, gw.backend().run(CALLEES_TEMPLATE, &index, &p).await?)
        }
        _ => {
            let p = template_params::references(name, owner, &kinds, args.limit, args.offset);
            (p.inner_limit, gw.backend().run(CALLERS_TEMPLATE, &index, &p).await?)
        }
    };
    let shown = shown as usize;
    let results = response.hits().iter().map(|h| file_result(h, direction, &args.query, shown)).collect();
    let mut answer: ReferencesAnswer = paged(&args.query, results, &response, args);
    super::excerpt::use_lines(gw, &mut answer.results).await;
    if direction == Direction::Callees {
        answer.more.direction = Some(AnswerDirection::Callees);
    }
    answer.note = scope.note();
    Ok(answer)
}

/// A file with its uses, by line: `{line, kind, in}` (callers) or `{name,
/// kind, line}` (callees, with `in` when it is a nested definition). Each
/// inner hit is one entry of the file's `references` (a name, kind and
/// `in` with every line it is used on); the first `shown` uses are kept,
/// and `more_references` counts the rest: exactly when every entry came
/// back, else at least (each entry left out holds a use or more). Files
/// still rank by their uses (the template sums the entries' `uses`).
fn file_result(hit: &Hit, direction: Direction, query: &str, shown: usize) -> FileResult<Uses> {
    let entries = hit.inner("references");
    let mut uses: Vec<Call> = entries.iter().flat_map(|e| uses_of(e, direction, query)).collect();
    uses.sort_by_key(|u| u.at.line.0);
    let entries_left_out = hit.inner_total("references").unwrap_or(0).saturating_sub(entries.len() as u64);
    let more = uses.len().saturating_sub(shown) as u64 + entries_left_out;
    uses.truncate(shown);
    let more_references = (more > 0).then_some(more);
    let found = match direction {
        Direction::Callees => Uses { calls: Some(uses), more_references, ..Uses::default() },
        _ => Uses { references: Some(uses.into_iter().map(|u| u.at).collect()), more_references, ..Uses::default() },
    };
    super::stale_marks::file_result(&super::answer::indexed_file(hit), found)
}

/// What a use's entry holds (its doc values `references.name`, `.kind`, `.in`).
#[derive(Deserialize, Default)]
#[serde(default)]
struct ReferenceEntry {
    name: String,
    kind: String,
    #[serde(rename = "in")]
    within: Option<String>,
}

/// The uses of one `references` entry, one per line, each with the name
/// used (which only callees show).
fn uses_of(entry: &Hit, direction: Direction, query: &str) -> Vec<Call> {
    let r: ReferenceEntry = entry.read().unwrap_or_default();
    let Some(kind) = ReferenceKind::parse(&r.kind) else { return Vec::new() };
    let within = r.within.as_deref().filter(|i| !i.is_empty());
    let within = match direction {
        Direction::Callees => within.filter(|i| !i.eq_ignore_ascii_case(query)),
        _ => within,
    };
    entry
        .numbers("references.line")
        .into_iter()
        .map(|line| Call {
            name: r.name.clone(),
            at: Use { line: Line(line), kind, within: within.map(str::to_string), text: None },
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A `references` entry of a hit, as OpenSearch returns it.
    fn entry(name: &str, lines: impl serde::Serialize, within: &str) -> impl serde::Serialize {
        json!({ "fields": { "references.name": [name], "references.kind": ["call"],
            "references.line": lines, "references.in": [within] } })
    }

    #[test]
    fn each_entrys_lines_are_uses_by_line_and_the_rest_are_counted() {
        let hit: Hit = serde_json::from_value(
            json!({ "fields": { "root": ["/p"], "path": ["a.py"] }, "inner_hits": { "references": { "hits": {
            "total": { "value": 3 },
            "hits": [entry("f", json!([3, 9, 12]), "A.g"), entry("f", json!(["5"]), "A.h")] } } } }),
        )
        .unwrap();
        let r = serde_json::to_value(file_result(&hit, Direction::Callers, "f", 3)).unwrap();
        let lines: Vec<u64> = r["references"].as_array().unwrap().iter().map(|u| u["line"].as_u64().unwrap()).collect();
        assert_eq!(lines, [3, 5, 9]);
        assert_eq!(r["references"][1]["in"], json!("A.h"));
        // Line 12 was cut, and one entry (one use or more) never came back.
        assert_eq!(r["more_references"], json!(2));
        let all = serde_json::to_value(file_result(&hit, Direction::Callees, "A.g", 10)).unwrap();
        assert_eq!(all["calls"].as_array().unwrap().len(), 4);
        assert_eq!(all["calls"][0], json!({ "name": "f", "line": 3, "kind": "call" }));
        assert_eq!(all["more_references"], json!(1));
    }

    #[test]
    fn kinds_and_directions_are_read_leniently() {
        assert_eq!(kinds(None).unwrap(), ReferenceKind::ALL.to_vec());
        assert_eq!(kinds(Some("Calls")).unwrap(), vec![ReferenceKind::Call]);
        assert_eq!(kinds(Some("imports")).unwrap(), vec![ReferenceKind::Import]);
        assert_eq!(kinds(Some("all")).unwrap(), ReferenceKind::ALL.to_vec());
        assert_eq!(kinds(Some("reads")).unwrap(), vec![ReferenceKind::Read]);
        assert_eq!(kinds(Some("constant")).unwrap(), vec![ReferenceKind::Read]);
        assert!(kinds(Some("banana")).unwrap_err().to_string().contains("call, type, import or read"));
        assert_eq!(direction(None).unwrap(), Direction::Callers);
        assert_eq!(direction(Some("outgoing")).unwrap(), Direction::Callees);
        assert_eq!(direction(Some("incoming")).unwrap(), Direction::Callers);
        assert_eq!(direction(Some("implementations")).unwrap(), Direction::Subtypes);
        assert_eq!(direction(Some("Superclasses")).unwrap(), Direction::Supertypes);
        assert!(direction(Some("sideways")).is_err());
    }
}
