//! The state of a fight: combatants as they change, round by round.

use crate::names::{Name, NameMap};
use crate::scenario::{CombatantSpec, Skill, Statistic};

/// A combatant in the fight: the scenario's figures, and what has happened to them.
#[derive(Clone, Debug)]
pub struct Combatant {
    pub spec: CombatantSpec,
    /// Hit points per location (one location `total` where the ruleset has none).
    pub locations: NameMap<Location>,
    pub weapons: Vec<WeaponState>,
    pub conditions: Vec<ActiveCondition>,
    pub initiative: i64,
    /// The initiative last rolled, kept for the rounds that do not roll it again.
    pub rolled_initiative: Option<i64>,
    pub actions_left: i64,
    /// Actions lost in advance ("lose next 1D3 Combat Actions"), taken from the next
    /// actions this combatant would have, this round or the next.
    pub actions_to_lose: i64,
    pub out: bool,
    /// Numbers a ruleset keeps on a combatant between hooks (`fight.set_value`).
    pub values: NameMap<i64>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    pub hit_points: i64,
    pub max_hit_points: i64,
    pub armour: i64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeaponState {
    pub id: Name,
    pub hit_points: i64,
    pub place: WeaponPlace,
    /// Dropped where it struck: left in this combatant's wound (a blow that leaves it there), until
    /// it is readied again.
    pub lodged_in: Option<usize>,
}

/// Where a weapon of the scenario is: every one starts in hand; a ruleset's scripts stow
/// (sheathe, sling) and ready them, and blows and fumbles make them drop; a weapon broken,
/// taken or thrown away is lost, out of reach for the rest of the fight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WeaponPlace {
    InHand,
    Carried,
    Dropped,
    Lost,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActiveCondition {
    pub name: Name,
    /// What is left of its duration; `None` lasts until cleared.
    pub remaining: Option<Remaining>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Remaining {
    /// The combatant's own actions (spent or lost).
    Actions(i64),
    /// Round ends.
    Rounds(i64),
}

impl Combatant {
    pub fn new(spec: CombatantSpec, locations: &[String], weapon_hp: impl Fn(Name) -> i64) -> Self {
        // A `total` pool given beside a hit location table is one more location.
        let pool = (!locations.iter().any(|l| l == "total")
            && spec.hit_points.contains_key("total"))
        .then(|| "total".to_string());
        let locations = locations
            .iter()
            .chain(pool.iter())
            .map(|name| {
                let hit_points = spec.hit_points.get(name).copied().unwrap_or(0);
                let location = Location {
                    hit_points,
                    max_hit_points: hit_points,
                    armour: i64::from(spec.armour.get(name).copied().unwrap_or(0)),
                };
                (Name::new(name), location)
            })
            .collect();
        let weapons = spec
            .weapons
            .iter()
            .map(|&id| WeaponState {
                id,
                hit_points: weapon_hp(id),
                place: WeaponPlace::InHand,
                lodged_in: None,
            })
            .collect();
        Combatant {
            spec,
            locations,
            weapons,
            conditions: Vec::new(),
            initiative: 0,
            rolled_initiative: None,
            actions_left: 0,
            actions_to_lose: 0,
            out: false,
            values: NameMap::default(),
        }
    }

    pub fn name(&self) -> Name {
        self.spec.name
    }

    pub fn has_condition(&self, name: Name) -> bool {
        self.conditions.iter().any(|c| c.name == name)
    }

    /// A skill as a number (a dice-code skill counts its dice's mean).
    pub fn skill(&self, name: Name) -> i64 {
        match self.spec.skills.get(&name) {
            Some(Skill::Number(n)) => *n,
            Some(Skill::Dice(dice)) => dice.mean().round() as i64,
            None => 0,
        }
    }

    pub fn statistic(&self, name: Name) -> Option<&Statistic> {
        self.spec.statistics.get(&name)
    }
}
