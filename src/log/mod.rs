//! The fight log: typed events, and their renderings. The engine emits events; text for a
//! person and JSON lines for a program are two views of the same stream.

mod text;

use serde::Serialize;

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
        who: String,
        value: i64,
    },
    /// The order of the round, best first, with each one's actions.
    TurnOrder {
        order: Vec<OrderEntry>,
    },
    Turn {
        who: String,
        actions_left: i64,
    },
    Roll {
        #[serde(skip_serializing_if = "Option::is_none")]
        who: Option<String>,
        purpose: String,
        dice: String,
        faces: Vec<u32>,
        total: i64,
    },
    Test {
        who: String,
        test: String,
        target: i64,
        roll: i64,
        result: String,
    },
    Choice {
        who: String,
        decision: String,
        options: Vec<String>,
        chosen: String,
        by: String,
    },
    TableRow {
        #[serde(skip_serializing_if = "Option::is_none")]
        who: Option<String>,
        table: String,
        result: i64,
        row: String,
        label: String,
    },
    Damage {
        who: String,
        location: String,
        amount: i64,
        hit_points: i64,
    },
    /// A wound of a level the ruleset names (its wound levels), at a location or to the pool.
    Wound {
        who: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        location: Option<String>,
        level: String,
    },
    /// A defence took so much off a blow's damage before it reached a location (a parry).
    Deflected {
        who: String,
        amount: i64,
    },
    /// An opposed test against the opponent's original roll (`resist TEST or ...`):
    /// whether the combatant resisted.
    Resisted {
        who: String,
        resisted: bool,
    },
    /// A blow forced a combatant back so many metres.
    Knockback {
        who: String,
        metres: i64,
    },
    /// Armour points of a location changed.
    Armour {
        who: String,
        location: String,
        armour: i64,
    },
    /// Two combatants are now this far apart.
    Distance {
        between: [String; 2],
        distance: i64,
    },
    ActionSpent {
        who: String,
        reason: String,
        actions_left: i64,
    },
    /// A combatant holds its action until another acts (to act after it, or to try to
    /// interrupt it).
    Waits {
        who: String,
        until: String,
        interrupt: bool,
    },
    ActionsLost {
        who: String,
        count: i64,
    },
    ConditionSet {
        who: String,
        condition: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        lasts: Option<String>,
    },
    ConditionEnded {
        who: String,
        condition: String,
    },
    /// A line a script wrote with `fight.log(...)`.
    Note {
        text: String,
    },
    OutOfFight {
        who: String,
    },
    RoundEnded {
        round: u32,
    },
    FightEnded {
        rounds: u32,
        #[serde(skip_serializing_if = "Option::is_none")]
        winner: Option<String>,
        standing: Vec<String>,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OrderEntry {
    pub who: String,
    pub initiative: i64,
    pub actions: i64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CombatantLine {
    pub name: String,
    pub side: String,
}
