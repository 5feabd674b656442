//! `equipment.toml` as written: weapons, shields and armour, decoded here and resolved
//! (`resolve.rs`: dice parsed, sizes, reaches and traits checked against `ruleset.toml`)
//! into the engine's model of them ([`crate::engine::model::Equipment`]).

use indexmap::IndexMap;
use serde::Deserialize;
use toml::Spanned;

pub use crate::engine::model::{Armour, Equipment, EquipmentValue, Weapon};

/// The file as written.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EquipmentFile {
    #[serde(default)]
    pub weapons: IndexMap<String, WeaponEntry>,
    #[serde(default)]
    pub shields: IndexMap<String, WeaponEntry>,
    #[serde(default)]
    pub armour: IndexMap<String, ArmourEntry>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponEntry {
    pub name: String,
    /// The skill a combatant uses with it, in systems where each weapon has its own
    /// (a free name, matched against the skills a scenario gives).
    #[serde(default)]
    pub skill: Option<String>,
    /// Dice of damage. Optional: a ruleset may compute damage otherwise (from a
    /// table of its own and figures in `values`).
    #[serde(default)]
    pub damage: Option<Spanned<String>>,
    #[serde(default)]
    pub size: Option<Spanned<String>>,
    #[serde(default)]
    pub reach: Option<Spanned<String>>,
    /// Armour Points of the weapon itself.
    #[serde(default)]
    pub ap: u32,
    /// Hit Points of the weapon itself.
    #[serde(default)]
    pub hp: u32,
    #[serde(default)]
    pub enc: Option<f64>,
    #[serde(default)]
    pub hands: Option<u8>,
    #[serde(default)]
    pub traits: Vec<Spanned<String>>,
    /// Ranged weapons: the range in metres within which there is no penalty.
    #[serde(default)]
    pub range: Option<u32>,
    /// Ranged weapons: actions needed to load.
    #[serde(default)]
    pub load: Option<u32>,
    /// Whether the wielder's damage modifier applies (ranged weapons say so).
    #[serde(default)]
    pub damage_modifier: Option<bool>,
    #[serde(default)]
    pub notes: Option<String>,
    /// Figures of the ruleset's own that no other key holds (`values = { min_st = 10 }`).
    #[serde(default)]
    pub values: IndexMap<String, EquipmentValue>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmourEntry {
    pub name: String,
    /// Armour Points per location covered.
    pub ap: u32,
    #[serde(default)]
    pub enc: Option<f64>,
    #[serde(default)]
    pub notes: Option<String>,
    /// Figures of the ruleset's own (`values = { protection = 2 }`).
    #[serde(default)]
    pub values: IndexMap<String, EquipmentValue>,
}
