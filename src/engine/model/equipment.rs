//! The equipment a fight is fought with: weapons, shields and armour, as the loader
//! resolved them from `equipment.toml` (dice parsed, sizes, reaches and traits checked).

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use crate::dice::DiceExpr;
use crate::names::{Name, NameList, NameMap};

/// A figure of `values`: a whole number or a text, read by the ruleset's scripts.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(untagged)]
pub enum EquipmentValue {
    Number(i64),
    Text(String),
}

/// The resolved equipment.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Equipment {
    pub weapons: NameMap<Weapon>,
    pub shields: NameMap<Weapon>,
    pub armour: IndexMap<String, Armour>,
}

impl Equipment {
    /// Where the weapon or shield `id` is, found once: the weapons first, then the
    /// shields, as [`Equipment::at`] reads it. A fight keeps it beside each weapon it
    /// carries, so that reading a weapon in the fight hashes nothing.
    pub fn index_of(&self, id: Name) -> Option<u32> {
        let index = match self.weapons.get_index_of(&id) {
            Some(at) => at,
            None => self.weapons.len() + self.shields.get_index_of(&id)?,
        };
        u32::try_from(index).ok()
    }

    /// The weapon or shield at a place [`Equipment::index_of`] gave.
    #[inline]
    pub fn at(&self, index: u32) -> Option<&Weapon> {
        let index = index as usize;
        match self.weapons.get_index(index) {
            Some((_, weapon)) => Some(weapon),
            None => self
                .shields
                .get_index(index - self.weapons.len())
                .map(|(_, shield)| shield),
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Weapon {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skill: Option<Name>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub damage: Option<DiceExpr>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<Name>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reach: Option<Name>,
    pub ap: u32,
    pub hp: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enc: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hands: Option<u8>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub traits: Vec<Name>,
    /// The traits as bits, bit `i` for the `i`-th of ruleset.toml's `weapon_traits` (the
    /// first 64), so that a fight asks "holds a weapon with this trait?" with one test of
    /// bits.
    #[serde(skip)]
    pub trait_bits: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub load: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub damage_modifier: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub values: IndexMap<String, EquipmentValue>,
    /// The figures of `values` that are numbers, by name: what an expression reads as
    /// `weapon.value.NAME` (0 for a name the weapon lacks), without hashing a text.
    #[serde(skip)]
    pub numbers: NameList<i64>,
}

impl Weapon {
    /// The figures of `values` that are whole numbers, by name.
    pub fn numbers_of(values: &IndexMap<String, EquipmentValue>) -> NameList<i64> {
        let mut numbers = NameList::default();
        for (name, value) in values {
            if let EquipmentValue::Number(number) = value {
                numbers.insert(Name::new(name), *number);
            }
        }
        numbers
    }

    /// The number `values` gives `name`; 0 when it gives none (or a text).
    #[inline]
    pub fn value(&self, name: &Name) -> i64 {
        self.numbers.get(name).copied().unwrap_or(0)
    }

    /// Whether the weapon's `values` give `name` a number, 0 included.
    pub fn gives(&self, name: &Name) -> bool {
        self.numbers.holds(name)
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Armour {
    pub name: String,
    pub ap: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enc: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub values: IndexMap<String, EquipmentValue>,
}
