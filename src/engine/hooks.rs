//! What the engine needs of a ruleset's scripts, and no more: the hooks ruleset.toml
//! names at each step of a fight, and the `script module::function` of a table row or
//! a rule of combat.toml. The engine defines this interface and calls it; the script
//! module implements it (its `ScriptHooks`), and the ruleset's loader builds it and
//! hands it to the engine with the rest of what a fight runs.

use std::fmt;

use miette::Diagnostic;

use super::pipeline::ExchangeContext;
use super::{FightError, FightHandle, ScriptCall};
use crate::names::Name;

/// The hooks the engine calls, and how many arguments each function takes (the fight
/// first). rulesets/README.md documents each.
pub const KNOWN: [(&str, usize); 10] = [
    ("setup", 2),
    ("initiative", 2),
    ("tie_break", 2),
    ("actions", 2),
    ("choices", 2),
    ("act", 3),
    ("out_of_fight", 2),
    ("round_end", 1),
    ("interrupt", 3),
    ("after_fight", 1),
];

/// The hooks a fight cannot do without, unless combat.toml says the step instead.
pub const REQUIRED: [&str; 5] = ["initiative", "actions", "choices", "act", "out_of_fight"];

/// An argument the engine passes to a hook after the fight itself.
#[derive(Clone, Debug)]
pub enum HookArgument {
    Who(usize),
    Text(String),
}

/// The hooks of a ruleset, as the engine calls them. Each call is given the fight, which
/// the hook acts on through the primitives of [`FightHandle`]; a call that runs a script
/// counts its operations against the fight's budget
/// ([`FightHandle::count_script_operations`]). Calling a hook the ruleset does not name
/// runs nothing, and reads as nothing, 0, `false` or no names.
pub trait RulesetHooks: std::any::Any + Send + Sync {
    /// Whether the ruleset names a function for `hook`.
    fn has(&self, hook: &str) -> bool;

    /// Call `hook` for what it does; what it returns is not read.
    fn call(&self, fight: &FightHandle, hook: &str, args: &[HookArgument])
    -> Result<(), HookError>;

    /// Call `hook` and read what it returns as a whole number (`initiative`,
    /// `tie_break`, `actions`).
    fn number(
        &self,
        fight: &FightHandle,
        hook: &str,
        args: &[HookArgument],
    ) -> Result<i64, HookError>;

    /// Call `hook` and read what it returns as `true` or `false` (`out_of_fight`,
    /// `interrupt`).
    fn flag(
        &self,
        fight: &FightHandle,
        hook: &str,
        args: &[HookArgument],
    ) -> Result<bool, HookError>;

    /// Call `hook` and read what it returns as a list of names (`choices`).
    fn names(
        &self,
        fight: &FightHandle,
        hook: &str,
        args: &[HookArgument],
    ) -> Result<Vec<Name>, HookError>;

    /// Run a table row's (or a `combat.toml` rule's) `script module::function`, for
    /// `who`, from the row `row` of `table`, within `exchange` when a rule of one calls it.
    fn call_row(
        &self,
        fight: &FightHandle,
        who: Option<usize>,
        table: &str,
        row: &str,
        call: &ScriptCall,
        exchange: Option<&ExchangeContext>,
    ) -> Result<(), HookFailure>;

    /// Whether a call into `module` may read the attack's or the defence's roll from
    /// the exchange it is given: an enumeration draws those rolls first where it may
    /// ([`crate::engine::Core::refine`]). Yes unless the hooks can tell otherwise.
    fn may_read_tests(&self, module: &str) -> bool {
        let _ = module;
        true
    }
}

/// Why a hook gave the engine nothing it can go on with.
#[derive(Debug)]
pub enum HookError {
    /// The hook's script failed, or was stopped, while it ran.
    Failed(HookFailure),
    /// The hook returned another type than the engine reads from it (an `actions` hook
    /// returning a map, an `out_of_fight` hook returning nothing).
    WrongReturn(HookFailure),
}

impl From<HookError> for FightError {
    fn from(error: HookError) -> Self {
        match error {
            HookError::Failed(failure) => FightError::Script(Box::new(failure)),
            HookError::WrongReturn(failure) => FightError::WrongReturn(Box::new(failure)),
        }
    }
}

/// A hook's failure as the script host reports it: a diagnostic that names the script,
/// its line and the hook that was running. The engine carries it as it is: its message,
/// code, help, source and labels are the host's.
pub struct HookFailure(Box<dyn Diagnostic + Send + Sync>);

impl HookFailure {
    pub fn new(diagnostic: impl Diagnostic + Send + Sync + 'static) -> Self {
        HookFailure(Box::new(diagnostic))
    }
}

impl fmt::Debug for HookFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl fmt::Display for HookFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl std::error::Error for HookFailure {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

impl Diagnostic for HookFailure {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.0.code()
    }

    fn severity(&self) -> Option<miette::Severity> {
        self.0.severity()
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.0.help()
    }

    fn url<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.0.url()
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.0.source_code()
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        self.0.labels()
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn Diagnostic> + 'a>> {
        self.0.related()
    }

    fn diagnostic_source(&self) -> Option<&dyn Diagnostic> {
        self.0.diagnostic_source()
    }
}
