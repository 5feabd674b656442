//! rhai errors as diagnostics with the script's file, line and span.

use std::sync::Arc;

use miette::{Diagnostic, NamedSource, SourceSpan};
use rhai::{EvalAltResult, ParseErrorType, Position};
use thiserror::Error;

use super::{Limits, is_runaway, span_of};
use crate::source::{SourceFile, Span};

#[derive(Debug, Error, Diagnostic)]
pub enum ScriptProblem {
    /// `fn drop_weapon(ctx { }`: rhai cannot parse the script.
    #[error("rhai syntax error in {file}: {message}")]
    #[diagnostic(
        code(affray::script::syntax),
        help("see the rhai book (https://rhai.rs/book) for the syntax")
    )]
    Syntax {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("{message}")]
        span: SourceSpan,
        file: String,
        message: String,
    },

    /// `loop {}` at the top of a script.
    #[error(
        "{file} ran more than {} operations during {during}: does it loop forever?",
        Limits::OPERATIONS
    )]
    #[diagnostic(
        code(affray::script::runaway),
        help(
            "scripts run under a limit of operations, call depth and sizes; look for a loop that never ends or a function that calls itself"
        )
    )]
    Runaway {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("stopped here")]
        span: SourceSpan,
        file: String,
        during: String,
    },

    /// `let x = 1 / 0;` at the top of a script.
    #[error("{file} failed during {during}: {message}")]
    #[diagnostic(code(affray::script::runtime))]
    Runtime {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("{message}")]
        span: SourceSpan,
        file: String,
        during: String,
        message: String,
    },

    /// `armour_penalty = "(total_armour + 4 / 5"` in ruleset.toml.
    #[error("the formula `{name}` is not a valid expression: {message}")]
    #[diagnostic(
        code(affray::formula::syntax),
        help("a formula is one rhai expression, such as \"(total_armour + 4) / 5\"")
    )]
    Formula {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("{message}")]
        span: SourceSpan,
        name: String,
        message: String,
    },
}

impl ScriptProblem {
    pub(super) fn syntax(file: &SourceFile, error: ParseErrorType, position: Position) -> Self {
        ScriptProblem::Syntax {
            src: file.named(),
            span: span_of(file, position).into(),
            file: file.name().to_string(),
            message: error.to_string(),
        }
    }

    pub(super) fn runtime(file: &SourceFile, error: &EvalAltResult, during: &str) -> Self {
        let span = span_of(file, error.position()).into();
        if is_runaway(error) {
            ScriptProblem::Runaway {
                src: file.named(),
                span,
                file: file.name().to_string(),
                during: during.to_string(),
            }
        } else {
            ScriptProblem::Runtime {
                src: file.named(),
                span,
                file: file.name().to_string(),
                during: during.to_string(),
                message: error.unwrap_inner().to_string(),
            }
        }
    }

    pub(super) fn formula(
        file: &SourceFile,
        span: Span,
        name: &str,
        text: &str,
        error: ParseErrorType,
        position: Position,
    ) -> Self {
        // The position is within the formula's one line; point at that character.
        let column = position.position().unwrap_or(1).saturating_sub(1);
        let at = text
            .char_indices()
            .nth(column)
            .map_or(text.len(), |(i, _)| i);
        // With escapes in the TOML string the decoded text does not match the file byte
        // for byte: point at the whole formula rather than at a wrong character.
        let raw_matches = file.text().get(span.start..span.start + text.len()) == Some(text);
        let span = if raw_matches {
            let start = span.start + at;
            Span::new(start, (start + 1).min(span.end.max(start)))
        } else {
            span
        };
        ScriptProblem::Formula {
            src: file.named(),
            span: span.into(),
            name: name.to_string(),
            message: error.to_string(),
        }
    }
}
