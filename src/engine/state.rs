//! The state of a fight: combatants as they change, round by round.

use std::sync::Arc;

use crate::engine::model::{CombatantSpec, Skill, Statistic};
use crate::names::{Name, NameList, NameMap};

/// A combatant in the fight: the scenario's figures, and what has happened to them.
#[derive(Clone, Debug)]
pub struct Combatant {
    /// The scenario's figures, shared with the scenario: they never change in a fight.
    pub spec: Arc<CombatantSpec>,
    /// Hit points per location (one location `total` where the ruleset has none).
    pub locations: NameMap<Location>,
    pub weapons: Vec<WeaponState>,
    /// The traits of the weapons in hand, as bits ([`crate::engine::model::Weapon::trait_bits`]):
    /// kept by [`Combatant::refresh_in_hand`] whenever a weapon changes place.
    pub in_hand_traits: u64,
    /// The conditions in effect, in the order they were set; changed only through
    /// [`Combatant::set_condition`], [`Combatant::clear_condition`] and
    /// [`Combatant::tick_conditions`], which keep [`Combatant::condition_bits`].
    conditions: Vec<ActiveCondition>,
    /// The bits of the conditions in effect ([`ActiveCondition::bit`]), read by guards.
    pub condition_bits: u64,
    pub initiative: i64,
    /// The initiative last rolled, kept for the rounds that do not roll it again.
    pub rolled_initiative: Option<i64>,
    pub actions_left: i64,
    /// Actions lost in advance ("lose next 1D3 Combat Actions"), taken from the next
    /// actions this combatant would have, this round or the next.
    pub actions_to_lose: i64,
    pub out: bool,
    /// Numbers a ruleset keeps on a combatant between hooks (`fight.set_value`).
    pub values: NameList<i64>,
    /// Numbers the combatant keeps toward each other combatant (combat.toml's `toward`
    /// names, `set toward NAME (EXPR)`): the name's place times the number of
    /// combatants, plus the other's place. Empty (nothing allocated) until one is set.
    pub toward: Vec<i64>,
    /// The figures of the scenario the fight's compiled expressions read (skills,
    /// characteristics, statistics: they do not change while it runs), looked up once
    /// when the fight is set up, by their place among the combat's fixed reads.
    pub fixed: Vec<i64>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    pub hit_points: i64,
    pub max_hit_points: i64,
    pub armour: i64,
    /// The worst wound level reached here, where an exchange judges wounds once per
    /// location (`wounds_once_per_location`): a blow that leaves the location no worse
    /// is no new wound.
    pub worst_wound: Option<Name>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeaponState {
    pub id: Name,
    pub hit_points: i64,
    pub place: WeaponPlace,
    /// Dropped where it struck: left in this combatant's wound (a blow that leaves it there), until
    /// it is readied again.
    pub lodged_in: Option<usize>,
    /// The weapon's traits as bits ([`crate::engine::model::Weapon::trait_bits`]).
    pub trait_bits: u64,
    /// Where the ruleset's equipment lists it ([`crate::engine::model::Equipment::index_of`]);
    /// `None` for a name it does not list.
    pub equipment_index: Option<u32>,
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
    /// Its bit among the ruleset's conditions (`Vocabulary::condition_bit`; 0 past the
    /// 64th, which is found by name).
    pub bit: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Remaining {
    /// The combatant's own actions (spent or lost).
    Actions(i64),
    /// Round ends.
    Rounds(i64),
    /// The ends of the combatant's own turns.
    Turns(i64),
}

impl Combatant {
    /// `weapon` gives a weapon's hit points, trait bits and place in the equipment.
    pub fn new(
        spec: Arc<CombatantSpec>,
        locations: &[Name],
        weapon: impl Fn(Name) -> (i64, u64, Option<u32>),
    ) -> Self {
        // A `total` pool given beside a hit location table is one more location.
        let total = crate::name!("total");
        let pool =
            (!locations.contains(&total) && spec.hit_points.contains_key("total")).then_some(total);
        let locations = locations
            .iter()
            .chain(pool.iter())
            .map(|&name| {
                let hit_points = spec.hit_points.get(name.as_str()).copied().unwrap_or(0);
                let location = Location {
                    hit_points,
                    max_hit_points: hit_points,
                    armour: i64::from(spec.armour.get(name.as_str()).copied().unwrap_or(0)),
                    worst_wound: None,
                };
                (name, location)
            })
            .collect();
        let weapons = spec
            .weapons
            .iter()
            .map(|&id| {
                let (hit_points, trait_bits, equipment_index) = weapon(id);
                WeaponState {
                    id,
                    hit_points,
                    place: WeaponPlace::InHand,
                    lodged_in: None,
                    trait_bits,
                    equipment_index,
                }
            })
            .collect();
        let mut combatant = Combatant {
            spec,
            locations,
            weapons,
            in_hand_traits: 0,
            conditions: Vec::new(),
            condition_bits: 0,
            initiative: 0,
            rolled_initiative: None,
            actions_left: 0,
            actions_to_lose: 0,
            out: false,
            values: NameList::default(),
            toward: Vec::new(),
            fixed: Vec::new(),
        };
        combatant.refresh_in_hand();
        combatant
    }

    /// The value of the `toward` name `index` kept toward the combatant `other`, of
    /// `count` in the fight: 0 until one is set.
    #[inline]
    pub fn toward(&self, index: u32, other: usize, count: usize) -> i64 {
        self.toward
            .get(index as usize * count + other)
            .copied()
            .unwrap_or(0)
    }

    /// Keep `value` as the `toward` name `index` (of `names`) toward `other` (of `count`).
    pub fn set_toward(
        &mut self,
        (index, names): (u32, usize),
        other: usize,
        count: usize,
        value: i64,
    ) {
        if self.toward.is_empty() {
            self.toward = vec![0; names * count];
        }
        if let Some(kept) = self.toward.get_mut(index as usize * count + other) {
            *kept = value;
        }
    }

    /// Work out [`Combatant::in_hand_traits`] again, after a weapon changed place.
    pub fn refresh_in_hand(&mut self) {
        self.in_hand_traits = self
            .weapons
            .iter()
            .filter(|w| w.place == WeaponPlace::InHand)
            .fold(0, |bits, w| bits | w.trait_bits);
    }

    pub fn name(&self) -> Name {
        self.spec.name
    }

    pub fn has_condition(&self, name: Name) -> bool {
        self.conditions.iter().any(|c| c.name == name)
    }

    /// The conditions in effect, in the order they were set.
    pub fn conditions(&self) -> &[ActiveCondition] {
        &self.conditions
    }

    /// Set a condition, replacing its duration if it is already in effect.
    pub fn set_condition(&mut self, condition: ActiveCondition) {
        self.conditions.retain(|c| c.name != condition.name);
        self.conditions.push(condition);
        self.refresh_condition_bits();
    }

    /// End a condition; whether it was in effect.
    pub fn clear_condition(&mut self, name: Name) -> bool {
        let before = self.conditions.len();
        self.conditions.retain(|c| c.name != name);
        self.refresh_condition_bits();
        self.conditions.len() < before
    }

    /// Count every timed condition down by `step`; those that run out end, and are
    /// handed to `ended` in the order they were set.
    pub fn tick_conditions(
        &mut self,
        step: impl Fn(Remaining) -> Remaining,
        mut ended: impl FnMut(Name),
    ) {
        let over = |remaining: Option<Remaining>| {
            matches!(
                remaining,
                Some(Remaining::Actions(n) | Remaining::Rounds(n) | Remaining::Turns(n)) if n <= 0
            )
        };
        let mut any_over = false;
        for condition in &mut self.conditions {
            condition.remaining = condition.remaining.map(&step);
            any_over |= over(condition.remaining);
        }
        // Most ticks end nothing (a turn's end, no condition timed in turns): then the
        // list and its bits stay as they are.
        if !any_over {
            return;
        }
        self.conditions.retain(|condition| {
            let over = over(condition.remaining);
            if over {
                ended(condition.name);
            }
            !over
        });
        self.refresh_condition_bits();
    }

    fn refresh_condition_bits(&mut self) {
        self.condition_bits = self.conditions.iter().fold(0, |bits, c| bits | c.bit);
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
