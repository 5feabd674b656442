//! What an expression may read of a fight, and how its names become slots: the scope
//! that rules written in the ruleset's TOML files (tactics lists today, the exchange's
//! guards next) are compiled against, and the environment that reads those slots while
//! the fight runs. Names are resolved when the ruleset loads; a fight reads by index.

use crate::expr::{Domain, DomainId, Env, NO_DOMAIN, Resolution, Scope, Slot, Type};
use crate::source::Spanned;

use super::{Core, WeaponPlace};
use crate::ruleset::Equipment;

/// The names of a ruleset that expressions may use: what the ruleset declares, so that
/// a misspelt one is a `check` error.
#[derive(Clone, Debug, Default)]
pub struct Vocabulary {
    pub characteristics: Vec<String>,
    pub conditions: Vec<String>,
    /// Statistics whose values are numbers.
    pub statistics: Vec<String>,
    pub combatant_options: Vec<String>,
    pub fight_options: Vec<String>,
    pub weapon_traits: Vec<String>,
}

/// Which combatant a name is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    /// `self`: the one who decides (or acts).
    Me,
    /// `other`: the combatant an option names (a target), when it names one.
    Other,
}

/// What a slot reads. Names a ruleset does not declare (skills, values kept by scripts,
/// option names) are kept as written and read by name.
#[derive(Clone, Debug, PartialEq)]
pub enum Read {
    Characteristic(Who, String),
    Skill(Who, String),
    Statistic(Who, String),
    Value(Who, String),
    Condition(Who, String),
    Option(Who, String),
    /// Whether a weapon in hand has the trait.
    Holds(Who, String),
    ActionsLeft(Who),
    /// Hit points left, over every location (or the pool).
    HitPoints(Who),
    /// Hit points lost so far, over every location.
    HitPointsLost(Who),
    /// Opponents still in the fight.
    Opponents(Who),
    /// Allies still in the fight, itself not counted.
    Allies(Who),
    /// Opponents at distance 0.
    Engaged(Who),
    /// The distance between `self` and `other`.
    Distance,
    Round,
    FightOption(String),
    /// Whether the decision offers this option.
    Offered(String),
}

/// Fields a combatant has besides its declared names.
const FIELDS: [&str; 12] = [
    "skill",
    "statistic",
    "value",
    "option",
    "holds",
    "actions_left",
    "hit_points",
    "hit_points_lost",
    "opponents",
    "allies",
    "engaged",
    "distance",
];

/// The names a tactics rule may use for one decision: `self`, `other`, `offered`, the
/// fight. Every path resolved is kept, its index the slot.
pub struct DecisionScope<'v> {
    pub vocabulary: &'v Vocabulary,
    pub reads: Vec<Read>,
    pub place: String,
}

impl<'v> DecisionScope<'v> {
    pub fn new(vocabulary: &'v Vocabulary, place: String) -> Self {
        DecisionScope {
            vocabulary,
            reads: Vec::new(),
            place,
        }
    }

    fn slot(&mut self, read: Read, ty: Type) -> Resolution {
        let index = match self.reads.iter().position(|known| *known == read) {
            Some(index) => index,
            None => {
                self.reads.push(read);
                self.reads.len() - 1
            }
        };
        Resolution::Found(Slot(index as u32), ty)
    }

    fn combatant(&mut self, who: Who, path: &[Spanned<String>]) -> Resolution {
        let words: Vec<&str> = path.iter().map(|w| w.value.as_str()).collect();
        let vocabulary = self.vocabulary;
        let declared = |list: &[String], name: &str| list.iter().any(|n| n == name);
        let unknown = |at: usize, known: Vec<String>| Resolution::Unknown { at, known };
        match words[1..] {
            [name] if declared(&vocabulary.characteristics, name) => {
                self.slot(Read::Characteristic(who, name.into()), Type::Number)
            }
            [name] if declared(&vocabulary.conditions, name) => {
                self.slot(Read::Condition(who, name.into()), Type::Bool)
            }
            ["actions_left"] => self.slot(Read::ActionsLeft(who), Type::Number),
            ["hit_points"] => self.slot(Read::HitPoints(who), Type::Number),
            ["hit_points_lost"] => self.slot(Read::HitPointsLost(who), Type::Number),
            ["opponents"] => self.slot(Read::Opponents(who), Type::Number),
            ["allies"] => self.slot(Read::Allies(who), Type::Number),
            ["engaged"] => self.slot(Read::Engaged(who), Type::Number),
            ["distance"] if who == Who::Other => self.slot(Read::Distance, Type::Number),
            // Skills and values are not declared by the ruleset: any name is read, and
            // one the combatant lacks reads 0.
            ["skill", name] => self.slot(Read::Skill(who, name.into()), Type::Number),
            ["value", name] => self.slot(Read::Value(who, name.into()), Type::Number),
            ["statistic", name] if declared(&vocabulary.statistics, name) => {
                self.slot(Read::Statistic(who, name.into()), Type::Number)
            }
            ["statistic", _] => unknown(2, vocabulary.statistics.clone()),
            ["option", name] if declared(&vocabulary.combatant_options, name) => {
                self.slot(Read::Option(who, name.into()), Type::Bool)
            }
            ["option", _] => unknown(2, vocabulary.combatant_options.clone()),
            ["holds", name] if declared(&vocabulary.weapon_traits, name) => {
                self.slot(Read::Holds(who, name.into()), Type::Bool)
            }
            ["holds", _] => unknown(2, vocabulary.weapon_traits.clone()),
            _ => {
                let known = vocabulary
                    .characteristics
                    .iter()
                    .chain(&vocabulary.conditions)
                    .cloned()
                    .chain(FIELDS.iter().map(|f| f.to_string()))
                    .collect();
                unknown(1, known)
            }
        }
    }
}

impl Scope for DecisionScope<'_> {
    fn resolve(&mut self, path: &[Spanned<String>]) -> Resolution {
        let words: Vec<&str> = path.iter().map(|w| w.value.as_str()).collect();
        match words.as_slice() {
            ["self", _, ..] => self.combatant(Who::Me, path),
            ["other", _, ..] => self.combatant(Who::Other, path),
            ["offered", option] => self.slot(Read::Offered((*option).into()), Type::Bool),
            ["round"] => self.slot(Read::Round, Type::Number),
            ["fight", "option", name]
                if self.vocabulary.fight_options.iter().any(|n| n == name) =>
            {
                self.slot(Read::FightOption((*name).into()), Type::Bool)
            }
            ["fight", "option", _] => Resolution::Unknown {
                at: 2,
                known: self.vocabulary.fight_options.clone(),
            },
            _ => Resolution::Unknown {
                at: 0,
                known: ["self", "other", "offered", "round", "fight"]
                    .map(String::from)
                    .to_vec(),
            },
        }
    }

    fn domain(&self, _: DomainId) -> &Domain {
        // No symbol is handed out yet: every read is a number or a condition.
        NO_DOMAIN
    }

    fn may_roll(&self) -> bool {
        false
    }

    fn place(&self) -> String {
        self.place.clone()
    }
}

/// A decision as its rules read it: the fight's state, the decider, the combatant the
/// option under consideration names (if any), and the options offered.
pub struct DecisionView<'a> {
    pub core: &'a Core,
    pub equipment: &'a Equipment,
    pub fight_options: &'a [String],
    pub reads: &'a [Read],
    pub me: usize,
    pub other: Option<usize>,
    pub offered: &'a [String],
}

impl DecisionView<'_> {
    fn who(&self, who: Who) -> Option<usize> {
        match who {
            Who::Me => Some(self.me),
            Who::Other => self.other,
        }
    }

    fn read_number(&self, read: &Read) -> i64 {
        let core = self.core;
        let combatant = |who: Who| self.who(who).map(|index| &core.combatants[index]);
        let side_count = |who: Who, same: bool, engaged: bool| -> i64 {
            let Some(index) = self.who(who) else { return 0 };
            let side = &core.combatants[index].spec.side;
            let count = core.combatants.len();
            (0..count)
                .filter(|&i| i != index && !core.combatants[i].out)
                .filter(|&i| (core.combatants[i].spec.side == *side) == same)
                .filter(|&i| !engaged || core.distances[index * count + i] == 0)
                .count() as i64
        };
        match read {
            Read::Characteristic(who, name) => combatant(*who)
                .and_then(|c| c.spec.characteristics.get(name).copied())
                .unwrap_or(0),
            Read::Skill(who, name) => combatant(*who).map_or(0, |c| c.skill(name)),
            Read::Statistic(who, name) => combatant(*who)
                .and_then(|c| match c.statistic(name) {
                    Some(crate::scenario::Statistic::Number(n)) => Some(*n),
                    _ => None,
                })
                .unwrap_or(0),
            Read::Value(who, name) => combatant(*who)
                .and_then(|c| c.values.get(name).copied())
                .unwrap_or(0),
            Read::ActionsLeft(who) => combatant(*who).map_or(0, |c| c.actions_left),
            Read::HitPoints(who) => {
                combatant(*who).map_or(0, |c| c.locations.values().map(|l| l.hit_points).sum())
            }
            Read::HitPointsLost(who) => combatant(*who).map_or(0, |c| {
                c.locations
                    .values()
                    .map(|l| l.max_hit_points - l.hit_points)
                    .sum()
            }),
            Read::Opponents(who) => side_count(*who, false, false),
            Read::Allies(who) => side_count(*who, true, false),
            Read::Engaged(who) => side_count(*who, false, true),
            Read::Distance => self.other.map_or(0, |other| {
                core.distances[self.me * core.combatants.len() + other]
            }),
            Read::Round => i64::from(core.round),
            _ => 0,
        }
    }
}

impl Env for DecisionView<'_> {
    fn number(&self, slot: Slot) -> i64 {
        self.read_number(&self.reads[slot.0 as usize])
    }

    fn flag(&self, slot: Slot) -> bool {
        let core = self.core;
        let combatant = |who: Who| self.who(who).map(|index| &core.combatants[index]);
        match &self.reads[slot.0 as usize] {
            Read::Condition(who, name) => combatant(*who).is_some_and(|c| c.has_condition(name)),
            Read::Option(who, name) => {
                combatant(*who).is_some_and(|c| c.spec.options.contains(name))
            }
            Read::Holds(who, name) => combatant(*who).is_some_and(|c| {
                c.weapons
                    .iter()
                    .filter(|held| held.place == WeaponPlace::InHand)
                    .filter_map(|held| {
                        let equipment = self.equipment;
                        equipment
                            .weapons
                            .get(&held.id)
                            .or_else(|| equipment.shields.get(&held.id))
                    })
                    .any(|weapon| weapon.traits.iter().any(|t| t == name))
            }),
            Read::FightOption(name) => self.fight_options.contains(name),
            Read::Offered(option) => self.offered.contains(option),
            _ => false,
        }
    }
}
