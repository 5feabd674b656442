//! What an expression may read of a fight, and how its names become slots: the scope
//! that rules written in the ruleset's TOML files (tactics lists, `combat.toml`'s turn,
//! tests and exchanges) are compiled against, and the reader of those slots while the
//! fight runs. Names are resolved when the ruleset loads; a fight reads by index.
//!
//! Which names exist depends on the [`Place`] an expression is written at: a tactics
//! rule reads the option it weighs, a test's level reads its roll, a stage of an
//! exchange reads the attacker, the defender, the weapon and the attack's result.

use crate::expr::{Domain, DomainId, Env, LookupRows, NO_DOMAIN, Resolution, Scope, Slot, Type};
use crate::names::Name;
use crate::source::Spanned;
use crate::tables::{Key, Table, TableKind, Value};

use super::tactics::{Pick, Rule};
use super::{Core, WeaponPlace};
use crate::engine::model::{Equipment, Weapon};

/// The names of a ruleset that expressions may use: what the ruleset declares, so that
/// a misspelt one is a `check` error.
#[derive(Clone, Debug, Default)]
pub struct Vocabulary {
    pub characteristics: Vec<String>,
    pub conditions: Vec<String>,
    /// The same, interned: a fight finds a condition's bit by comparing pointers.
    pub condition_names: Vec<Name>,
    /// Statistics whose values are numbers.
    pub statistics: Vec<String>,
    pub combatant_options: Vec<String>,
    pub fight_options: Vec<String>,
    pub weapon_traits: Vec<String>,
    /// Smallest first; `item.size` is one of them.
    pub weapon_sizes: Vec<String>,
    /// Shortest first; `item.reach` is one of them.
    pub weapon_reaches: Vec<String>,
    /// Statistics whose values are texts (`skill_of` reads the skill one names).
    pub text_statistics: Vec<String>,
    /// Statistics whose values are dice (`damage_modifier = "+1D4"`), rolled where read.
    pub dice_statistics: Vec<String>,
    /// Best first; a test's `level` is one of them.
    pub success_levels: Vec<Name>,
    /// The situational modifiers of every modifier list (`self.modifier.prone`).
    pub modifiers: Vec<String>,
    /// The rows of the hit location table, in its order (`location == "head"`).
    pub locations: Vec<String>,
    /// The names equipment.toml's weapons and shields give a number in `values`
    /// (`weapon.value.min_st`), in the order first met; `None` while equipment.toml did
    /// not load, when any name is taken (its own problems are reported instead).
    pub weapon_values: Option<Vec<String>>,
    /// The same of equipment.toml's armour (`location.worn.NAME`).
    pub armour_values: Option<Vec<String>>,
    /// The values a combatant keeps toward each other combatant (combat.toml's `toward`:
    /// `set toward NAME (EXPR)`, read as `self.toward.NAME`); empty without combat.toml.
    pub toward: Vec<String>,
}

impl Vocabulary {
    /// The bit of a declared condition in [`crate::engine::Combatant::condition_bits`]:
    /// the first 64 conditions have one, the rest (0) are found by name.
    pub fn condition_bit(&self, name: &str) -> u64 {
        bit_at(self.conditions.iter().position(|c| c == name))
    }

    /// [`Vocabulary::condition_bit`] of a name met in a fight; `None` for a name that is
    /// not a declared condition.
    pub fn condition_bit_of(&self, name: Name) -> Option<u64> {
        let at = self.condition_names.iter().position(|c| *c == name)?;
        Some(bit_at(Some(at)))
    }
}

/// The bit of the name at place `at` of a declared list (conditions, weapon traits):
/// the first 64 have one, the rest 0 (found by name instead).
pub(crate) fn bit_at(at: Option<usize>) -> u64 {
    at.filter(|&at| at < 64).map_or(0, |at| 1 << at)
}

/// The domains expressions may compare with quoted names.
const SIZES: DomainId = DomainId(0);
const REACHES: DomainId = DomainId(1);
const LEVELS: DomainId = DomainId(2);
const LOCATIONS: DomainId = DomainId(3);
const WOUNDS: DomainId = DomainId(4);

/// Where an expression is written: what its names may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A tactics rule: `self` decides, `other`, `item` and `location` are what the
    /// option weighed names, `offered` the options.
    Decision,
    /// The turn (`combat.toml` `[turn]`): `self` is the combatant whose turn it is.
    Turn,
    /// A test kind: `self` tests against `other` with `weapon`; `roll`, `total` and
    /// `target` are the test's numbers.
    Test,
    /// A stage of an exchange: `attacker` (also `self`), `defender` (also `other`), the
    /// attacker's `weapon` and the `attack`'s result.
    Exchange,
}

/// Which combatant a name is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    /// `self`: the one who decides (or acts).
    Me,
    /// `other`: the combatant an option names (a target), when it names one.
    Other,
    /// `winner`, `loser`: who won the exchange's outcome, and who lost it.
    Winner,
    Loser,
}

impl Who {
    /// The combatant this names in `bound`, if it names one there.
    #[inline]
    pub fn of(self, bound: &Bound<'_>) -> Option<usize> {
        let won = |attacker: bool| {
            bound.outcome.and_then(|(attacker_won, _)| {
                if attacker_won == attacker {
                    Some(bound.me)
                } else {
                    bound.other
                }
            })
        };
        match self {
            Who::Me => Some(bound.me),
            Who::Other => bound.other,
            Who::Winner => won(true),
            Who::Loser => won(false),
        }
    }
}

/// Whether every bit of `mask` is set among the combatant's bits `of` (`every`), or
/// some one.
#[inline]
pub fn bits_hold(combatant: &super::Combatant, of: BitsOf, mask: u64, every: bool) -> bool {
    let set = mask
        & match of {
            BitsOf::Conditions => combatant.condition_bits,
            BitsOf::InHand => combatant.in_hand_traits,
        };
    if every { set == mask } else { set != 0 }
}

/// Which of a combatant's bits a [`Read::Bits`] tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BitsOf {
    /// The conditions in effect ([`crate::engine::Combatant::condition_bits`]).
    Conditions,
    /// The traits of the weapons in hand ([`crate::engine::Combatant::in_hand_traits`]).
    InHand,
}

/// What a slot reads. Names a ruleset does not declare (skills, values kept by scripts,
/// option names) are kept as written and read by name.
#[derive(Clone, Debug, PartialEq)]
pub enum Read {
    Characteristic(Who, Name),
    Skill(Who, Name),
    Statistic(Who, Name),
    /// A dice statistic, rolled where read.
    StatisticDice(Who, Name),
    /// `self.dice.fighting`: a skill as its die code (`4D6+2`), a number skill as that
    /// number, a skill the combatant lacks as no dice. Of several (`self.dice.fighting
    /// or self.dice.dexterity`), the first the combatant has.
    SkillDice(Who, Box<[Name]>),
    /// Whether the scenario gives this situational modifier to the combatant or to the
    /// whole fight.
    ScenarioModifier(Who, Name),
    Value(Who, Name),
    /// `self.toward.NAME`: the value the combatant keeps toward the other party bound
    /// (`other` for `self`, `self` for every other combatant), by the name's place among
    /// the vocabulary's `toward`; 0 until one is set.
    Toward(Who, u32),
    /// Whether the combatant has the condition; its bit ([`Vocabulary::condition_bit`],
    /// 0: read by name).
    Condition(Who, Name, u64),
    Option(Who, Name),
    /// Whether a weapon in hand has the trait; its bit among `weapon_traits` (0 past the
    /// 64th, read by name).
    Holds(Who, Name, u64),
    /// Several of one combatant's bits read together (made by specialising, from a
    /// list of reads of them side by side): whether `every` bit of `mask` is set, or
    /// some one.
    Bits {
        who: Who,
        of: BitsOf,
        mask: u64,
        every: bool,
    },
    /// Whether none of a combatant's values `names` holds anything but 0, read at once:
    /// `self.value.a == 0 and self.value.b == 0` fused when a combat is specialised.
    /// `mask` is the names' bits in a value list ([`crate::names::NameList::bit`]).
    NoValues {
        who: Who,
        names: Box<[Name]>,
        mask: u64,
    },
    ActionsLeft(Who),
    /// Hit points left, over every location (or the pool).
    HitPoints(Who),
    /// Hit points lost so far, over every location.
    HitPointsLost(Who),
    /// Opponents still in the fight.
    Opponents(Who),
    /// Whether the combatant is out of the fight (as judged after the last turn).
    Out(Who),
    /// The armour points worn, over every location.
    Armour(Who),
    /// How many weapons (shields too) the combatant holds in hand.
    InHand(Who),
    /// Allies still in the fight, itself not counted.
    Allies(Who),
    /// Opponents at distance 0.
    Engaged(Who),
    /// The combatant's number: its place in the scenario, the first 1, so that a value
    /// may name it (`set held_by (winner.number)`, read by `contest ... of held_by`)
    /// and 0 names nobody.
    Number(Who),
    /// The distance between `self` and `other`.
    Distance,
    Round,
    FightOption(Name),
    /// Whether the decision offers this option.
    Offered(Name),
    /// Whether the scenario gives the combatant this statistic.
    Given(Who, Name),
    /// The skill a text statistic names (`combat_style = "sword_and_shield"`), or the
    /// first skill listed when the statistic is not given.
    SkillOf(Who, Name),
    /// The skill the weapon bound as `item` names (equipment.toml `skill`), as the
    /// combatant has it: 0 for a weapon that names none or a skill it lacks (systems
    /// where each weapon has its own skill, the attack's and the parry's alike).
    WeaponSkill(Who),
    /// A trait of `item`: the weapon an option names, or the one `any(weapons, ...)` is at.
    ItemTrait(Name),
    ItemSize,
    ItemReach,
    /// The hands `item` takes (equipment.toml `hands`, 1 when not given).
    ItemHands,
    /// A missile weapon's `range` (metres) and `load` (actions to load it again) as
    /// equipment.toml lists them: 0 for a weapon that gives none.
    ItemRange,
    ItemLoad,
    /// The Armour Points of `item`, and of the weapon the defender reacts with, as
    /// equipment.toml lists them (`parry.ap`: what a parry by that weapon stops).
    ItemArmour,
    ParryArmour,
    /// A number of equipment.toml's `values` of `item` (`weapon.value.min_st`), and of
    /// the weapon the defender reacts with (`parry.value.weight`): 0 for a weapon without it.
    ItemValue(Name),
    /// Whether equipment.toml's `values` of the item give the name at all (0 included):
    /// `item.given.NAME`, `weapon.given.NAME`.
    ItemGiven(Name),
    ParryValue(Name),
    /// `parry.given.NAME`, as [`Read::ItemGiven`].
    ParryGiven(Name),
    /// A number of equipment.toml's `values` of the armour worn at the location bound
    /// (`location.worn.NAME`): 0 where none is worn, or it gives none.
    LocationWorn(Name),
    /// The armour and hit points of `self`'s location that an option names.
    LocationArmour,
    LocationHitPoints,
    /// `any(opponents, ...)`: each opponent still in the fight in turn as `other`.
    EachOpponent,
    /// `count(combatants, ...)`: every combatant of the fight in turn as `other`, those
    /// out of it and `self` too, in scenario order.
    EachCombatant,
    /// `any(weapons, ...)`: each weapon `self` holds in turn as `item`; `carried` and
    /// `dropped` the same for weapons stowed, and dropped within reach.
    EachWeapon(WeaponPlace),
    /// The damage dice of `item` (`weapon.damage`), rolled where read.
    ItemDamage,
    /// The test being rolled: its die roll, its total and its target.
    TestRoll,
    TestTotal,
    TestTarget,
    /// The level of the test rolled, read once it is known (a test's `reroll`).
    TestLevel,
    /// The result of the exchange's attack test.
    Attack(TestField),
    /// The result of the defender's test (or the level an unopposed defence counts as).
    Defence(TestField),
    /// The level of the attacker's roll the reaction's table is read with: the roll again
    /// where the reaction's `attacker_rolls_again` held, else the attack's own.
    AgainstLevel,
    /// Whether the defender chose the exchange's reaction of this index (`None`: no
    /// reaction).
    Reaction(Option<u32>),
    /// Whether the attacker (`true`) or the defender won the outcome.
    OutcomeWon(bool),
    /// A word of the reaction's table of results written alone in the cell read
    /// (`outcome.misses`), and the number written after one (`outcome.deduct_ap`, 0
    /// when the cell lacks it), by the word's place among the exchange's.
    ResultWord(u8),
    ResultNumber(u8),
    /// The levels the outcome's winner won.
    OutcomeLevels,
    /// The blow's damage taken (after armour), and as rolled.
    Damage,
    Rolled,
    /// The maximum hit points of the location bound.
    LocationMaxHitPoints,
    /// The location bound, as a row of the hit location table.
    Location,
    /// The level of the wound the exchange's blow gave (`wound`), as a level of the
    /// exchange's wounds.
    Wound,
    /// The size and traits of the weapon the defender reacts with (`parry.size`).
    ParrySize,
    ParryTrait(Name),
    /// How many times the winner chose the effect of this index (`chosen.bleed`).
    Chosen(u8),
    /// Whether the test being rolled is the exchange's attack (not a defence or a
    /// resistance).
    Attacking,
}

/// A cell of a reaction's table of results as the exchange reads it: its words written
/// alone (a bit each, by their place among the exchange's words) and those written with
/// a number.
#[derive(Clone, Debug, Default)]
pub struct ResultCell {
    pub words: u64,
    pub numbers: Vec<(u8, i64)>,
    /// As written, for the log.
    pub text: String,
}

/// The most effects one list may hold: a count of each is kept on the stack.
pub const MAX_EFFECTS: usize = 64;

/// What a test's result offers (`attack.level`, `attack.roll`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TestField {
    Level,
    Roll,
    Total,
    Target,
    /// The first face of the test's exploding die (`exploding(n, sides)`), 0 if it
    /// rolled none.
    ExplodingDie,
}

/// A test as rolled: its level (the place in `success_levels`) and its numbers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TestResult {
    pub level: u32,
    pub roll: i64,
    pub total: i64,
    pub target: i64,
    /// 0 in a fight. In an enumeration, a test may be drawn by its level alone: then
    /// `roll` and `total` stand for every roll of that level until something reads them,
    /// and this is its place (the first 1) among the rolls kept to be drawn then
    /// ([`crate::engine::Core::refine`]).
    pub merged: u32,
}

impl TestResult {
    pub(crate) fn field(&self, field: TestField) -> i64 {
        match field {
            TestField::Level => i64::from(self.level),
            TestField::Roll => self.roll,
            TestField::Total => self.total,
            TestField::Target => self.target,
            // Kept beside the tests, not in them ([`Bound::exploding_dice`]).
            TestField::ExplodingDie => 0,
        }
    }
}

/// Fields a combatant has besides its declared names.
const FIELDS: [&str; 22] = [
    "given",
    "skill_of",
    "weapon_skill",
    "skill",
    "dice",
    "statistic",
    "value",
    "toward",
    "option",
    "holds",
    "modifier",
    "actions_left",
    "hit_points",
    "hit_points_lost",
    "opponents",
    "allies",
    "engaged",
    "distance",
    "out",
    "armour",
    "in_hand",
    "number",
];

/// The names an expression may use at a [`Place`]. Every path resolved is kept, its
/// index the slot; one scope may compile many expressions that share their reads.
pub struct FightScope<'v> {
    pub vocabulary: &'v Vocabulary,
    pub reads: Vec<Read>,
    /// What the place is, for messages: "the tactics for `target`".
    pub place: String,
    pub at: Place,
    /// Whether dice may be rolled (an initiative, a damage), not in a guard.
    pub may_roll: bool,
    /// Names not offered by the expression being compiled (a test's `total` cannot
    /// read itself).
    pub hidden: &'static [&'static str],
    /// The reactions of the exchange being compiled (`reaction.parry`).
    pub reactions: Vec<String>,
    /// The effects its winner may choose (`chosen.bleed`).
    pub effects: Vec<String>,
    /// The words of its reactions' tables of results, and whether each is a number
    /// (`outcome.deduct_ap`) or a flag (`outcome.misses`).
    pub results: Vec<(String, bool)>,
    /// The ruleset's tables, for `lookup(...)`.
    pub tables: Vec<&'v Table>,
    domains: [Domain; 5],
}

impl<'v> FightScope<'v> {
    pub fn new(vocabulary: &'v Vocabulary, at: Place, place: String) -> Self {
        let domain = |what: &str, members: &[String]| Domain {
            what: what.into(),
            members: members.to_vec(),
        };
        FightScope {
            vocabulary,
            reads: Vec::new(),
            place,
            at,
            may_roll: false,
            hidden: &[],
            reactions: Vec::new(),
            effects: Vec::new(),
            results: Vec::new(),
            tables: Vec::new(),
            domains: [
                domain("weapon size", &vocabulary.weapon_sizes),
                domain("weapon reach", &vocabulary.weapon_reaches),
                Domain {
                    what: "success level".into(),
                    members: vocabulary
                        .success_levels
                        .iter()
                        .map(|l| l.to_string())
                        .collect(),
                },
                domain("hit location", &vocabulary.locations),
                domain("wound level", &[]),
            ],
        }
    }

    /// The wound levels `wound` compares with: those of the exchange being compiled.
    pub fn set_wound_levels(&mut self, levels: Vec<String>) {
        self.domains[WOUNDS.0 as usize].members = levels;
    }

    /// The names this place offers at the top level, for messages.
    fn roots(&self) -> Vec<String> {
        let roots: &[&str] = match self.at {
            Place::Decision => &[
                "self", "other", "offered", "item", "location", "round", "fight",
            ],
            // `other` and `item` are bound by `any(opponents, ...)`, `any(weapons, ...)`.
            Place::Turn => &["self", "other", "item", "round", "fight"],
            // `level` only once the test has one (a test's `reroll`: hidden elsewhere).
            Place::Test => &[
                "self",
                "other",
                "weapon",
                "attacking",
                "roll",
                "total",
                "target",
                "level",
                "location",
                "round",
                "fight",
            ],
            Place::Exchange => &[
                "attacker", "defender", "self", "other", "winner", "loser", "weapon", "parry",
                "attack", "defence", "against", "reaction", "outcome", "chosen", "location",
                "wound", "damage", "rolled", "round", "fight",
            ],
        };
        roots
            .iter()
            .filter(|root| !self.hidden.contains(root))
            .map(|root| root.to_string())
            .collect()
    }

    /// `weapon.value.NAME`, `parry.value.NAME`: a number of equipment.toml's `values`,
    /// known when some weapon or shield gives it one (`at`: the place of NAME in the path).
    fn weapon_value(&mut self, name: &str, at: usize, read: fn(Name) -> Read) -> Resolution {
        self.weapon_values_name(name, at, read, Type::Number)
    }

    /// `weapon.given.NAME`, `parry.given.NAME`: whether the item's `values` give NAME
    /// (a number of 0 too), known as `weapon_value` knows NAME.
    fn weapon_given(&mut self, name: &str, at: usize, read: fn(Name) -> Read) -> Resolution {
        self.weapon_values_name(name, at, read, Type::Bool)
    }

    fn weapon_values_name(
        &mut self,
        name: &str,
        at: usize,
        read: fn(Name) -> Read,
        ty: Type,
    ) -> Resolution {
        match &self.vocabulary.weapon_values {
            Some(known) if !known.iter().any(|n| n == name) => Resolution::Unknown {
                at,
                known: known.clone(),
            },
            _ => self.slot(read(name.into()), ty),
        }
    }

    /// `item.size`, `weapon.damage`, ...: a weapon's fields.
    fn item(&mut self, path: &[&str]) -> Resolution {
        match path {
            ["value", name] => self.weapon_value(name, 2, Read::ItemValue),
            ["given", name] => self.weapon_given(name, 2, Read::ItemGiven),
            ["size"] => self.slot(Read::ItemSize, Type::Symbol(SIZES)),
            ["reach"] => self.slot(Read::ItemReach, Type::Symbol(REACHES)),
            ["hands"] => self.slot(Read::ItemHands, Type::Number),
            ["range"] => self.slot(Read::ItemRange, Type::Number),
            ["load"] => self.slot(Read::ItemLoad, Type::Number),
            ["ap"] => self.slot(Read::ItemArmour, Type::Number),
            ["damage"] if self.at != Place::Decision => self.slot(Read::ItemDamage, Type::Dice),
            [name] if self.vocabulary.weapon_traits.iter().any(|t| t == name) => {
                self.slot(Read::ItemTrait((*name).into()), Type::Bool)
            }
            _ => {
                let fields: &[&str] = if self.at == Place::Decision {
                    &[
                        "size", "reach", "hands", "range", "load", "ap", "value", "given",
                    ]
                } else {
                    &[
                        "size", "reach", "hands", "range", "load", "ap", "value", "given", "damage",
                    ]
                };
                Resolution::Unknown {
                    at: 1,
                    known: fields
                        .iter()
                        .map(|f| f.to_string())
                        .chain(self.vocabulary.weapon_traits.iter().cloned())
                        .collect(),
                }
            }
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
                let bit = vocabulary.condition_bit(name);
                self.slot(Read::Condition(who, name.into(), bit), Type::Bool)
            }
            ["actions_left"] => self.slot(Read::ActionsLeft(who), Type::Number),
            ["hit_points"] => self.slot(Read::HitPoints(who), Type::Number),
            ["hit_points_lost"] => self.slot(Read::HitPointsLost(who), Type::Number),
            ["opponents"] => self.slot(Read::Opponents(who), Type::Number),
            ["out"] => self.slot(Read::Out(who), Type::Bool),
            ["armour"] => self.slot(Read::Armour(who), Type::Number),
            ["in_hand"] => self.slot(Read::InHand(who), Type::Number),
            ["number"] => self.slot(Read::Number(who), Type::Number),
            ["allies"] => self.slot(Read::Allies(who), Type::Number),
            ["engaged"] => self.slot(Read::Engaged(who), Type::Number),
            ["distance"] if who == Who::Other => self.slot(Read::Distance, Type::Number),
            // Skills and values are not declared by the ruleset: any name is read, and
            // one the combatant lacks reads 0.
            ["skill", name] => self.slot(Read::Skill(who, name.into()), Type::Number),
            ["dice", name] => self.slot(Read::SkillDice(who, Box::new([name.into()])), Type::Dice),
            ["value", name] => self.slot(Read::Value(who, name.into()), Type::Number),
            ["toward", name] => match vocabulary.toward.iter().position(|n| n == name) {
                Some(at) => self.slot(Read::Toward(who, at as u32), Type::Number),
                None => unknown(2, vocabulary.toward.clone()),
            },
            ["statistic", name] if declared(&vocabulary.statistics, name) => {
                self.slot(Read::Statistic(who, name.into()), Type::Number)
            }
            ["statistic", name]
                if declared(&vocabulary.dice_statistics, name) && self.at != Place::Decision =>
            {
                self.slot(Read::StatisticDice(who, name.into()), Type::Dice)
            }
            ["statistic", _] => unknown(2, vocabulary.statistics.clone()),
            ["option", name] if declared(&vocabulary.combatant_options, name) => {
                self.slot(Read::Option(who, name.into()), Type::Bool)
            }
            ["option", _] => unknown(2, vocabulary.combatant_options.clone()),
            ["holds", name] if declared(&vocabulary.weapon_traits, name) => {
                let bit = bit_at(vocabulary.weapon_traits.iter().position(|t| t == name));
                self.slot(Read::Holds(who, name.into(), bit), Type::Bool)
            }
            ["holds", _] => unknown(2, vocabulary.weapon_traits.clone()),
            ["modifier", name] if declared(&vocabulary.modifiers, name) => {
                self.slot(Read::ScenarioModifier(who, name.into()), Type::Bool)
            }
            ["modifier", _] => unknown(2, vocabulary.modifiers.clone()),
            ["given", name]
                if declared(&vocabulary.statistics, name)
                    || declared(&vocabulary.text_statistics, name) =>
            {
                self.slot(Read::Given(who, name.into()), Type::Bool)
            }
            ["skill_of", name] if declared(&vocabulary.text_statistics, name) => {
                self.slot(Read::SkillOf(who, name.into()), Type::Number)
            }
            ["skill_of", _] => unknown(2, vocabulary.text_statistics.clone()),
            ["weapon_skill"] => self.slot(Read::WeaponSkill(who), Type::Number),
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

impl Scope for FightScope<'_> {
    fn either(&mut self, first: Slot, second: Slot) -> Option<Slot> {
        match (
            &self.reads[first.0 as usize],
            &self.reads[second.0 as usize],
        ) {
            (Read::SkillDice(who, names), Read::SkillDice(other, more)) if who == other => {
                let names: Box<[Name]> = names.iter().chain(more.iter()).copied().collect();
                match self.slot(Read::SkillDice(*who, names), Type::Dice) {
                    Resolution::Found(slot, _) => Some(slot),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    fn resolve(&mut self, path: &[Spanned<String>]) -> Resolution {
        let words: Vec<&str> = path.iter().map(|w| w.value.as_str()).collect();
        if self.hidden.contains(&words[0]) || !self.roots().iter().any(|r| r == words[0]) {
            return Resolution::Unknown {
                at: 0,
                known: self.roots(),
            };
        }
        let exchange = self.at == Place::Exchange;
        // A test rolled in an exchange reads the location found before it (none
        // elsewhere, nor before the exchange finds it).
        let located = exchange || self.at == Place::Test;
        match words.as_slice() {
            ["self", _, ..] => self.combatant(Who::Me, path),
            ["other", _, ..] => self.combatant(Who::Other, path),
            ["attacker", _, ..] => self.combatant(Who::Me, path),
            ["defender", _, ..] => self.combatant(Who::Other, path),
            ["winner", _, ..] => self.combatant(Who::Winner, path),
            ["loser", _, ..] => self.combatant(Who::Loser, path),
            ["offered", option] => self.slot(Read::Offered((*option).into()), Type::Bool),
            ["item" | "weapon", rest @ ..] if !rest.is_empty() => self.item(rest),
            // Which location: compared with the hit location table's rows.
            ["location"] if located => self.slot(Read::Location, Type::Symbol(LOCATIONS)),
            // The wound the blow gave: compared with the exchange's wound levels.
            ["wound"] if exchange => self.slot(Read::Wound, Type::Symbol(WOUNDS)),
            ["location", "armour"] => self.slot(Read::LocationArmour, Type::Number),
            ["location", "hit_points"] => self.slot(Read::LocationHitPoints, Type::Number),
            ["location", "max_hit_points"] => self.slot(Read::LocationMaxHitPoints, Type::Number),
            ["location", "worn", name] => match &self.vocabulary.armour_values {
                Some(known) if !known.iter().any(|n| n == name) => Resolution::Unknown {
                    at: 2,
                    known: known.clone(),
                },
                _ => self.slot(Read::LocationWorn((*name).into()), Type::Number),
            },
            ["location", _, ..] => Resolution::Unknown {
                at: 1,
                known: ["armour", "hit_points", "max_hit_points", "worn"]
                    .map(String::from)
                    .to_vec(),
            },
            ["parry", "size"] => self.slot(Read::ParrySize, Type::Symbol(SIZES)),
            ["parry", "ap"] => self.slot(Read::ParryArmour, Type::Number),
            ["parry", "value", name] => self.weapon_value(name, 2, Read::ParryValue),
            ["parry", "given", name] => self.weapon_given(name, 2, Read::ParryGiven),
            ["parry", name] if self.vocabulary.weapon_traits.iter().any(|t| t == name) => {
                self.slot(Read::ParryTrait((*name).into()), Type::Bool)
            }
            ["parry", _, ..] => Resolution::Unknown {
                at: 1,
                known: ["size", "ap", "value", "given"]
                    .map(String::from)
                    .into_iter()
                    .chain(self.vocabulary.weapon_traits.iter().cloned())
                    .collect(),
            },
            ["chosen", name] => match self.effects.iter().position(|e| e == name) {
                Some(at) => self.slot(Read::Chosen(at as u8), Type::Number),
                None => Resolution::Unknown {
                    at: 1,
                    known: self.effects.clone(),
                },
            },
            ["damage"] => self.slot(Read::Damage, Type::Number),
            ["rolled"] => self.slot(Read::Rolled, Type::Number),
            ["outcome", "attacker"] => self.slot(Read::OutcomeWon(true), Type::Bool),
            ["outcome", "defender"] => self.slot(Read::OutcomeWon(false), Type::Bool),
            ["outcome", "levels"] => self.slot(Read::OutcomeLevels, Type::Number),
            ["outcome", word] => match self.results.iter().position(|(w, _)| w == word) {
                Some(at) if self.results[at].1 => {
                    self.slot(Read::ResultNumber(at as u8), Type::Number)
                }
                Some(at) => self.slot(Read::ResultWord(at as u8), Type::Bool),
                None => Resolution::Unknown {
                    at: 1,
                    known: ["attacker", "defender", "levels"]
                        .map(String::from)
                        .into_iter()
                        .chain(self.results.iter().map(|(w, _)| w.clone()))
                        .collect(),
                },
            },
            ["reaction", "none"] => self.slot(Read::Reaction(None), Type::Bool),
            ["reaction", name] => match self.reactions.iter().position(|r| r == name) {
                Some(at) => self.slot(Read::Reaction(Some(at as u32)), Type::Bool),
                None => Resolution::Unknown {
                    at: 1,
                    known: self
                        .reactions
                        .iter()
                        .cloned()
                        .chain(["none".to_string()])
                        .collect(),
                },
            },
            ["roll"] => self.slot(Read::TestRoll, Type::Number),
            ["attacking"] => self.slot(Read::Attacking, Type::Bool),
            ["total"] => self.slot(Read::TestTotal, Type::Number),
            ["target"] => self.slot(Read::TestTarget, Type::Number),
            ["level"] => self.slot(Read::TestLevel, Type::Symbol(LEVELS)),
            ["against", "level"] if exchange => self.slot(Read::AgainstLevel, Type::Symbol(LEVELS)),
            ["against", _] if exchange => Resolution::Unknown {
                at: 1,
                known: vec!["level".to_string()],
            },
            [test @ ("attack" | "defence"), field] if exchange => {
                let (field, ty) = match *field {
                    "level" => (TestField::Level, Type::Symbol(LEVELS)),
                    "roll" => (TestField::Roll, Type::Number),
                    "total" => (TestField::Total, Type::Number),
                    "target" => (TestField::Target, Type::Number),
                    "exploding_die" => (TestField::ExplodingDie, Type::Number),
                    _ => {
                        return Resolution::Unknown {
                            at: 1,
                            known: ["level", "roll", "total", "target", "exploding_die"]
                                .map(String::from)
                                .to_vec(),
                        };
                    }
                };
                let read = if *test == "attack" {
                    Read::Attack(field)
                } else {
                    Read::Defence(field)
                };
                self.slot(read, ty)
            }
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
            [_] => Resolution::Unknown {
                at: 0,
                known: self.roots(),
            },
            _ => Resolution::Unknown {
                at: 1,
                known: Vec::new(),
            },
        }
    }

    fn domain(&self, id: DomainId) -> &Domain {
        self.domains.get(id.0 as usize).unwrap_or(NO_DOMAIN)
    }

    fn collection(&mut self, name: &str) -> Option<Slot> {
        let read = match name {
            "opponents" => Read::EachOpponent,
            "combatants" => Read::EachCombatant,
            "weapons" => Read::EachWeapon(WeaponPlace::InHand),
            "carried" => Read::EachWeapon(WeaponPlace::Carried),
            "dropped" => Read::EachWeapon(WeaponPlace::Dropped),
            _ => return None,
        };
        match self.slot(read, Type::Bool) {
            Resolution::Found(slot, _) => Some(slot),
            Resolution::Unknown { .. } => None,
        }
    }

    fn collections(&self) -> Vec<String> {
        vec![
            "opponents (each as other)".into(),
            "combatants (everyone, out of the fight too, each as other)".into(),
            "weapons (each in hand as item)".into(),
            "carried (each stowed as item)".into(),
            "dropped (each dropped within reach as item)".into(),
        ]
    }

    fn may_roll(&self) -> bool {
        self.may_roll
    }

    fn lookup(&self, name: &str, column: Option<&str>) -> Result<LookupRows, String> {
        let known = || {
            self.tables
                .iter()
                .filter(|t| matches!(t.kind, TableKind::Lookup(_)))
                .map(|t| t.name.value.clone())
                .collect::<Vec<_>>()
        };
        let Some(table) = self.tables.iter().find(|t| t.name.value == name) else {
            let known = known();
            return Err(match crate::names::suggest(name, &known) {
                Some(close) => format!("reads no table `{name}`: did you mean `{close}`?"),
                None => format!(
                    "reads no look-up table `{name}` (the look-up tables: {})",
                    known.join(", ")
                ),
            });
        };
        let TableKind::Lookup(lookup) = &table.kind else {
            return Err(format!("reads `{name}`, which is not a look-up table"));
        };
        let at = match column {
            None => 0,
            Some(column) => lookup
                .columns
                .iter()
                .position(|c| c.value == column)
                .ok_or_else(|| {
                    let columns: Vec<&str> =
                        lookup.columns.iter().map(|c| c.value.as_str()).collect();
                    format!(
                        "reads `{name}`, which has no column `{column}` (its columns: {})",
                        columns.join(", ")
                    )
                })?,
        };
        let mut rows = LookupRows::default();
        for row in &lookup.rows {
            let value = match row.cells.get(at).and_then(|cell| cell.value.as_ref()) {
                None => 0,
                Some(Value::Integer(n)) => *n,
                Some(Value::Percent(p)) => p.percent,
                Some(other) => {
                    return Err(format!(
                        "reads `{name}`, which holds `{other}`: lookup(...) reads numbers and percentages"
                    ));
                }
            };
            match &row.key.value {
                Key::Range(range) => rows.numbered.push((range.low, range.high, value)),
                Key::Name(key) => rows.named.push((key.clone(), value)),
            }
        }
        Ok(rows)
    }

    fn place(&self) -> String {
        self.place.clone()
    }
}

/// What the names of an expression stand for while it is read: who is `self` and
/// `other`, which weapon is `item`, the test being rolled, the attack's result.
#[derive(Clone, Copy, Debug)]
pub struct Bound<'a> {
    pub me: usize,
    pub other: Option<usize>,
    pub item: Option<&'a Weapon>,
    pub location: Option<Name>,
    /// The test being rolled: its roll, total and target so far.
    pub test: TestResult,
    pub attack: Option<TestResult>,
    pub defence: Option<TestResult>,
    /// The level of the attacker's roll the reaction's table is read with
    /// (`against.level`): only the level, which is all a rule reads of it (a smaller
    /// `Bound`, set up for every evaluation).
    pub against_level: Option<u32>,
    /// The reaction chosen (its index among the exchange's), if any.
    pub reaction: Option<u32>,
    /// Who won the outcome (`true`: the attacker) and by how many levels.
    pub outcome: Option<(bool, u32)>,
    /// Whose `location` is (the defender's in an exchange); `me` when `None`.
    pub location_of: Option<usize>,
    pub damage: i64,
    pub rolled: i64,
    /// The damage past the defence, before the armour.
    pub reached: i64,
    /// The wound the blow gave, as a place among the exchange's wound levels.
    pub wound: Option<u32>,
    /// The weapon the defender reacts with.
    pub parry: Option<&'a Weapon>,
    /// The cell of the reaction's table of results, once read.
    pub result: Option<&'a ResultCell>,
    /// How many times each effect of the exchange's list was chosen.
    pub chosen: [u8; MAX_EFFECTS],
    /// The test being rolled is the exchange's attack.
    pub attacking: bool,
    /// The first face of the attack's and of the defence's exploding die (`exploding(n, sides)`),
    /// 0 where none was rolled: beside the tests, so that a test stays small to copy.
    pub exploding_dice: [u16; 2],
}

impl Default for Bound<'_> {
    fn default() -> Self {
        Bound {
            me: 0,
            other: None,
            item: None,
            location: None,
            test: TestResult::default(),
            attack: None,
            defence: None,
            against_level: None,
            reaction: None,
            outcome: None,
            location_of: None,
            damage: 0,
            rolled: 0,
            reached: 0,
            wound: None,
            parry: None,
            result: None,
            chosen: [0; MAX_EFFECTS],
            attacking: false,
            exploding_dice: [0; 2],
        }
    }
}

/// How many others than the combatant at `index` still in the fight are on its side
/// (`same`) or not, only those at no distance from it where `engaged`
/// (`self.allies`, `self.opponents`, `self.engaged`).
pub(crate) fn side_count(core: &Core, index: usize, same: bool, engaged: bool) -> i64 {
    let side = &core.combatants[index].spec.side;
    let count = core.combatants.len();
    (0..count)
        .filter(|&i| i != index && !core.combatants[i].out)
        .filter(|&i| (core.combatants[i].spec.side == *side) == same)
        .filter(|&i| !engaged || core.distances[index * count + i] == 0)
        .count() as i64
}

/// A figure of the hit location bound (`location.hit_points`, ...), of the combatant
/// whose location it is; 0 with none bound.
#[inline]
pub(crate) fn location_figure(
    core: &Core,
    bound: &Bound<'_>,
    figure: impl Fn(&crate::engine::state::Location) -> i64,
) -> i64 {
    let owner = bound.location_of.unwrap_or(bound.me);
    bound
        .location
        .and_then(|name| core.combatants[owner].locations.get(&name))
        .map_or(0, figure)
}

impl Bound<'_> {
    /// A field of the attack (`defence` false) or of the defence, 0 without one.
    #[inline]
    pub fn test_field(&self, defence: bool, field: TestField) -> i64 {
        match field {
            TestField::ExplodingDie => i64::from(self.exploding_dice[usize::from(defence)]),
            _ => {
                let test = if defence { self.defence } else { self.attack };
                test.map_or(0, |test| test.field(field))
            }
        }
    }

    /// The attacker and the defender of the exchange being run (`self` and `other`).
    pub fn parties(&self) -> (usize, usize) {
        (self.me, self.other.unwrap_or(self.me))
    }

    /// A number read of what is bound alone (the test being rolled, the exchange so
    /// far, the item), without the fight's state; `None` for a read of the state.
    #[inline]
    pub fn number(&self, read: &Read) -> Option<i64> {
        Some(match read {
            Read::Defence(field) => self.test_field(true, *field),
            Read::ItemHands => self.item.map_or(0, |w| w.hands.map_or(1, i64::from)),
            Read::ItemRange => self.item.and_then(|w| w.range).map_or(0, i64::from),
            Read::ItemLoad => self.item.and_then(|w| w.load).map_or(0, i64::from),
            Read::ItemArmour => self.item.map_or(0, |w| i64::from(w.ap)),
            Read::ParryArmour => self.parry.map_or(0, |w| i64::from(w.ap)),
            Read::ItemValue(name) => self.item.map_or(0, |w| w.value(name)),
            Read::ParryValue(name) => self.parry.map_or(0, |w| w.value(name)),
            Read::OutcomeLevels => self.outcome.map_or(0, |(_, levels)| i64::from(levels)),
            Read::ResultNumber(word) => self
                .result
                .and_then(|cell| cell.numbers.iter().find(|(w, _)| w == word))
                .map_or(0, |(_, number)| *number),
            Read::Damage => self.damage,
            Read::Chosen(index) => i64::from(self.chosen[*index as usize]),
            Read::Rolled => self.rolled,
            Read::TestRoll => self.test.roll,
            Read::TestTotal => self.test.total,
            Read::TestTarget => self.test.target,
            Read::Attack(field) => self.test_field(false, *field),
            _ => return None,
        })
    }

    /// A flag read of what is bound alone; `None` for a read of the fight's state.
    #[inline]
    pub fn flag(&self, read: &Read) -> Option<bool> {
        Some(match read {
            Read::ItemTrait(name) => self.item.is_some_and(|w| w.traits.contains(name)),
            Read::ItemGiven(name) => self.item.is_some_and(|w| w.gives(name)),
            Read::ParryGiven(name) => self.parry.is_some_and(|w| w.gives(name)),
            Read::Reaction(index) => self.reaction == *index,
            Read::Attacking => self.attacking,
            Read::ParryTrait(name) => self.parry.is_some_and(|w| w.traits.contains(name)),
            Read::OutcomeWon(attacker) => self.outcome.is_some_and(|(won, _)| won == *attacker),
            Read::ResultWord(word) => self
                .result
                .is_some_and(|cell| cell.words & (1 << word) != 0),
            _ => return None,
        })
    }

    /// A symbol: the place in `vocabulary`'s list of the member `read` gives. A symbol
    /// reads what is bound alone, never the fight's state.
    pub fn symbol(&self, vocabulary: &Vocabulary, read: &Read) -> u32 {
        let place = |list: &[String], name: Option<&Name>| {
            name.and_then(|name| list.iter().position(|n| name == n))
                .map_or(u32::MAX, |at| at as u32)
        };
        let item = self.item;
        match read {
            Read::ItemSize => place(&vocabulary.weapon_sizes, item.and_then(|w| w.size.as_ref())),
            Read::ItemReach => place(
                &vocabulary.weapon_reaches,
                item.and_then(|w| w.reach.as_ref()),
            ),
            Read::ParrySize => place(
                &vocabulary.weapon_sizes,
                self.parry.and_then(|w| w.size.as_ref()),
            ),
            Read::Location => place(&vocabulary.locations, self.location.as_ref()),
            Read::TestLevel => self.test.level,
            Read::Attack(TestField::Level) => self.attack.map_or(u32::MAX, |a| a.level),
            Read::Defence(TestField::Level) => self.defence.map_or(u32::MAX, |d| d.level),
            Read::AgainstLevel => self.against_level.unwrap_or(u32::MAX),
            Read::Wound => self.wound.unwrap_or(u32::MAX),
            _ => u32::MAX,
        }
    }
}

/// What a collection's body (`any(opponents, ...)`) binds, saved to be put back. The
/// first few levels of nesting are kept in place: an environment lives for one
/// expression, and a guard's `any(...)` would otherwise allocate each time it is read.
#[derive(Default)]
pub struct SavedBindings<'a> {
    inline: [Saved<'a>; SavedBindings::INLINE],
    depth: usize,
    deeper: Vec<Saved<'a>>,
}

type Saved<'a> = (Option<usize>, Option<&'a Weapon>);

impl<'a> SavedBindings<'a> {
    const INLINE: usize = 4;

    pub fn enter(&mut self, bound: &Bound<'a>) {
        let saved = (bound.other, bound.item);
        match self.inline.get_mut(self.depth) {
            Some(slot) => *slot = saved,
            None => self.deeper.push(saved),
        }
        self.depth += 1;
    }

    pub fn leave(&mut self, bound: &mut Bound<'a>) {
        let Some(depth) = self.depth.checked_sub(1) else {
            return;
        };
        self.depth = depth;
        let saved = match self.inline.get(depth) {
            Some(saved) => Some(*saved),
            None => self.deeper.pop(),
        };
        if let Some((other, item)) = saved {
            bound.other = other;
            bound.item = item;
        }
    }
}

/// The fight an expression reads, at one moment.
#[derive(Clone, Copy)]
pub struct World<'a> {
    pub core: &'a Core,
    pub equipment: &'a Equipment,
    pub vocabulary: &'a Vocabulary,
    pub fight_options: &'a [Name],
    /// The situational modifiers the scenario gives the whole fight.
    pub fight_modifiers: &'a [Name],
    /// The options of the decision being made (none outside a decision).
    pub offered: &'a [Name],
}

/// What a priority list's expressions read of the option weighed (`other`, `item`,
/// `location`): only that is looked up when an option is considered. A list that reads
/// none of them (most: they name options) weighs an option without a look-up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Considers {
    pub other: bool,
    pub item: bool,
    pub location: bool,
}

impl Considers {
    /// What the rules of a list, whose slots read `reads`, read of the option weighed. A
    /// read within a collection that binds the same name (`other` in `all(opponents,
    /// other.distance > 2)`, `item` in `any(weapons, item.thrusting)`) reads the member
    /// gone through, not the option, and asks for no look-up.
    pub fn of(reads: &[Read], rules: &[Rule]) -> Considers {
        let mut considers = Considers::default();
        let binds = |collections: &[Slot], other: bool| {
            collections.iter().any(|c| match reads[c.0 as usize] {
                Read::EachOpponent | Read::EachCombatant => other,
                Read::EachWeapon(_) => !other,
                _ => false,
            })
        };
        let mut visit = |slot: Slot, within: &[Slot]| {
            let other = |who: &Who| *who != Who::Me && !(*who == Who::Other && binds(within, true));
            let item = || !binds(within, false);
            match &reads[slot.0 as usize] {
                Read::Characteristic(who, _)
                | Read::Skill(who, _)
                | Read::Statistic(who, _)
                | Read::StatisticDice(who, _)
                | Read::SkillDice(who, _)
                | Read::ScenarioModifier(who, _)
                | Read::Value(who, _)
                | Read::Condition(who, ..)
                | Read::Option(who, _)
                | Read::Holds(who, ..)
                | Read::Given(who, _)
                | Read::SkillOf(who, _)
                | Read::ActionsLeft(who)
                | Read::HitPoints(who)
                | Read::HitPointsLost(who)
                | Read::Opponents(who)
                | Read::Out(who)
                | Read::Armour(who)
                | Read::InHand(who)
                | Read::Number(who)
                | Read::NoValues { who, .. }
                | Read::Allies(who)
                | Read::Engaged(who) => considers.other |= other(who),
                // Kept toward the option's combatant, whoever holds it.
                Read::Toward(who, _) => {
                    considers.other |= other(who) || !binds(within, true);
                }
                Read::WeaponSkill(who) => {
                    considers.other |= other(who);
                    considers.item |= item();
                }
                Read::Distance => considers.other |= !binds(within, true),
                Read::ItemTrait(_)
                | Read::ItemSize
                | Read::ItemReach
                | Read::ItemHands
                | Read::ItemRange
                | Read::ItemLoad
                | Read::ItemArmour
                | Read::ItemValue(_)
                | Read::ItemGiven(_)
                | Read::ItemDamage => considers.item |= item(),
                Read::LocationArmour
                | Read::LocationWorn(_)
                | Read::LocationHitPoints
                | Read::LocationMaxHitPoints
                | Read::Location => considers.location = true,
                _ => {}
            }
        };
        let mut within = Vec::new();
        for rule in rules {
            match &rule.pick {
                Pick::Option(_) | Pick::Script => {}
                Pick::First(condition) => condition.visit_reads(&mut visit, &mut within),
                Pick::Highest(score) | Pick::Lowest(score) => {
                    score.visit_reads(&mut visit, &mut within)
                }
            }
            if let Some(guard) = &rule.guard {
                guard.visit_reads(&mut visit, &mut within);
            }
        }
        considers
    }
}

/// A decision as its rules read it: the fight's state, the decider, the combatant the
/// option under consideration names (if any), and the options offered.
pub struct DecisionView<'a> {
    pub world: World<'a>,
    pub reads: &'a [Read],
    pub bound: Bound<'a>,
    considers: Considers,
    /// Bindings to restore when a collection's body is done.
    saved: SavedBindings<'a>,
}

impl<'a> DecisionView<'a> {
    /// `considers`: what the expressions read of an option weighed ([`Considers::of`]
    /// their `reads`).
    pub fn new(world: World<'a>, reads: &'a [Read], considers: Considers, me: usize) -> Self {
        DecisionView {
            world,
            reads,
            bound: Bound {
                me,
                ..Bound::default()
            },
            considers,
            saved: SavedBindings::default(),
        }
    }

    /// Bind what `option` names: a combatant as `other`, a weapon as `item`, one of
    /// `self`'s locations as `location` (each only where the expressions read it).
    pub fn consider(&mut self, option: Name) {
        let core = self.world.core;
        if self.considers.other {
            self.bound.other = core.combatants.iter().position(|c| c.spec.name == option);
        }
        if self.considers.item {
            // Most often a weapon the combatant carries, whose place is known.
            let carried = core.combatants[self.bound.me]
                .weapons
                .iter()
                .find(|w| w.id == option)
                .and_then(|w| w.equipment_index);
            self.bound.item = match carried {
                Some(index) => self.world.equipment.at(index),
                None => weapon(self.world.equipment, option),
            };
        }
        if self.considers.location {
            self.bound.location = core.combatants[self.bound.me]
                .locations
                .contains_key(&option)
                .then_some(option);
        }
    }
}

pub(crate) fn weapon(equipment: &Equipment, id: Name) -> Option<&Weapon> {
    equipment
        .weapons
        .get(&id)
        .or_else(|| equipment.shields.get(&id))
}

/// The `index`-th weapon `me` holds, in the order it holds them.
pub(crate) fn held<'e>(
    core: &Core,
    equipment: &'e Equipment,
    me: usize,
    index: usize,
) -> Option<&'e Weapon> {
    weapon_at(core, equipment, me, WeaponPlace::InHand, index)
}

/// The `index`-th weapon of `me` at `place`, in scenario order.
pub(crate) fn weapon_at<'e>(
    core: &Core,
    equipment: &'e Equipment,
    me: usize,
    place: WeaponPlace,
    index: usize,
) -> Option<&'e Weapon> {
    core.combatants[me]
        .weapons
        .iter()
        .filter(|state| state.place == place)
        .filter_map(|state| equipment.at(state.equipment_index?))
        .nth(index)
}

/// The `index`-th opponent of `me` still in the fight, in scenario order.
pub(crate) fn opponent(core: &Core, me: usize, index: usize) -> Option<usize> {
    let side = &core.combatants[me].spec.side;
    (0..core.combatants.len())
        .filter(|&i| !core.combatants[i].out && core.combatants[i].spec.side != *side)
        .nth(index)
}

impl<'a> World<'a> {
    fn who(bound: &Bound<'_>, who: Who) -> Option<usize> {
        who.of(bound)
    }

    /// The dice behind a read of type dice: the weapon's damage, a dice statistic, a
    /// skill's die code (the first of its names the combatant has; a number skill as
    /// that number); `None` where there are none.
    pub fn dice(&self, bound: &Bound<'_>, read: &Read) -> Option<crate::dice::DiceExpr> {
        use crate::engine::model::{Skill, Statistic};
        match read {
            Read::ItemDamage => bound.item.and_then(|w| w.damage.clone()),
            Read::StatisticDice(who, name) => {
                match self.core.combatants[who.of(bound)?].statistic(*name) {
                    Some(Statistic::Dice(dice)) => Some(dice.clone()),
                    _ => None,
                }
            }
            Read::SkillDice(who, names) => {
                let skills = &self.core.combatants[who.of(bound)?].spec.skills;
                match names.iter().find_map(|name| skills.get(name))? {
                    Skill::Dice(dice) => Some(dice.clone()),
                    Skill::Number(n) => Some(crate::dice::DiceExpr::constant(*n)),
                }
            }
            _ => None,
        }
    }

    /// A number read: the reads a fight makes most often here, inlined where they are
    /// made (a read is a few loads), the rest in [`World::number_rest`].
    #[inline]
    pub fn number(&self, bound: &Bound<'_>, read: &Read) -> i64 {
        let combatant = |who: Who| who.of(bound).map(|index| &self.core.combatants[index]);
        match read {
            Read::Value(who, name) => combatant(*who)
                .and_then(|c| c.values.get(name).copied())
                .unwrap_or(0),
            Read::ActionsLeft(who) => combatant(*who).map_or(0, |c| c.actions_left),
            Read::Round => i64::from(self.core.round),
            Read::Chosen(index) => i64::from(bound.chosen[*index as usize]),
            Read::Damage => bound.damage,
            Read::Rolled => bound.rolled,
            Read::TestRoll => bound.test.roll,
            Read::TestTotal => bound.test.total,
            Read::TestTarget => bound.test.target,
            _ => self.number_rest(bound, read),
        }
    }

    #[inline(never)]
    fn number_rest(&self, bound: &Bound<'_>, read: &Read) -> i64 {
        let core = self.core;
        let combatant = |who: Who| World::who(bound, who).map(|index| &core.combatants[index]);
        let side_count = |who: Who, same: bool, engaged: bool| -> i64 {
            World::who(bound, who).map_or(0, |index| side_count(core, index, same, engaged))
        };
        match read {
            Read::Characteristic(who, name) => combatant(*who)
                .and_then(|c| c.spec.characteristics.get(name).copied())
                .unwrap_or(0),
            Read::Skill(who, name) => combatant(*who).map_or(0, |c| c.skill(*name)),
            Read::Statistic(who, name) => combatant(*who)
                .and_then(|c| match c.statistic(*name) {
                    Some(crate::engine::model::Statistic::Number(n)) => Some(*n),
                    _ => None,
                })
                .unwrap_or(0),
            // Saturating: damage stops hit points at the smallest number, not wrapping.
            Read::HitPoints(who) => combatant(*who).map_or(0, |c| {
                c.locations
                    .values()
                    .fold(0i64, |sum, l| sum.saturating_add(l.hit_points))
            }),
            Read::HitPointsLost(who) => combatant(*who).map_or(0, |c| {
                c.locations.values().fold(0i64, |sum, l| {
                    sum.saturating_add(l.max_hit_points.saturating_sub(l.hit_points))
                })
            }),
            Read::Opponents(who) => side_count(*who, false, false),
            Read::Number(who) => World::who(bound, *who).map_or(0, |at| at as i64 + 1),
            Read::InHand(who) => combatant(*who).map_or(0, |c| {
                c.weapons
                    .iter()
                    .filter(|held| held.place == WeaponPlace::InHand)
                    .count() as i64
            }),
            Read::Armour(who) => {
                combatant(*who).map_or(0, |c| c.locations.values().map(|l| l.armour).sum())
            }
            Read::Allies(who) => side_count(*who, true, false),
            Read::Engaged(who) => side_count(*who, false, true),
            Read::Toward(who, index) => {
                let holder = World::who(bound, *who);
                let toward = match holder {
                    Some(holder) if holder == bound.me => bound.other,
                    Some(_) => Some(bound.me),
                    None => None,
                };
                holder.zip(toward).map_or(0, |(holder, toward)| {
                    core.combatants[holder].toward(*index, toward, core.combatants.len())
                })
            }
            Read::Distance => bound.other.map_or(0, |other| {
                core.distances[bound.me * core.combatants.len() + other]
            }),
            Read::SkillOf(who, statistic) => {
                combatant(*who).map_or(0, |c| match c.statistic(*statistic) {
                    Some(crate::engine::model::Statistic::Text(skill)) => c.skill(*skill),
                    _ => c
                        .spec
                        .skills
                        .keys()
                        .next()
                        .map_or(0, |first| c.skill(*first)),
                })
            }
            Read::WeaponSkill(who) => combatant(*who)
                .zip(bound.item.and_then(|weapon| weapon.skill))
                .map_or(0, |(c, skill)| c.skill(skill)),
            Read::LocationArmour => location_figure(core, bound, |l| l.armour),
            Read::LocationHitPoints => location_figure(core, bound, |l| l.hit_points),
            Read::LocationMaxHitPoints => location_figure(core, bound, |l| l.max_hit_points),
            Read::LocationWorn(name) => {
                let owner = bound.location_of.unwrap_or(bound.me);
                bound
                    .location
                    .and_then(|location| {
                        let spec = &core.combatants[owner].spec;
                        spec.armour_items.get(location.as_str())
                    })
                    .and_then(|worn| self.equipment.armour.get(worn))
                    .and_then(|armour| match armour.values.get(name.as_str()) {
                        Some(crate::engine::model::EquipmentValue::Number(n)) => Some(*n),
                        _ => None,
                    })
                    .unwrap_or(0)
            }
            _ => bound.number(read).unwrap_or(0),
        }
    }

    /// A flag read: conditions, traits in hand and who is out inlined where they are
    /// read (a guard reads little else), the rest in [`World::flag_rest`].
    #[inline]
    pub fn flag(&self, bound: &Bound<'_>, read: &Read) -> bool {
        let combatant = |who: Who| who.of(bound).map(|index| &self.core.combatants[index]);
        match read {
            Read::Condition(who, _, bit) if *bit != 0 => {
                combatant(*who).is_some_and(|c| bits_hold(c, BitsOf::Conditions, *bit, false))
            }
            Read::Holds(who, _, bit) if *bit != 0 => {
                combatant(*who).is_some_and(|c| bits_hold(c, BitsOf::InHand, *bit, false))
            }
            Read::Out(who) => combatant(*who).is_some_and(|c| c.out),
            Read::NoValues { who, names, mask } => {
                combatant(*who).is_none_or(|c| c.values.none_of(names, *mask))
            }
            Read::Bits {
                who,
                of,
                mask,
                every,
            } => combatant(*who).is_some_and(|c| bits_hold(c, *of, *mask, *every)),
            Read::Reaction(index) => bound.reaction == *index,
            Read::Attacking => bound.attacking,
            _ => self.flag_rest(bound, read),
        }
    }

    #[inline(never)]
    fn flag_rest(&self, bound: &Bound<'_>, read: &Read) -> bool {
        let core = self.core;
        let combatant = |who: Who| World::who(bound, who).map(|index| &core.combatants[index]);
        match read {
            Read::Condition(who, name, _) => {
                combatant(*who).is_some_and(|c| c.has_condition(*name))
            }
            Read::Option(who, name) => {
                combatant(*who).is_some_and(|c| c.spec.options.contains(name))
            }
            Read::Holds(who, name, _) => combatant(*who).is_some_and(|c| {
                c.weapons
                    .iter()
                    .filter(|held| held.place == WeaponPlace::InHand)
                    .filter_map(|held| self.equipment.at(held.equipment_index?))
                    .any(|weapon| weapon.traits.iter().any(|t| t == name))
            }),
            Read::FightOption(name) => self.fight_options.contains(name),
            Read::ScenarioModifier(who, name) => {
                self.fight_modifiers.contains(name)
                    || combatant(*who).is_some_and(|c| c.spec.modifiers.contains(name))
            }
            Read::Offered(option) => self.offered.contains(option),
            Read::Given(who, name) => combatant(*who).is_some_and(|c| c.statistic(*name).is_some()),
            _ => bound.flag(read).unwrap_or(false),
        }
    }

    pub fn symbol(&self, bound: &Bound<'_>, read: &Read) -> u32 {
        bound.symbol(self.vocabulary, read)
    }

    /// Bind the `index`-th member of a collection; false past the last.
    pub fn bind(&self, bound: &mut Bound<'a>, read: &Read, index: usize) -> bool {
        match read {
            Read::EachOpponent => {
                bound.other = opponent(self.core, bound.me, index);
                bound.other.is_some()
            }
            Read::EachCombatant => {
                bound.other = (index < self.core.combatants.len()).then_some(index);
                bound.other.is_some()
            }
            Read::EachWeapon(place) => {
                bound.item = weapon_at(self.core, self.equipment, bound.me, *place, index);
                bound.item.is_some()
            }
            _ => false,
        }
    }
}

impl<'a> Env for DecisionView<'a> {
    fn number(&mut self, slot: Slot) -> i64 {
        self.world.number(&self.bound, &self.reads[slot.0 as usize])
    }

    fn flag(&mut self, slot: Slot) -> bool {
        self.world.flag(&self.bound, &self.reads[slot.0 as usize])
    }

    fn symbol(&self, slot: Slot) -> u32 {
        self.world.symbol(&self.bound, &self.reads[slot.0 as usize])
    }

    fn slot_dice(&self, slot: Slot) -> Option<crate::dice::DiceExpr> {
        self.world.dice(&self.bound, &self.reads[slot.0 as usize])
    }

    fn bind(&mut self, collection: Slot, index: usize) -> bool {
        let world = self.world;
        world.bind(&mut self.bound, &self.reads[collection.0 as usize], index)
    }

    fn enter(&mut self, _: Slot) {
        self.saved.enter(&self.bound);
    }

    fn leave(&mut self, _: Slot) {
        self.saved.leave(&mut self.bound);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `other` and `item` read only of the members of a collection ask for no look-up of
    /// the option weighed; read outside one, they do.
    #[test]
    fn an_option_is_looked_up_only_for_what_the_rules_read_of_it() {
        use crate::expr::{Condition, Number};
        let reads = [
            Read::EachOpponent,
            Read::Out(Who::Other),
            Read::EachWeapon(WeaponPlace::InHand),
            Read::ItemHands,
        ];
        let rule = |pick, guard| Rule { pick, guard };
        let of_members = [
            rule(
                Pick::Option(Name::new("attack")),
                Some(Condition::Any(Slot(0), Box::new(Condition::Read(Slot(1))))),
            ),
            rule(
                Pick::Highest(Number::Count(
                    Slot(2),
                    Box::new(Condition::Compare(
                        crate::expr::Comparison::Greater,
                        Box::new(Number::Read(Slot(3))),
                        Box::new(Number::Const(1)),
                    )),
                )),
                None,
            ),
        ];
        assert_eq!(Considers::of(&reads, &of_members), Considers::default());
        // The same names read outside a collection name the option.
        let of_option = [
            rule(Pick::First(Condition::Read(Slot(1))), None),
            rule(Pick::Highest(Number::Read(Slot(3))), None),
        ];
        let considers = Considers::of(&reads, &of_option);
        assert!(considers.other && considers.item && !considers.location);
        // Within a collection of weapons, `other` is still the option's.
        let crossed = [rule(
            Pick::First(Condition::Any(Slot(2), Box::new(Condition::Read(Slot(1))))),
            None,
        )];
        let considers = Considers::of(&reads, &crossed);
        assert!(considers.other && !considers.item);
    }

    #[test]
    fn nested_collections_put_back_each_binding_however_deep() {
        let mut saved = SavedBindings::default();
        let mut bound = Bound::default();
        // Six levels: past the ones kept in place.
        for depth in 0..6 {
            bound.other = Some(depth);
            saved.enter(&bound);
        }
        for depth in (0..6).rev() {
            bound.other = Some(99);
            saved.leave(&mut bound);
            assert_eq!(bound.other, Some(depth));
        }
        // One leave too many changes nothing.
        saved.leave(&mut bound);
        assert_eq!(bound.other, Some(0));
    }
}
