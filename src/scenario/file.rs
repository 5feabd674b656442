//! A scenario file as written: decoded by serde, names still unchecked.

use indexmap::IndexMap;
use serde::Deserialize;
use toml::Spanned;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    /// The ruleset's name (the scenario lies in its `scenarios/` folder), or a path to
    /// the ruleset directory relative to this file.
    pub ruleset: Spanned<String>,
    pub title: String,
    #[serde(default)]
    pub description: String,
    /// Where the text or the example comes from.
    #[serde(default)]
    pub source: String,
    /// Starting distance between the sides, in metres (hex, yards: as the ruleset reads it).
    #[serde(default)]
    pub distance: Option<u32>,
    /// Situational modifiers in force for everyone: names from the ruleset's modifier lists.
    #[serde(default)]
    pub modifiers: Vec<Spanned<String>>,
    /// Optional rules switched on: names from `fight_options` of ruleset.toml.
    #[serde(default)]
    pub options: Vec<Spanned<String>>,
    pub combatants: Vec<CombatantEntry>,
    /// Tactics styles by side (`tactics/<style>.toml` of the ruleset): `{ red = "cautious" }`.
    #[serde(default)]
    pub tactics: IndexMap<Spanned<String>, Spanned<String>>,
    /// Choices made in advance, used in order instead of the tactics script.
    #[serde(default)]
    pub choices: Vec<ChoiceEntry>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CombatantEntry {
    pub name: Spanned<String>,
    pub side: Spanned<String>,
    /// Several alike (a mob): named "<name> 1", "<name> 2", ...
    #[serde(default)]
    pub count: Option<Spanned<u32>>,
    #[serde(default)]
    pub characteristics: IndexMap<Spanned<String>, i64>,
    /// Skills and combat styles by name, in the ruleset's own unit (percent, 3d6 level,
    /// dice code as "4D+2").
    #[serde(default)]
    pub skills: IndexMap<String, Spanned<toml::Value>>,
    #[serde(default)]
    pub statistics: IndexMap<Spanned<String>, Spanned<toml::Value>>,
    /// Weapons and shields readied, by their id in equipment.toml.
    #[serde(default)]
    pub weapons: Vec<Spanned<String>>,
    /// Armour per hit location: an id from equipment.toml or Armour Points; the key `all`
    /// covers every location not named.
    #[serde(default)]
    pub armour: IndexMap<Spanned<String>, Spanned<toml::Value>>,
    /// Hit points per location (or `total` for a ruleset without locations); the key
    /// `all` covers every location not named.
    #[serde(default)]
    pub hit_points: IndexMap<Spanned<String>, i64>,
    /// Options for this combatant: names from `combatant_options` of ruleset.toml.
    #[serde(default)]
    pub options: Vec<Spanned<String>>,
    /// Situational modifiers that apply to this combatant only.
    #[serde(default)]
    pub modifiers: Vec<Spanned<String>>,
    /// Combatants of other sides this one starts in close combat with (distance 0), when
    /// the scenario's `distance` keeps the rest apart.
    #[serde(default)]
    pub engaged: Vec<Spanned<String>>,
    /// The tactics style this combatant decides by, over its side's.
    #[serde(default)]
    pub tactics: Option<Spanned<String>>,
    /// Conditions of ruleset.toml it starts with, until cleared (`["prone"]`).
    #[serde(default)]
    pub conditions: Vec<Spanned<String>>,
    /// Actions already spent when the fight starts: taken from its first round's.
    #[serde(default)]
    pub actions_spent: Option<u32>,
    /// Its initiative in the first round, instead of the one the rules roll (`15`).
    #[serde(default)]
    pub initiative: Option<Spanned<toml::Value>>,
    /// Hit points already lost per location when the fight starts (`{ head = 3 }`).
    #[serde(default)]
    pub damage_taken: IndexMap<Spanned<String>, u32>,
    /// Weapons of `weapons` lying on the ground when the fight starts.
    #[serde(default)]
    pub dropped: Vec<Spanned<String>>,
}

// Skills, statistics and armour take a number or a text; serde's untagged enums cannot
// keep spans, so they are read as spanned TOML values and sorted out in resolve.rs.

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChoiceEntry {
    /// The decision, as the engine names it (e.g. `action`, `reaction`, `effects`).
    pub decision: Spanned<String>,
    /// Who decides; any combatant when absent. The entry waits at the head of the queue.
    #[serde(default)]
    pub by: Option<Spanned<String>>,
    /// Who decides: the entry is matched to this combatant's decision wherever it comes
    /// in the fight, not only at the head of the queue.
    #[serde(default)]
    pub who: Option<Spanned<String>>,
    /// With `who`: only in this round (the first round is 1).
    #[serde(default)]
    pub round: Option<Spanned<u32>>,
    /// The option chosen, by name.
    pub choose: Spanned<String>,
}
