//! The model a fight runs, as the engine defines it: plain data the loaders build from
//! a ruleset's and a scenario's files (decoding, resolving and diagnostics are theirs),
//! one family of types a file.

mod equipment;
mod scenario;
mod settings;

pub use equipment::{Armour, Equipment, EquipmentValue, Weapon};
pub use scenario::{CombatantSpec, Scenario, ScriptedChoice, Skill, Statistic};
pub use settings::{FightLimits, FightSettings};
