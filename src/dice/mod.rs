//! Dice: expressions as the books print them, their exact distributions, and the one
//! seeded, replayable source every random number of a run comes from.

mod expr;
mod given;
mod source;

pub use expr::{DiceExpr, DiceTerm, Distribution, LimitExceeded, Limits, Rolled, TermKind};
pub use given::{NotADieValue, read_given_dice};
pub use source::{
    AskDie, DiceSource, DieLabel, DieOf, GivenDie, RollError, RolledDie, WrongPurpose, emitted,
};
