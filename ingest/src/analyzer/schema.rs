//! The JSON schemas of the answers the prompts ask for. Sent with each
//! request (Ollama `format`, OpenAI `response_format`), a server that
//! enforces them (llama.cpp turns a schema into a grammar) can only answer
//! valid JSON of this shape. The lengths are bounded: a small model held to
//! the shape alone may repeat one phrase until its token limit.

use serde_json::{json, Value};

use super::repair::MAX_LLM_TAGS;

/// Most characters of a file description.
pub const MAX_DESCRIPTION_CHARS: usize = 300;
/// Most characters of one tag.
pub const MAX_TAG_CHARS: usize = 40;
/// Most tags asked for (the prompt asks for 3 to 8).
const MAX_TAGS: usize = if MAX_LLM_TAGS < 8 { MAX_LLM_TAGS } else { 8 };
/// Most characters of a project summary.
pub const MAX_SUMMARY_CHARS: usize = 600;

/// `{"files": [{"path", "description", "tags"}]}` with one entry per path
/// sent, each path one of `paths`.
pub fn files_answer(paths: &[&str]) -> Value {
    json!({
        "type": "object",
        "properties": {
            "files": {
                "type": "array",
                "minItems": paths.len(),
                "maxItems": paths.len(),
                "items": {
                    "type": "object",
                    "properties": {
                        "path": { "type": "string", "enum": paths },
                        "description": { "type": "string", "minLength": 10, "maxLength": MAX_DESCRIPTION_CHARS },
                        "tags": {
                            "type": "array",
                            "minItems": 1,
                            "maxItems": MAX_TAGS,
                            "items": { "type": "string", "minLength": 2, "maxLength": MAX_TAG_CHARS },
                        },
                    },
                    "required": ["path", "description", "tags"],
                    "additionalProperties": false,
                },
            },
        },
        "required": ["files"],
        "additionalProperties": false,
    })
}

/// `{"summary": "..."}`.
pub fn summary_answer() -> Value {
    json!({
        "type": "object",
        "properties": {
            "summary": { "type": "string", "minLength": 20, "maxLength": MAX_SUMMARY_CHARS },
        },
        "required": ["summary"],
        "additionalProperties": false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyzer::repair::check_answer;

    #[test]
    fn the_files_schema_names_each_path_once_and_bounds_lengths() {
        let schema = files_answer(&["src/a.rs", "src/b.rs"]);
        let files = &schema["properties"]["files"];
        assert_eq!((files["minItems"].as_u64(), files["maxItems"].as_u64()), (Some(2), Some(2)));
        assert_eq!(files["items"]["properties"]["path"]["enum"], json!(["src/a.rs", "src/b.rs"]));
        assert_eq!(files["items"]["properties"]["description"]["maxLength"], MAX_DESCRIPTION_CHARS);
        assert_eq!(files["items"]["properties"]["tags"]["maxItems"], 8);
        assert_eq!(summary_answer()["properties"]["summary"]["maxLength"], MAX_SUMMARY_CHARS);
    }

    #[test]
    fn an_answer_of_the_schema_passes_the_check_unrepaired() {
        let answer = r#"{"files":[{"path":"src/a.rs","description":"Adds numbers together.","tags":["math"]}]}"#;
        let checked = check_answer(answer, &["src/a.rs"]).unwrap();
        assert!(checked.is_complete() && !checked.repaired);
        let fenced = format!("```json\n{answer}\n```");
        assert!(check_answer(&fenced, &["src/a.rs"]).unwrap().repaired);
    }
}
