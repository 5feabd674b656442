//! The fight log: typed events, and their renderings. The engine emits events; text for a
//! person and JSON lines for a program are two views of the same stream.

mod text;

use serde::Serialize;

use crate::names::Name;

pub use text::render_text;

/// One thing that happened in a fight.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    FightStarted {
        title: String,
        ruleset: String,
        combatants: Vec<CombatantLine>,
    },
    RoundStarted {
        round: u32,
    },
    Initiative {
        who: Name,
        value: i64,
    },
    /// The order of the round, best first, with each one's actions.
    TurnOrder {
        order: Vec<OrderEntry>,
    },
    Turn {
        who: Name,
        actions_left: i64,
    },
    Roll {
        #[serde(skip_serializing_if = "Option::is_none")]
        who: Option<Name>,
        purpose: String,
        dice: String,
        faces: Vec<u32>,
        total: i64,
    },
    Test {
        who: Name,
        test: Name,
        target: i64,
        roll: i64,
        result: Name,
    },
    Choice {
        who: Name,
        decision: Name,
        options: Vec<Name>,
        chosen: Name,
        /// Who chose: the chooser's own words (`tactics`, `scenario`, `GM`, ...).
        by: &'static str,
    },
    TableRow {
        #[serde(skip_serializing_if = "Option::is_none")]
        who: Option<Name>,
        table: Name,
        result: i64,
        row: Name,
        label: String,
    },
    Damage {
        who: Name,
        location: Name,
        amount: i64,
        hit_points: i64,
    },
    /// A wound of a level the ruleset names (its wound levels), at a location or to the pool.
    Wound {
        who: Name,
        #[serde(skip_serializing_if = "Option::is_none")]
        location: Option<Name>,
        level: Name,
    },
    /// A blow judged on what gets past the armour alone, taking no hit points (Wound
    /// levels): its damage, the armour's, and what got through to be judged.
    AgainstArmour {
        who: Name,
        damage: i64,
        armour: i64,
        through: i64,
    },
    /// A defence took so much off a blow's damage before it reached a location (a parry).
    Deflected {
        who: Name,
        amount: i64,
    },
    /// An opposed test against the opponent's original roll (`resist TEST or ...`):
    /// whether the combatant resisted.
    Resisted {
        who: Name,
        resisted: bool,
        /// The opponent's original roll it was tested against (none: there was none).
        #[serde(skip_serializing_if = "Option::is_none")]
        against: Option<i64>,
        /// The test kind compares by margin (`compare = "margin"`): who passes by more
        /// wins, rather than the better level.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        by_margin: bool,
    },
    /// An opposed test both sides roll now (`contest TEST against ...`): whether the
    /// combatant won it, and against whom (none: nobody stood against it).
    Contested {
        who: Name,
        #[serde(skip_serializing_if = "Option::is_none")]
        against: Option<Name>,
        won: bool,
        /// The test kind compares by margin, as for [`Event::Resisted`].
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        by_margin: bool,
    },
    /// A blow forced a combatant back so many metres.
    Knockback {
        who: Name,
        metres: i64,
    },
    /// Armour points of a location changed.
    Armour {
        who: Name,
        location: Name,
        armour: i64,
    },
    /// Two combatants are now this far apart.
    Distance {
        between: [Name; 2],
        distance: i64,
    },
    ActionSpent {
        who: Name,
        reason: String,
        actions_left: i64,
    },
    /// A combatant holds its action until another acts (to act after it, or to try to
    /// interrupt it).
    Waits {
        who: Name,
        until: Name,
        interrupt: bool,
    },
    ActionsLost {
        who: Name,
        count: i64,
    },
    ConditionSet {
        who: Name,
        condition: Name,
        #[serde(skip_serializing_if = "Option::is_none")]
        lasts: Option<String>,
    },
    ConditionEnded {
        who: Name,
        condition: Name,
    },
    /// A line a script wrote with `fight.log(...)`.
    Note {
        text: String,
    },
    OutOfFight {
        who: Name,
    },
    RoundEnded {
        round: u32,
    },
    FightEnded {
        rounds: u32,
        #[serde(skip_serializing_if = "Option::is_none")]
        winner: Option<Name>,
        standing: Vec<Name>,
    },
}

impl Event {
    /// The bytes of free text the event holds (what scripts and rulesets write: notes,
    /// reasons, purposes, labels, titles), counted against `[limits] log_bytes`. Names
    /// are interned once for the process and not counted.
    pub fn text_bytes(&self) -> u64 {
        let bytes = match self {
            Event::FightStarted { title, ruleset, .. } => title.len() + ruleset.len(),
            Event::Roll { purpose, dice, .. } => purpose.len() + dice.len(),
            Event::TableRow { label, .. } => label.len(),
            Event::ActionSpent { reason, .. } => reason.len(),
            Event::ConditionSet { lasts, .. } => lasts.as_ref().map_or(0, String::len),
            Event::Note { text } => text.len(),
            _ => 0,
        };
        bytes as u64
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OrderEntry {
    pub who: Name,
    pub initiative: i64,
    pub actions: i64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CombatantLine {
    pub name: Name,
    pub side: Name,
}
