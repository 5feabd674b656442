//! Expressions: the formulas, guards and look-up keys a ruleset writes in its TOML files,
//! in our own small language (`grammar/expressions.pest`; grammar/README.md for GMs).
//!
//! Three stages, as everywhere: `parse` turns the text into an untyped [`ast::Node`]
//! (only `src/parse/` sees pest); [`compile`] resolves every name through the [`Scope`]
//! of the place the expression is written (a formula's parameters, a stage's attacker
//! and defender, ...), checks the types, and returns a typed tree with names turned into
//! [`Slot`]s; the tree is evaluated natively against an [`Env`] that reads those slots.
//! Nothing is parsed or looked up by name while a fight runs.
//!
//! Arithmetic is on whole numbers, as the books count: `/` rounds down, `ceil(a / b)`,
//! `round(a / b)` (halves up) and `floor(a / b)` round one division exactly. Nothing
//! panics or wraps: sums saturate at the limits of i64 and a division by zero gives 0.

pub mod ast;
mod compile;
mod distribution;
mod eval;
mod fold;
mod formula;
mod lists;
mod problem;

pub use compile::{compile_bool, compile_number, compile_symbol};
pub use distribution::Ways;
pub use eval::{Comparison, Condition, Env, Native, Number, Pool, Symbol, divide};
pub use fold::{Known, Knows};
pub use formula::Formula;
pub use problem::ExprProblem;

use crate::source::Spanned;

/// A value an expression reads, as its scope handed it out: the scope and the
/// environment that later reads it agree on what it means; this module does not know.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Slot(pub u32);

/// A list of names a ruleset declares (success levels, weapon sizes, ...), whose members
/// an expression names in quotes: `attack.level == "critical"`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Domain {
    /// What one member is called, for messages: "success level".
    pub what: String,
    pub members: Vec<String>,
}

/// What a scope that hands out no symbol answers when asked for a domain.
pub const NO_DOMAIN: &Domain = &Domain {
    what: String::new(),
    members: Vec::new(),
};

/// Which of its scope's domains a symbol belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DomainId(pub u32);

/// The type of a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Type {
    Number,
    /// A condition: true or false.
    Bool,
    /// Dice, rolled where a number is needed (`weapon.damage`).
    Dice,
    /// A member of a domain (`attack.level`, `weapon.size`).
    Symbol(DomainId),
}

/// What a scope says of a name.
pub enum Resolution {
    Found(Slot, Type),
    /// The word at index `at` of the path is unknown; `known` lists what could stand there.
    Unknown {
        at: usize,
        known: Vec<String>,
    },
}

/// The names an expression may use where it is written.
pub trait Scope {
    /// `path` is the words of a name: `["attacker", "siz"]` for `attacker.siz`.
    fn resolve(&mut self, path: &[Spanned<String>]) -> Resolution;
    fn domain(&self, id: DomainId) -> &Domain;
    /// Whether dice may be rolled here: not in a guard or a tactics condition, which are
    /// read without touching the dice.
    fn may_roll(&self) -> bool;
    /// What the place is, for messages: "the formula `armour_penalty`".
    fn place(&self) -> String;
    /// A collection `any(opponents, ...)`, `all(...)` and `count(...)` may go through.
    fn collection(&mut self, _name: &str) -> Option<Slot> {
        None
    }
    /// The collections offered here, for messages.
    fn collections(&self) -> Vec<String> {
        Vec::new()
    }
    /// `a or b` of two dice: one slot reading the dice of `first` where there are any
    /// (a skill the combatant has), else those of `second`; `None` where the two cannot
    /// be so joined (the message then says which can).
    fn either(&mut self, _first: Slot, _second: Slot) -> Option<Slot> {
        None
    }
    /// A look-up table's `column` (its first when `None`) as numbers, for `lookup(...)`;
    /// the message says why it cannot be read here.
    fn lookup(&self, _table: &str, _column: Option<&str>) -> Result<LookupRows, String> {
        Err("no table can be read here".into())
    }
}

/// A row of a look-up table keyed by numbers: the lowest and highest key (`None`:
/// unbounded), and the value.
pub type NumberedRow = (Option<i64>, Option<i64>, i64);

/// A column of a look-up table as `lookup(...)` reads it: numbers by key, a dash 0.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LookupRows {
    /// Rows keyed by numbers, in the table's order.
    pub numbered: Vec<NumberedRow>,
    /// Rows keyed by names (`small`, `medium`): the name, the value.
    pub named: Vec<(String, i64)>,
}

/// The values of a formula's parameters, in the order of [`Parameters::names`].
pub struct Arguments<'a>(pub &'a [i64]);

impl Env for Arguments<'_> {
    fn number(&mut self, slot: Slot) -> i64 {
        self.0.get(slot.0 as usize).copied().unwrap_or(0)
    }
    // A formula reads numbers only (`Parameters`).
    fn flag(&mut self, _: Slot) -> bool {
        false
    }
}

/// The scope of a formula of `ruleset.toml`: every plain name is a number its caller
/// supplies (`knockback_metres` reads `damage` and `siz`).
#[derive(Clone, Debug, Default)]
pub struct Parameters {
    pub formula: String,
    /// The names read, in the order first written; a name's slot is its index.
    pub names: Vec<String>,
}

impl Parameters {
    pub fn new(formula: &str) -> Self {
        Parameters {
            formula: formula.to_string(),
            names: Vec::new(),
        }
    }
}

impl Scope for Parameters {
    fn resolve(&mut self, path: &[Spanned<String>]) -> Resolution {
        if path.len() > 1 {
            return Resolution::Unknown {
                at: 1,
                known: Vec::new(),
            };
        }
        let name = &path[0].value;
        let index = match self.names.iter().position(|known| known == name) {
            Some(index) => index,
            None => {
                self.names.push(name.clone());
                self.names.len() - 1
            }
        };
        Resolution::Found(Slot(index as u32), Type::Number)
    }

    fn domain(&self, _: DomainId) -> &Domain {
        // A formula's parameters are all numbers: no symbol is ever handed out.
        NO_DOMAIN
    }

    /// A formula is a pure computation: its caller rolls any dice and passes the total.
    fn may_roll(&self) -> bool {
        false
    }

    fn place(&self) -> String {
        format!("the formula `{}`", self.formula)
    }
}
