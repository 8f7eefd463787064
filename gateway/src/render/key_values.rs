//! Fields as `key: value` lines, for [`super`]: a page's, a result's or a
//! file's other fields ([`Field`], named by the type that has them), and
//! the answers about the whole index (`show_projects`, `show_stats`,
//! `show_tree`'s tree, `admin_sync`, the budget guard's note), each of
//! which names its fields ([`KeyValues`]).

use std::fmt::Write;

use crate::answers::{
    LanguageSize, OverBudget, ProjectShown, ProjectsAnswer, RunState, Sizes, StatsAnswer, SyncAnswer, SyncResult,
    SyncState, TreeAnswer,
};

/// A field's value as the text shows it.
pub(super) enum Field {
    Number(u64),
    Text(String),
    /// Scalars, joined with `, `.
    List(Vec<String>),
    /// Fields one level deeper.
    Object(Vec<(&'static str, Field)>),
    /// Entries of a list, one per line (`- key: value, key: value`).
    Items(Vec<String>),
}

impl Field {
    /// A count, when there is one.
    pub(super) fn count(key: &'static str, n: Option<u64>) -> Option<(&'static str, Field)> {
        n.map(|n| (key, Field::Number(n)))
    }

    /// A text, when there is one.
    fn text(key: &'static str, text: Option<&str>) -> Option<(&'static str, Field)> {
        text.map(|t| (key, Field::Text(t.to_string())))
    }

    /// A flag, written only when set.
    fn flag(key: &'static str, set: bool) -> Option<(&'static str, Field)> {
        set.then(|| (key, Field::Text("true".into())))
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
            // A list without entries reads as an empty value.
            Field::Items(items) if items.is_empty() => writeln!(out, "{indent}{key}: "),
            Field::Items(items) => {
                let _ = writeln!(out, "{indent}{key}:");
                for item in items {
                    let _ = writeln!(out, "{indent}- {item}");
                }
                Ok(())
            }
        };
    }
}

/// The fields that are there, in order.
fn present<const N: usize>(fields: [Option<(&'static str, Field)>; N]) -> Vec<(&'static str, Field)> {
    fields.into_iter().flatten().collect()
}

/// An answer about the whole index, written as its fields.
pub(super) trait KeyValues {
    fn fields(&self) -> Vec<(&'static str, Field)>;
}

/// Fields on one line: `key: value, key: value` (an object's in braces).
fn inline(fields: &[(&'static str, Field)]) -> String {
    let value = |field: &Field| match field {
        Field::Number(n) => n.to_string(),
        Field::Text(s) => s.clone(),
        Field::List(items) | Field::Items(items) => items.join(", "),
        Field::Object(inner) => format!("{{{}}}", inline(inner)),
    };
    fields.iter().map(|(key, field)| format!("{key}: {}", value(field))).collect::<Vec<_>>().join(", ")
}

impl KeyValues for SyncAnswer {
    fn fields(&self) -> Vec<(&'static str, Field)> {
        let result = match self.result {
            SyncResult::Started => "Started",
            SyncResult::AlreadyRunning => "AlreadyRunning",
        };
        present([
            Some(("result", Field::Text(result.into()))),
            Some(("message", Field::Text(self.message.clone()))),
            Field::count("running_secs", self.running_secs),
            Field::text("progress", self.progress.as_deref()),
        ])
    }
}

impl KeyValues for ProjectsAnswer {
    fn fields(&self) -> Vec<(&'static str, Field)> {
        present([
            Some(("projects", Field::Items(self.projects.iter().map(|p| inline(&p.fields())).collect()))),
            Some(("total", Field::Number(self.total))),
            Field::flag("truncated", self.truncated),
            self.sync.as_ref().map(|s| ("sync", Field::Object(s.fields()))),
            Field::count("next_offset", self.next_offset),
            Field::text("note", self.note.as_deref()),
        ])
    }
}

impl KeyValues for ProjectShown {
    fn fields(&self) -> Vec<(&'static str, Field)> {
        present([
            Some(("path", Field::Text(self.path.clone()))),
            Some(("name", Field::Text(self.name.clone()))),
            Field::text("summary", self.summary.as_deref()),
            Field::text("indexed_at", self.indexed_at.as_deref()),
            (!self.owners.is_empty()).then(|| ("owners", Field::List(self.owners.clone()))),
            Field::text("last_sync", self.last_sync.as_deref()),
        ])
    }
}

impl KeyValues for SyncState {
    fn fields(&self) -> Vec<(&'static str, Field)> {
        let state = match self.state {
            RunState::Running => "running",
            RunState::Ok => "ok",
            RunState::Failed => "failed",
        };
        present([
            Some(("state", Field::Text(state.into()))),
            Field::count("running_secs", self.running_secs),
            Field::text("progress", self.progress.as_deref()),
            Field::text("outcome", self.outcome.as_ref().and_then(Option::as_deref)),
            Field::text("finished_at", self.finished_at.as_deref()),
        ])
    }
}

impl KeyValues for StatsAnswer {
    fn fields(&self) -> Vec<(&'static str, Field)> {
        let language = |l: &LanguageSize| {
            let mut fields = vec![("language", Field::Text(l.language.clone()))];
            fields.extend(sizes(&l.sizes));
            inline(&fields)
        };
        let mut total = sizes(&self.total.sizes);
        total.extend(Field::count("projects", self.total.projects));
        present([
            Field::text("target", self.target.as_deref()),
            Some(("languages", Field::Items(self.languages.iter().map(language).collect()))),
            Some(("total", Field::Object(total))),
            Field::text("note", self.note.as_deref()),
            Field::count("more_languages", self.more_languages),
            Field::flag("truncated", self.truncated == Some(true)),
        ])
    }
}

fn sizes(s: &Sizes) -> Vec<(&'static str, Field)> {
    vec![
        ("files", Field::Number(s.files)),
        ("lines", Field::Number(s.lines)),
        ("ast_objects", Field::Number(s.ast_objects)),
        ("size_human", Field::Text(s.size_human.clone())),
    ]
}

impl KeyValues for TreeAnswer {
    /// The tree (the ranked map is a page of results).
    fn fields(&self) -> Vec<(&'static str, Field)> {
        present([
            Field::text("target", self.target.as_deref()),
            Field::text("path", self.path.as_deref()),
            Field::count("total_files", self.total_files),
            Field::count("total_dirs", self.total_dirs),
            Field::text("tree", self.tree.as_deref()),
            Field::count("depth", self.depth),
            Field::count("total", self.total),
            Field::flag("truncated", self.truncated),
            Field::text("note", self.note.as_deref()),
        ])
    }
}

impl KeyValues for OverBudget {
    fn fields(&self) -> Vec<(&'static str, Field)> {
        [Field::flag("truncated", self.truncated), Field::text("note", Some(&self.note))]
            .into_iter()
            .flatten()
            .collect()
    }
}
