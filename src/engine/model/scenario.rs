//! The scenario a fight runs: who fights whom, with what, under which modifiers, as the
//! scenario loader checked and resolved it.

use std::sync::Arc;

use indexmap::IndexMap;
use serde::Serialize;

use crate::dice::DiceExpr;
use crate::names::{Name, NameMap};
use crate::source::SourceFile;

/// A checked scenario.
#[derive(Clone, Debug, Serialize)]
pub struct Scenario {
    pub title: String,
    pub description: String,
    pub source: String,
    pub distance: Option<u32>,
    pub modifiers: Vec<String>,
    pub options: Vec<String>,
    /// Shared with every fight of the scenario (a fight's state points at them rather
    /// than copying them).
    pub combatants: Vec<Arc<CombatantSpec>>,
    pub choices: Vec<ScriptedChoice>,
    /// The scenario file, for the diagnostics of scripted choices left unused.
    #[serde(skip)]
    pub file: Option<SourceFile>,
}

/// One combatant as the scenario sets it up.
#[derive(Clone, Debug, Serialize)]
pub struct CombatantSpec {
    pub name: Name,
    pub side: Name,
    pub characteristics: NameMap<i64>,
    pub skills: NameMap<Skill>,
    pub statistics: NameMap<Statistic>,
    pub weapons: Vec<Name>,
    /// Armour Points per hit location.
    pub armour: IndexMap<String, u32>,
    /// The armour of equipment.toml worn per hit location, where the scenario named one.
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub armour_items: IndexMap<String, String>,
    /// Hit points per hit location; `total` may stand beside the locations of a hit
    /// location table, as one pool shared by them all.
    pub hit_points: IndexMap<String, i64>,
    pub options: Vec<Name>,
    pub modifiers: Vec<Name>,
    /// Combatants it starts in close combat with.
    pub engaged: Vec<String>,
    /// The ruleset's tactics style (`tactics/<style>.toml`) it decides by, if not the
    /// ruleset's own lists.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tactics: Option<Name>,
    /// Conditions it starts with (until cleared), set after the set-up.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Name>,
    /// Actions already spent at the start: lost from its first round's.
    #[serde(skip_serializing_if = "is_zero")]
    pub actions_spent: u32,
    /// Its initiative in the first round, set instead of rolled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub initiative: Option<i64>,
    /// Hit points already lost per location at the start.
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub damage_taken: IndexMap<String, u32>,
    /// Weapons on the ground at the start.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dropped: Vec<Name>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Skill {
    Number(i64),
    Dice(DiceExpr),
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Statistic {
    Number(i64),
    Dice(DiceExpr),
    Text(Name),
}

/// A `[[choices]]` entry. Without `who` it waits at the head of a queue (the entries
/// without `who`, in order) for the decision it names; with `who` it is kept aside and
/// used at the first decision of that combatant (in `round`, if given) that it names
/// and whose options hold its choice.
#[derive(Clone, Debug, Serialize)]
pub struct ScriptedChoice {
    pub decision: Name,
    pub by: Option<Name>,
    /// Matched wherever the combatant's decision comes, not as the queue's head.
    pub who: Option<Name>,
    pub round: Option<u32>,
    pub choose: Name,
    /// The entry in the scenario file, for a diagnostic.
    #[serde(skip)]
    pub span: crate::source::Span,
}
