//! What `check` says about an expression that parses but means nothing.

use std::sync::Arc;

use miette::{Diagnostic, NamedSource, SourceSpan};
use thiserror::Error;

use crate::parse::ParseError;

#[derive(Debug, Error, Diagnostic)]
pub enum ExprProblem {
    /// `(total_armour + 4 / 5`.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Syntax(#[from] ParseError),

    /// `attacker.sz` where the scope offers `attacker.siz`.
    #[error("{place} uses `{name}`, which is not known there")]
    #[diagnostic(code(affray::expr::unknown_name), help("{help}"))]
    UnknownName {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("unknown name")]
        span: SourceSpan,
        place: String,
        name: String,
        help: String,
    },

    /// `attack.level == "critcal"`.
    #[error("\"{text}\" is not a {what}")]
    #[diagnostic(code(affray::expr::unknown_member), help("{help}"))]
    UnknownMember {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("not a {what}")]
        span: SourceSpan,
        text: String,
        what: String,
        help: String,
    },

    /// `damage > siz + (a < b)`: a condition where a number is needed.
    #[error("{place}: expected {expected}, found {found}")]
    #[diagnostic(code(affray::expr::type_mismatch), help("{help}"))]
    TypeMismatch {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("this is {found}")]
        span: SourceSpan,
        place: String,
        expected: String,
        found: String,
        help: String,
    },

    /// `sqrt(x)`, or `max(1)`.
    #[error("`{function}` {problem}")]
    #[diagnostic(code(affray::expr::function), help("{help}"))]
    Function {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("{problem}")]
        span: SourceSpan,
        function: String,
        problem: String,
        help: String,
    },

    /// `1d6` in a guard, or in a formula.
    #[error("{place} cannot roll dice")]
    #[diagnostic(code(affray::expr::dice_not_rolled), help("{help}"))]
    DiceNotRolled {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("dice here")]
        span: SourceSpan,
        place: String,
        help: String,
    },
}
