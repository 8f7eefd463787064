//! Path globs as ripgrep's `-g` reads them (a glob without `/` matches at
//! any depth), as a Lucene regexp over a file's path relative to its
//! project: `search_code_text` and `show_tree` filter by them.

use vibe_common::files::languages::resolve;

// ---------------------------------------------------------------------------
// Path globs -> Lucene regexp over the relative path
// ---------------------------------------------------------------------------

/// A glob as a Lucene regexp over a file's path relative to its project.
///
/// * `*` and `?` stay within one directory; `**` spans directories
///   (`src/**/*.py`, `**/test_*.py`, `docs/**`); `[abc]`, `[!a-z]`,
///   `{rs,toml}` as usual. Case-sensitive.
/// * Without `/` the glob matches a file or directory name at any depth
///   (`*.py`, `Makefile`, `*range-parser*`), as in `.gitignore`; with `/`
///   it matches from the project root (a leading `/` is allowed:
///   `/src/*.rs`).
/// * A glob that can name a directory matches everything under it: one
///   without `/`, one without wildcards (`src/utils`), one ending in `/`.
/// * A leading `!` excludes what the rest matches, as ripgrep's
///   `-g '!vendor/*'` (Lucene's complement, `~(…)`).
pub fn glob_regexp(glob: &str) -> Result<String, String> {
    let glob = glob.trim();
    if let Some(excluded) = glob.strip_prefix('!') {
        return Ok(format!("~({})", glob_regexp(excluded)?));
    }
    let (anchored, body) = match glob.strip_prefix('/') {
        Some(rest) => (true, rest),
        None => (glob.trim_end_matches('/').contains('/'), glob),
    };
    let directory = body.ends_with('/') || !body.contains(['*', '?', '[', '{']) || !anchored;
    let body = body.trim_end_matches('/');
    if body.is_empty() {
        return Err("empty glob".into());
    }
    let mut out = String::new();
    if !anchored {
        out.push_str("(.*/)?");
    }
    let chars: Vec<char> = body.chars().collect();
    let mut i = 0;
    glob_part(&chars, &mut i, &mut out, 0)?;
    if i < chars.len() {
        return Err(format!("unexpected {:?}", chars[i]));
    }
    if directory {
        out.push_str("(/.*)?");
    }
    Ok(out)
}

/// A glob that reaches deeper than `glob`: each `*` segment as `**`
/// (`deps/ssri/*` -> `deps/ssri/**`, `*/Pool.java` -> `**/Pool.java`), or
/// an anchored glob under any directory (`lib/x.js` -> `**/lib/x.js`);
/// `None` when there is nothing to widen.
pub fn wider_glob(glob: &str) -> Option<String> {
    let glob = glob.trim().trim_start_matches('/');
    let segments: Vec<&str> = glob.split('/').map(|s| if s == "*" { "**" } else { s }).collect();
    let wider = segments.join("/");
    if wider != glob {
        return Some(wider);
    }
    (glob.contains('/') && !glob.starts_with("**/")).then(|| format!("**/{glob}"))
}

/// Parses from `*i` to the end, or (inside braces, `depth` > 0) to the `,`
/// or `}` that ends the alternative.
fn glob_part(chars: &[char], i: &mut usize, out: &mut String, depth: usize) -> Result<(), String> {
    while *i < chars.len() {
        let c = chars[*i];
        match c {
            ',' | '}' if depth > 0 => return Ok(()),
            '*' => {
                stars(chars, i, out);
                continue;
            }
            '?' => out.push_str("[^/]"),
            '[' => char_class(chars, i, out)?,
            '{' => alternatives(chars, i, out, depth)?,
            '\\' => {
                *i += 1;
                let Some(&e) = chars.get(*i) else { return Err("trailing \\".into()) };
                literal_char(e, out);
            }
            c => literal_char(c, out),
        }
        *i += 1;
    }
    if depth > 0 {
        return Err("unclosed {".into());
    }
    Ok(())
}

/// The `*`s at `*i` (left after them): `**` as a whole segment spans
/// directories, otherwise they stay within one.
fn stars(chars: &[char], i: &mut usize, out: &mut String) {
    let start = *i;
    while *i < chars.len() && chars[*i] == '*' {
        *i += 1;
    }
    let stars = *i - start;
    let at_segment_start = start == 0 || chars[start - 1] == '/';
    let at_segment_end = *i == chars.len() || chars[*i] == '/';
    if stars >= 2 && at_segment_start && at_segment_end {
        if *i < chars.len() {
            // `**/`: any number of directories, none included.
            *i += 1;
            out.push_str("(.*/)?");
        } else {
            out.push_str(".*");
        }
    } else {
        out.push_str("[^/]*");
    }
}

/// The character class opened at `*i` (`[abc]`, `[!a-z]`), up to its `]`.
fn char_class(chars: &[char], i: &mut usize, out: &mut String) -> Result<(), String> {
    *i += 1;
    let negate = matches!(chars.get(*i), Some('!' | '^'));
    if negate {
        *i += 1;
    }
    out.push('[');
    if negate {
        out.push_str("^/");
    }
    let mut first = true;
    loop {
        let Some(&c) = chars.get(*i) else { return Err("unclosed [".into()) };
        if c == ']' && !first {
            break;
        }
        first = false;
        if c == '/' && !negate {
            return Err("a character class cannot hold /".into());
        }
        literal_char(c, out);
        if chars.get(*i + 1) == Some(&'-') && chars.get(*i + 2).is_some_and(|&e| e != ']') {
            let e = chars[*i + 2];
            if e < c {
                return Err(format!("bad range {c}-{e}"));
            }
            out.push('-');
            literal_char(e, out);
            *i += 2;
        }
        *i += 1;
    }
    out.push(']');
    Ok(())
}

/// The alternatives opened at `*i` (`{rs,toml}`), up to their `}`.
fn alternatives(chars: &[char], i: &mut usize, out: &mut String, depth: usize) -> Result<(), String> {
    *i += 1;
    out.push('(');
    loop {
        glob_part(chars, i, out, depth + 1)?;
        match chars.get(*i) {
            Some(',') => out.push('|'),
            Some('}') => break,
            _ => return Err("unclosed {".into()),
        }
        *i += 1;
    }
    out.push(')');
    Ok(())
}

/// The indexed language name (lower case; the template matches it
/// case-insensitively) for what a user calls a language: its name, id, a file
/// extension or an alias (`vibe_common::files::languages`, the scanner's table). An
/// unknown word is passed on as it is, lower case.
pub fn language_name(language: &str) -> String {
    match resolve(language) {
        Some(l) => l.name.to_lowercase(),
        None => language.trim().to_lowercase(),
    }
}

/// One character of a Lucene regexp, in a class or not (punctuation and
/// control characters escaped).
fn literal_char(c: char, out: &mut String) {
    if !plain(c) {
        out.push('\\');
    }
    out.push(c);
}

/// Characters that mean themselves in a Lucene regexp (the others are escaped).
fn plain(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '/') || !c.is_ascii()
}

#[cfg(test)]
mod tests {
    use super::language_name;
    use vibe_common::files::languages::LANGUAGE_NAMES;

    /// Every extension the scanner reads a language from, and each name, id
    /// and alias, filters on the name the scanner stores for that language.
    #[test]
    fn every_scanned_extension_filters_on_its_language() {
        for l in LANGUAGE_NAMES {
            let stored = l.name.to_lowercase();
            let words = [l.name, l.id].into_iter().chain(l.extensions.iter().copied()).chain(l.aliases.iter().copied());
            for word in words {
                assert_eq!(language_name(word), stored, "{word}");
                assert_eq!(language_name(&word.to_uppercase()), stored, "{word}");
            }
        }
        for (word, stored) in [("pyi", "python"), ("mts", "typescript"), ("cts", "typescript"), ("cjs", "javascript")] {
            assert_eq!(language_name(word), stored);
        }
        assert_eq!(language_name(" Cobol "), "cobol");
    }
}
