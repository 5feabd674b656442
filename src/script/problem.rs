//! rhai errors as diagnostics with the script's file, line and span.

use std::sync::Arc;

use miette::{Diagnostic, NamedSource, SourceSpan};
use rhai::{EvalAltResult, ParseErrorType, Position};
use thiserror::Error;

use super::{Limits, is_runaway, span_of};
use crate::source::SourceFile;

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

    /// `loop {}` at the top of a script, or a function that calls itself without end.
    #[error("{file} {what} during {during}: {question}")]
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
        /// Which limit stopped it, and its value.
        what: String,
        question: &'static str,
    },

    /// `combat::weapon_skill(fight, who)` in tactics.rhai: no script is a module of
    /// another.
    #[error("{file} calls `{module}::{function}`, a function of another module")]
    #[diagnostic(code(affray::script::module_call), help("{help}"))]
    ModuleCall {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("not callable from here")]
        span: SourceSpan,
        file: String,
        module: String,
        function: String,
        help: String,
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
            let (what, question) = match error {
                EvalAltResult::ErrorStackOverflow(_) => (
                    format!("nested its calls more than {} deep", Limits::CALL_LEVELS),
                    "does a function call itself without end?",
                ),
                _ => (
                    format!("ran more than {} operations", Limits::OPERATIONS),
                    "does it loop forever?",
                ),
            };
            ScriptProblem::Runaway {
                src: file.named(),
                span,
                file: file.name().to_string(),
                during: during.to_string(),
                what,
                question,
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
}
