//! Problems of a ruleset directory as a whole: files that cannot be read, TOML that does
//! not decode, and names that refer to nothing.

use std::fmt;
use std::sync::Arc;

use miette::{Diagnostic, LabeledSpan, NamedSource, SourceCode, SourceSpan};
use thiserror::Error;

use crate::names::suggest;
use crate::source::{SourceFile, Span, excerpt};

#[derive(Debug, Error, Diagnostic)]
pub enum RulesetProblem {
    /// `affray check rulesets/nothing`.
    #[error("{dir} is not a ruleset directory: {reason}")]
    #[diagnostic(
        code(affray::ruleset::not_found),
        help(
            "a ruleset directory holds ruleset.toml, and usually tables/, scripts/ and equipment.toml; see rulesets/README.md"
        )
    )]
    NotARuleset { dir: String, reason: String },

    /// A file that exists but cannot be read (permissions, not UTF-8).
    #[error("cannot read {path}: {message}")]
    #[diagnostic(code(affray::io::read))]
    Read { path: String, message: String },

    /// `ap = "four"` in equipment.toml, or a key that does not exist.
    #[error("{file}: {message}")]
    #[diagnostic(code(affray::toml::invalid), help("{help}"))]
    Toml {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("{label}")]
        span: Option<SourceSpan>,
        file: String,
        message: String,
        label: String,
        help: String,
    },

    /// `set penalty (self.value.penalty + 10)` in a table file.
    #[error("an expression in an action of a table file")]
    #[diagnostic(
        code(affray::table::expression_in_table),
        help(
            "a table's row is done where no attacker, defender or blow is at hand: write a number (`set penalty 10`, `for 1d3 actions`), or move the rule to combat.toml"
        )
    )]
    ExpressionInTable {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("only combat.toml's actions read expressions")]
        span: SourceSpan,
    },

    /// `spend 1 action`, `lodge weapon`, `winner (...)` in a table file.
    #[error("`{action}` is an action of combat.toml")]
    #[diagnostic(
        code(affray::table::combat_action_in_table),
        help(
            "a table's row is done where no turn's action or exchange's blow, weapon or parties are at hand: move the rule to combat.toml (a turn's action, an effect, a wound, an `after` rule)"
        )
    )]
    CombatActionInTable {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("only combat.toml does this")]
        span: SourceSpan,
        action: String,
    },

    /// A table defined in two files.
    #[error("the table `{name}` is defined twice")]
    #[diagnostic(
        code(affray::table::duplicate_table),
        help(
            "it was first defined in {first_file} at line {first_line}; table names are unique across a ruleset"
        )
    )]
    DuplicateTable {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("defined again here")]
        span: SourceSpan,
        name: String,
        first_file: String,
        first_line: usize,
    },

    /// A matrix bound to success levels that lacks one of them.
    #[error("`{table}` has no {axis} {what} for `{level}`")]
    #[diagnostic(
        code(affray::table::missing_key),
        help("an axis `by {domain}` needs one key for each of: {all}")
    )]
    MissingKey {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("declared here")]
        span: SourceSpan,
        table: String,
        axis: String,
        what: &'static str,
        level: String,
        domain: String,
        all: String,
    },

    /// `roll humanoid_hit_location` where that table is a matrix.
    #[error("`{name}` is a {kind} table, but `roll` needs a roll table")]
    #[diagnostic(
        code(affray::table::not_a_roll_table),
        help("`roll` names a table written `table {name} ... roll <die> {{ ... }}`")
    )]
    NotARollTable {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("not a roll table")]
        span: SourceSpan,
        name: String,
        kind: &'static str,
    },

    /// `table a ... { 1-3 x => roll b }` and `table b ... { 1 y => roll a }`: rolling
    /// may come round the loop until it is stopped.
    #[error("tables roll each other in a loop: {cycle}")]
    #[diagnostic(
        code(affray::table::roll_cycle),
        help(
            "a roll goes at most {} tables deep, so a fight whose dice come round this loop that often stops with an error; let a row of the loop roll a table outside it, or write `reroll N times ignoring ...` to roll the same table again",
            crate::tables::MAX_DEPTH
        )
    )]
    RollCycle {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("this roll closes the loop")]
        span: SourceSpan,
        cycle: String,
    },

    /// `act = "combat::act"` where `act` takes two parameters instead of three.
    #[error(
        "the hook `{hook}` is called with {expected} arguments, but `{function}` takes {defined}"
    )]
    #[diagnostic(
        code(affray::ruleset::hook_arity),
        help("rulesets/README.md lists the arguments of each hook (the fight comes first)")
    )]
    HookArity {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("takes {defined}")]
        span: SourceSpan,
        hook: String,
        function: String,
        expected: usize,
        defined: String,
    },

    /// `script fumbles::drop_weapon(1d4)` where the function takes no extra argument.
    #[error("`{module}::{function}` takes {defined} parameters, but this call passes {passed}")]
    #[diagnostic(
        code(affray::script::arity),
        help(
            "a table calls `{function}(ctx, ...)`: the context comes first, then the arguments written in the table"
        )
    )]
    WrongArity {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("passes {passed} (the context and {args} arguments)")]
        span: SourceSpan,
        module: String,
        function: String,
        defined: String,
        passed: usize,
        args: usize,
    },

    /// A `[[target]]` entry of tactics.toml with both `choose` and `lowest`, or neither.
    #[error(
        "a rule of the tactics for `{decision}` needs exactly one of `choose`, `first`, `highest`, `lowest`, `script = true` (it has {found})"
    )]
    #[diagnostic(
        code(affray::tactics::rule),
        help(
            "`choose = \"attack\"` takes that option when offered; `first = \"...\"` the first offered option for which a condition holds; `highest = \"...\"` or `lowest = \"...\"` the offered option that scores best; `script = true` leaves the decision to the tactics script; `if = \"...\"` may guard any of them"
        )
    )]
    TacticsRule {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("this rule")]
        span: SourceSpan,
        decision: String,
        found: usize,
    },
}

/// A name that refers to nothing: an unknown table, script, condition, success level,
/// grade, trait, size or reach. One type, with a stable code per kind of name.
#[derive(Debug, Error)]
#[error("unknown {kind} `{name}`")]
pub struct UnknownName {
    pub code: &'static str,
    pub kind: &'static str,
    pub name: String,
    pub src: NamedSource<Arc<str>>,
    pub span: Span,
    /// Where the known names come from, e.g. "declared in ruleset.toml".
    pub known_from: String,
    pub known: Vec<String>,
}

impl UnknownName {
    pub fn new(
        code: &'static str,
        kind: &'static str,
        file: &SourceFile,
        name: &str,
        span: Span,
        known_from: impl Into<String>,
        known: Vec<String>,
    ) -> Self {
        UnknownName {
            code,
            kind,
            // Echoed in the message and compared for "did you mean": cut short.
            name: excerpt(name),
            src: file.named(),
            span,
            known_from: known_from.into(),
            known,
        }
    }
}

impl Diagnostic for UnknownName {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.code))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        if self.known.is_empty() {
            return Some(Box::new(format!(
                "there are no {} {}",
                plural(self.kind),
                self.known_from
            )));
        }
        let names: Vec<String> = self.known.iter().map(|name| excerpt(name)).collect();
        let known = format!(
            "{} {}: {}",
            plural(self.kind),
            self.known_from,
            names.join(", ")
        );
        Some(Box::new(match suggest(&self.name, &self.known) {
            Some(close) => format!("did you mean `{}`? The {known}", excerpt(close)),
            None => format!("the {known}"),
        }))
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.src)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        Some(Box::new(std::iter::once(LabeledSpan::new_with_span(
            Some(format!("no such {}", self.kind)),
            SourceSpan::from(self.span),
        ))))
    }
}

fn plural(kind: &str) -> String {
    match kind {
        "script function" => "script functions".into(),
        "script" => "scripts".into(),
        _ if kind.ends_with('s') => format!("{kind}es"),
        _ => format!("{kind}s"),
    }
}
