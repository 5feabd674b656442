//! Calls a script makes into another module (`combat::weapon_skill(fight, who)` in
//! tactics.rhai). The engine gives scripts no modules: each script is compiled on its
//! own and only the engine calls into it, so such a call would stop a fight with
//! "Module not found". `check` refuses it instead, found by reading the text (the
//! script has already compiled, so its strings and comments are well formed).

use super::ScriptProblem;
use crate::source::{SourceFile, Span};

/// Every `module::function(` of a compiled script, as a problem; `modules` are the
/// ruleset's scripts, for the help.
pub fn module_calls(file: &SourceFile, modules: &[&str]) -> Vec<ScriptProblem> {
    let text = file.text();
    let bytes = text.as_bytes();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let blank = |mut j: usize| {
        while j < bytes.len() && bytes[j].is_ascii_whitespace() {
            j += 1;
        }
        j
    };
    let mut problems = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let rest = &bytes[i..];
        if rest.starts_with(b"//") {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
        } else if rest.starts_with(b"/*") {
            // rhai's block comments nest.
            let mut depth = 0usize;
            while i < bytes.len() {
                if bytes[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if bytes[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if matches!(bytes[i], b'"' | b'`' | b'\'') {
            let quote = bytes[i];
            i += 1;
            while i < bytes.len() && bytes[i] != quote {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
        } else if bytes[i].is_ascii_alphabetic() || bytes[i] == b'_' {
            let start = i;
            while i < bytes.len() && ident(bytes[i]) {
                i += 1;
            }
            let module = &text[start..i];
            let colons = blank(i);
            if !bytes[colons..].starts_with(b"::") {
                continue;
            }
            let name_start = blank(colons + 2);
            let mut end = name_start;
            while end < bytes.len() && ident(bytes[end]) {
                end += 1;
            }
            let paren = blank(end);
            if end > name_start && bytes.get(paren) == Some(&b'(') {
                let function = &text[name_start..end];
                problems.push(ScriptProblem::ModuleCall {
                    src: file.named(),
                    span: Span::new(start, end).into(),
                    file: file.name().to_string(),
                    module: module.to_string(),
                    function: function.to_string(),
                    help: if modules.contains(&module) {
                        format!(
                            "the scripts of a ruleset cannot call one another (the engine calls each one's hooks): copy `{function}` into this script"
                        )
                    } else {
                        format!(
                            "there is no module `{module}`: a script calls its own functions and the engine's (rulesets/README.md)"
                        )
                    },
                });
                i = end;
            }
        } else {
            i += 1;
        }
    }
    problems
}
