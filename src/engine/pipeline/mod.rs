//! The combat sequence as data: what a ruleset's `combat.toml` says, compiled, and the
//! engine's running of it. The turn (initiative, the tie-break, the action budget, the
//! actions offered, who is out) and the exchange (the reaction, the attack and defence
//! tests, the outcome matrix, effects bought with won levels, the hit, damage, parry
//! reduction, location, armour, wounds, what follows) are expressions and table actions
//! the engine evaluates natively; a ruleset that leaves a step of the turn out of
//! `combat.toml` keeps the script hook of `[hooks]` for it.
//!
//! One module per stage: [`turn`] for the turn's steps, [`test`] for rolling a test kind,
//! [`exchange`] for the exchange's stages; [`env`] is how their expressions read the fight.

mod env;
mod exchange;
mod native;
mod specialise;
mod test;
mod turn;

pub use specialise::{FightWorld, Specialised};

use crate::expr::{Condition, Number};
use crate::names::Name;
use crate::source::Spanned;
use crate::tables::Action;

pub use super::reads::ResultCell;
use super::reads::{Read, Vocabulary};

/// A ruleset's `combat.toml`, compiled: every expression reads the slots of `reads`.
#[derive(Clone, Debug, Default)]
pub struct Combat {
    pub vocabulary: Vocabulary,
    pub reads: Vec<Read>,
    pub turn: Turn,
    pub tests: Vec<TestKind>,
    pub exchanges: Vec<Exchange>,
    /// What an enumeration draws tests from, worked out once (`test::LevelCache`).
    pub(crate) levels: test::LevelCache,
    /// The level of each roll of the tests that may be looked up, by target.
    pub(crate) level_tables: test::LevelTables,
    /// The native code of the expressions, once the combat is specialised.
    pub(crate) codes: native::Codes,
}

/// `[turn]`: each step the engine asks of a ruleset; `None` leaves it to the hook.
#[derive(Clone, Debug, Default)]
pub struct Turn {
    /// Rolled for each combatant still in the fight at the start of each round (only
    /// the first round's where `keep_initiative` holds).
    pub initiative: Option<Number>,
    /// What the log calls its roll (a system's own word for it); `initiative` when
    /// `None`.
    pub initiative_label: Option<Name>,
    /// After the first round, where this holds, the initiative rolled last is kept
    /// instead of rolled again.
    pub keep_initiative: Option<Condition>,
    /// Added to the initiative each round, and not kept (what lasts only the round).
    pub initiative_modifier: Option<Number>,
    /// What each combatant holds at the start of the fight; without it, everything
    /// the scenario lists.
    pub hands: Option<Hands>,
    /// Done to each combatant once, at the start of the fight (after `hands`, before
    /// the `setup` hook): each rule's actions where its guard holds.
    pub setup: Vec<TurnRule>,
    /// Done to each combatant still in the fight at the start of each round, just
    /// before its initiative: each rule's actions where its guard holds.
    pub round_start: Vec<TurnRule>,
    /// Done at the end of each round, rule by rule, to each combatant in scenario order
    /// (those out of the fight too) where the rule's guard holds; then the `round_end`
    /// hook, if there is one.
    pub round_end: Vec<TurnRule>,
    /// Breaks ties of initiative, highest first.
    pub tie_break: Option<Number>,
    /// The actions a combatant has in a round.
    pub actions: Option<Number>,
    /// Whether a combatant is out of the fight.
    pub out_of_fight: Option<Condition>,
    /// With `choices` and `act` hooks: where this holds for whose turn it is, the hooks
    /// offer and do the turn's actions, and `choices` below elsewhere. Without it, the
    /// hook offers and an action of `choices` is done natively where its guard holds.
    pub hooks_if: Option<Condition>,
    /// After an action of the turn that combat.toml played, where this holds (and the
    /// combatant is in the fight with an action left), it chooses and does another in
    /// the same turn: a system that plays all of a character's actions on its turn.
    pub more: Option<Condition>,
    /// Done to the actor once a turn, once the first action `choices` does in it is
    /// chosen, before that action's own (not where the hooks play the turn).
    pub before_first: Vec<Spanned<Action>>,
    /// The actions a combatant may choose on its turn, offered in this order; empty
    /// leaves the `choices` and `act` hooks to say them.
    pub choices: Vec<TurnAction>,
    /// The decisions `decide NAME` asks (`[decisions.NAME]`), each with its options.
    pub decisions: Vec<(Name, Vec<Case>)>,
}

impl Turn {
    /// The rules of the start of the fight, of the round's start and of its end.
    pub fn round_rules(&self) -> impl Iterator<Item = &TurnRule> {
        self.setup
            .iter()
            .chain(&self.round_start)
            .chain(&self.round_end)
    }
}

/// What a combatant holds in hand at the start: the weapons the scenario lists, in
/// order, each while the hands it needs (`needs`, with the weapon as `item`) are free;
/// the rest is carried. A weapon readied (`ready`) is held the same way.
#[derive(Clone, Debug)]
pub struct Hands {
    pub count: i64,
    pub needs: Number,
    /// Actions a dropped weapon costs to pick up, more than readying one carried: spent
    /// now, or lost from the next when none is left.
    pub pick_up: u32,
}

/// A rule of the round: actions done to a combatant where the guard holds; then, with
/// a decision, the actions of the option it chooses among those whose guards hold
/// (one alone is taken without asking).
#[derive(Clone, Debug)]
pub struct TurnRule {
    pub guard: Option<Condition>,
    pub actions: Vec<Spanned<Action>>,
    pub decision: Option<Name>,
    pub options: Vec<Case>,
}

/// One action of the turn.
#[derive(Clone, Debug)]
pub struct TurnAction {
    pub name: Name,
    /// Offered only while this holds.
    pub guard: Option<Condition>,
    /// The exchange it runs (an index into [`Combat::exchanges`]), if any.
    pub exchange: Option<usize>,
    /// The foes it may be run against: those for which this holds, each bound as
    /// `other` (all when `None`).
    pub targets: Option<Condition>,
    /// After `before`, the actor chooses among the options whose guards hold (one
    /// alone is taken without asking); the chosen one's actions befall it.
    pub decision: Option<Name>,
    pub options: Vec<Case>,
    /// Done to the actor before the exchange, and after it.
    pub before: Vec<Spanned<Action>>,
    pub after: Vec<Spanned<Action>>,
    /// A called location: once the target is chosen, the actor chooses where the blow
    /// is aimed among these (decision `location`), the rows of the table `location`
    /// names; the exchange then reads it as `location` from its start (its tests'
    /// modifiers, its damage) and lands the blow there, rolling nothing. Empty: none.
    pub locations: Vec<Name>,
    /// It ends the turn (waiting): as the turn's first action it is done and the turn
    /// ends with it; chosen after it (`[turn] more`), nothing is done or spent.
    pub ends_turn: bool,
}

/// A kind of test: how its die is rolled, what it is against, and the levels it gives.
#[derive(Clone, Debug)]
pub struct TestKind {
    pub name: Name,
    pub roll: Number,
    /// The number compared (the roll and its bonuses); the roll itself when absent.
    pub total: Option<Number>,
    pub target: Number,
    /// Situational modifiers added to the target where their guards hold.
    pub modifiers: Vec<TestModifier>,
    /// Tried in order: the first whose guard holds is the result; the last when none.
    pub levels: Vec<Level>,
    /// The levels that pass the test when it is made on its own (`test NAME or ...`).
    pub pass: Vec<u32>,
    /// The skill the test is logged under; the test's label when `None`.
    pub skill_of: Option<SkillLabel>,
    /// The rolls the level of a test may be looked up for, where the levels read nothing
    /// but the test's roll, total and target (set when the combat is specialised): a
    /// fight's test then finds its level in a table of its target
    /// ([`test::LevelTables`]) rather than trying each level's guard.
    pub levels_by_roll: Option<std::ops::RangeInclusive<i64>>,
    /// Difficulty grades (`[tests.NAME.grades]`): the grade the situation names scales
    /// the target, or gives a level with no roll.
    pub grades: Option<Grades>,
    /// Two levels outside `pass` tie in `resist` and `contest`: nobody wins, so the
    /// one resisting is unaffected and the one contesting does not win.
    pub failures_tie: bool,
    /// Where this holds, a modifier given in dice counts its standard value.
    pub standard_modifiers: Option<Condition>,
    /// The least a target its situational modifiers moved may be (`target_min`): a
    /// target they leave lower is raised to it; one they do not move stays as it is.
    pub target_min: Option<Number>,
    /// How `resist` and `contest` compare two tests of this kind.
    pub compare: Compare,
    /// A second roll the tester may choose, once the first is known (`reroll`).
    pub reroll: Option<Reroll>,
    /// Of two tests rolled against each other (an attack and its defence, a contest),
    /// where the higher target is over this, the excess comes off both targets and both
    /// are read again ("skills over 100%").
    pub excess_over: Option<i64>,
    /// The log gives the level with the margin, `target - total` (`success, by 3`,
    /// `failure, missed by 2`): a margin-of-success system's test.
    pub log_margin: bool,
}

/// `[tests.NAME.reroll]`: where `guard` holds of the test just rolled (its `level`,
/// `roll`, `total` and `target`), the tester is asked `decision` between `options`: the
/// first does its actions (what the second roll costs) and rolls the test again, and
/// that roll stands; the second keeps the first ("re-roll a failed roll" for a Luck
/// Point).
#[derive(Clone, Debug)]
pub struct Reroll {
    pub guard: Condition,
    pub decision: Name,
    /// The option that rolls again, with its actions, then the one that keeps the roll.
    pub options: [Case; 2],
}

/// How `resist` and `contest` judge who wins of two tests (`compare` of a test kind).
#[derive(Clone, Debug, Default)]
pub enum Compare {
    /// The better level wins; of the same level, the higher roll (`failures_tie` aside).
    #[default]
    Levels,
    /// Who passes (a level of `pass`) by more wins: one that passes beats one that does
    /// not, two that pass by as much, or two that do not pass, are nobody's win. The
    /// margin is the expression's (reading `roll`, `total`, `target`), or `target -
    /// total` when `None`.
    Margin(Option<Number>),
}

impl TestKind {
    /// Whether `mine` and `theirs` tie as two failures (`failures_tie`).
    pub fn failures_tie(&self, mine: u32, theirs: u32) -> bool {
        self.failures_tie && !self.pass.contains(&mine) && !self.pass.contains(&theirs)
    }
}

/// How a test kind applies the ruleset's difficulty grades (ruleset.toml's list,
/// easiest first; a grade is its place in it).
#[derive(Clone, Debug)]
pub struct Grades {
    /// By grade: what the target is multiplied and divided by (the look-up's
    /// `multiply` and `divide` columns).
    pub scale: Vec<(i64, i64)>,
    /// By grade: the level given with no roll, if the grade is not rolled.
    pub no_roll: Vec<Option<u32>>,
    /// The grade of a test no situation grades.
    pub standard: u32,
    pub round: Rounding,
    /// Steps harder (easier when negative) after the most severe grade is found.
    pub shift: Option<Number>,
    /// The grades a shift moves within (inclusive); a grade outside is not shifted.
    pub shift_within: (u32, u32),
}

/// How a scaled target's fraction is rounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounding {
    Down,
    Up,
    Nearest,
}

impl Grades {
    /// The grade after a shift of `steps` (positive: harder).
    pub fn shifted(&self, grade: u32, steps: i64) -> u32 {
        let (easiest, hardest) = self.shift_within;
        if steps == 0 || grade < easiest || grade > hardest {
            return grade;
        }
        (i64::from(grade) + steps).clamp(i64::from(easiest), i64::from(hardest)) as u32
    }

    /// `target` at `grade`: multiplied, divided, rounded as the ruleset says.
    pub fn scaled(&self, target: i64, grade: u32) -> i64 {
        let (multiply, divide) = self.scale[grade as usize];
        let product = target.saturating_mul(multiply);
        match self.round {
            Rounding::Down => product.div_euclid(divide),
            Rounding::Up => -(product.saturating_neg().div_euclid(divide)),
            Rounding::Nearest => (product.saturating_mul(2).saturating_add(divide))
                .div_euclid(divide.saturating_mul(2)),
        }
    }
}

/// Which skill a test is logged under (`skill_of`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SkillLabel {
    /// The skill a text statistic names (a combat style).
    Statistic(Name),
    /// The skill the weapon the test is made with names (`skill_of = "weapon"`).
    Weapon,
}

/// The most non-stacking groups one test's modifiers may come from.
pub const MAX_GROUPS: usize = 16;

/// A situational modifier of a modifier list, as a test applies it.
#[derive(Clone, Debug)]
pub struct TestModifier {
    pub name: Name,
    /// What it adds to the target (a percentage is its number); for dice, their
    /// standard value.
    pub value: i64,
    /// Dice (`+4D (+12)`), rolled where the modifier applies unless the test's
    /// `standard_modifiers` holds.
    pub dice: Option<Number>,
    /// Its non-stacking group (an index below [`MAX_GROUPS`]): of the modifiers of one
    /// group that apply, only the one of the largest size counts.
    pub group: Option<usize>,
    /// A difficulty grade (`grade NAME` in the list) rather than a number: of the
    /// grades that apply, the most severe counts.
    pub grade: Option<u32>,
    pub guard: Condition,
}

#[derive(Clone, Debug)]
pub struct Level {
    /// The place of the level in `success_levels`.
    pub level: u32,
    pub guard: Condition,
}

/// An exchange: one combatant attacks another.
#[derive(Clone, Debug)]
pub struct Exchange {
    pub name: Name,
    /// What the log calls the attacker's test.
    pub label: Name,
    /// The attacker's test (an index into [`Combat::tests`]).
    pub test: usize,
    /// The weapon the attacker strikes with.
    pub weapon: ReactionWeapon,
    /// With two or more weapons in hand that `weapon` looks for, the attacker chooses
    /// among them (decision `weapon`, in the order they are held).
    pub choose_weapon: bool,
    /// What the attacker fights with when `weapon` finds nothing: with only other
    /// weapons in hand (shields, for `"not shield"`) it chooses among them and bare
    /// hands (decision `weapon`); with nothing in hand, bare hands.
    pub bare_hands: Option<BareHands>,
    /// What the defender may do about it (decision `reaction`; `none` is always offered
    /// too), declared before the attack is rolled.
    pub reactions: Vec<Reaction>,
    /// The decision the defender declares its reaction by (`reaction` unless the
    /// exchange names another: a system's own word for its defence).
    pub reaction_decision: Name,
    /// With this, the reaction is declared once the attack is rolled, and only where
    /// this holds (a successful attack).
    pub reactions_after: Option<Condition>,
    /// The level a defence counts as when the defender does not react ("treated as
    /// having automatically rolled a Failure"); no defence at all when `None`.
    pub unopposed: Option<u32>,
    /// Who wins by how many levels, from the two tests.
    pub outcome: Option<OutcomeMatrix>,
    /// What the winner buys with the levels won.
    pub effects: Option<EffectsStage>,
    /// Whether the blow lands.
    pub hits: Condition,
    /// The damage of a blow that lands, as rolled.
    pub damage: Option<Number>,
    /// What the defence takes off the damage before it reaches a location (a parry by
    /// size); `rolled` is the damage as rolled.
    pub reduction: Option<Number>,
    /// The roll table whose row names the location hit; the pool `total` when `None`.
    pub location: Option<Name>,
    /// When this holds, the attacker chooses the location (decision `location`) among
    /// the table's rows instead of rolling (an effect that picks where the blow lands).
    pub choose_location: Option<Condition>,
    /// When this holds (and `choose_location` does not), the defender chooses the
    /// location (decision `redirect_location`) among the table's rows.
    pub redirect_location: Option<Condition>,
    /// The location is found once the attack is rolled (`location_at = "attack"`), so
    /// that the defence's test, `hits` and every later stage read it; else once the
    /// blow lands.
    pub location_at_attack: bool,
    /// The location is found once the damage is rolled (`location_at = "damage"`),
    /// before the reduction: also for a blow the defence takes whole, or that rolled
    /// nothing.
    pub location_at_damage: bool,
    /// The rows of the location table, offered when the attacker chooses.
    pub locations: Vec<Name>,
    /// What the location's armour stops of the damage.
    pub armour: Option<Number>,
    /// Where this does not hold, what gets past the armour is not taken off hit points:
    /// the wounds are judged on it alone (`damage`), for wounds with no pool of hit
    /// points; taken whenever `None`.
    pub take: Option<Condition>,
    /// What is taken of the damage past the armour (which it reads as `damage`): a
    /// multiplier by damage type or location, a cap; all of it when `None`.
    pub injury: Option<Number>,
    /// The location whose hit points a blow takes, whatever location it was found at
    /// (which still says the armour and the effects): one pool of hit points beside
    /// a hit location table.
    pub pool: Option<Name>,
    /// After damage is taken: the first wound whose guard holds is logged and its
    /// actions befall the defender.
    pub wounds: Vec<WoundRule>,
    /// A wound level comes once per location: a blow that leaves a location at a level
    /// it has reached already, or a milder one (later in `wounds`), is no new wound ("a
    /// second blow to a limb already at -1 is no new Serious Wound").
    pub wounds_once_per_location: bool,
    /// The wound is judged when the blow is taken, but logged, and its actions and the
    /// `after` rules at `wound` done, only once the chosen effects' actions are done
    /// ("Endurance rolls are resolved after the application of the effect").
    pub wounds_after_effects: bool,
    /// What follows, in order: each rule's actions, where its guard holds.
    pub after: Vec<After>,
    /// A blow that lands may force the defender back.
    pub knockback: Option<Knockback>,
    /// What a blow that lands may do instead of damage.
    pub instead: Option<Instead>,
}

/// Where its guard holds, a blow that lands gives the attacker a choice (decision
/// `decision`): `damage`, offered first, or one of the options whose guards hold, each
/// done to the defender instead of the damage (a hold instead of a wound).
#[derive(Clone, Debug)]
pub struct Instead {
    pub decision: Name,
    pub guard: Condition,
    pub options: Vec<InsteadOption>,
}

#[derive(Clone, Debug)]
pub struct InsteadOption {
    pub name: Name,
    pub guard: Option<Condition>,
    /// Whether the blow's location is found first (rolled or chosen, as for damage).
    pub locate: bool,
    pub actions: Vec<Spanned<Action>>,
}

/// Knockback: where its guard holds once a blow has landed (its wound judged), the
/// defender is forced back `metres` (a `Knockback` event) and its actions befall it.
#[derive(Clone, Debug)]
pub struct Knockback {
    pub guard: Condition,
    pub metres: Number,
    pub actions: Vec<Spanned<Action>>,
    /// Judged once the location is known, before the armour ("Knockback occurs after
    /// Reactions have been completed, but before armour points are deducted"), and only
    /// for a blow that gets past the defence; else once the wound is judged.
    pub before_armour: bool,
}

/// Fighting with bare hands: the equipment weapon that stands for them, and the test
/// kind they are used with.
#[derive(Clone, Debug)]
pub struct BareHands {
    pub weapon: Name,
    /// An index into [`Combat::tests`].
    pub test: usize,
}

/// A reaction the defender may choose.
#[derive(Clone, Debug)]
pub struct Reaction {
    pub name: Name,
    /// Offered only while this holds.
    pub guard: Option<Condition>,
    /// The defender's test (an index into [`Combat::tests`]).
    pub test: usize,
    /// The actions it costs; not offered when the defender has fewer left.
    pub cost: i64,
    /// What it is made with.
    pub weapon: ReactionWeapon,
    /// What it is made with when `weapon` finds nothing in hand.
    pub bare_hands: Option<BareHands>,
    /// When this holds as it is paid for, the reaction costs no action (a parry held
    /// ready on an earlier turn).
    pub free: Option<Condition>,
    /// Done to the defender once its test is rolled.
    pub actions: Vec<Spanned<Action>>,
    /// When this holds once the attack is rolled (a miss), the defender may withdraw
    /// the reaction (decision `withdraw_decision`: `complete` or `withdraw`) and pays
    /// nothing; with it, the cost is paid after the attack roll, not before.
    pub withdraw: Option<Condition>,
    /// The decision's name: `withdraw_NAME` unless combat.toml says.
    pub withdraw_decision: Name,
    /// Where this holds once the defence is rolled, the attacker rolls its test again
    /// (logged as `again_label`), and the outcome reads that roll as the attacker's:
    /// "the attacking and defending players each roll D100 and compare".
    pub again: Option<Condition>,
    pub again_label: Name,
    /// The table of results this reaction reads (`outcome.WORD`).
    pub results: Option<ResultMatrix>,
    /// Rolled as it is declared, before the attack roll (its `do` done then): a
    /// defence whose total sets the attack's difficulty.
    pub before_attack: bool,
    /// Its roll is a total the rules keep (`defence.total`), not a test: no level of it
    /// is logged, only its dice.
    pub total_only: bool,
    /// What its test is logged under: its name unless combat.toml says (`{weapon}` in
    /// it is the name of the weapon it is made with).
    pub label: Name,
    /// Done to the defender once it is declared, before its test is rolled (a decision
    /// that changes the defence: a step back).
    pub before: Vec<Spanned<Action>>,
}

/// A reaction's table of results: a matrix of the two tests' levels whose cells are
/// words the exchange's expressions read (`outcome.misses`, `outcome.deduct_ap`).
#[derive(Clone, Debug)]
pub struct ResultMatrix {
    pub table: Name,
    /// How many success levels there are: the row length.
    pub levels: usize,
    /// `cells[defence * levels + attack]`.
    pub cells: Vec<ResultCell>,
}

/// The weapon a reaction (or an attack) is made with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReactionWeapon {
    /// None: a dodge.
    Nothing,
    /// The first weapon in hand.
    First,
    /// The first weapon in hand with this trait (a shield), else the first in hand.
    Prefer(Name),
    /// The first weapon in hand without this trait, else the first in hand.
    Avoid(Name),
}

impl ReactionWeapon {
    /// Whether `weapon` is one this choice looks for (before falling back to the first
    /// in hand).
    pub fn fits(&self, weapon: &crate::engine::model::Weapon) -> bool {
        match self {
            ReactionWeapon::Nothing => false,
            ReactionWeapon::First => true,
            ReactionWeapon::Prefer(word) => weapon.traits.contains(word),
            ReactionWeapon::Avoid(word) => !weapon.traits.contains(word),
        }
    }
}

/// A matrix of the two tests' levels, read into (winner, levels) by level ids.
#[derive(Clone, Debug)]
pub struct OutcomeMatrix {
    pub table: Name,
    /// How many success levels there are: the row length.
    pub levels: usize,
    /// `cells[defence * levels + attack]`: `Some((attacker won, levels))`, `None` for `-`.
    pub cells: Vec<Option<(bool, u32)>>,
}

/// The effects stage: the winner of the outcome chooses effects of an effect list, one
/// per level won (or as `count` says), among those its columns make available.
#[derive(Clone, Debug)]
pub struct EffectsStage {
    pub table: Name,
    /// The decision the winner makes for each.
    pub decision: Name,
    /// How many; `outcome.levels` when `None`.
    pub count: Option<Number>,
    /// Levels the attacker gains before the effects are chosen, unless the defender won
    /// the outcome (a surprise's "bonus Special Effect"): the attacker is then the
    /// outcome's winner, with them added to what it won (none, where the outcome gave
    /// nobody a level).
    pub bonus: Option<Number>,
    pub effects: Vec<EffectRule>,
}

/// One effect of the list, its columns read at load.
#[derive(Clone, Debug)]
pub struct EffectRule {
    pub name: Name,
    pub offensive: bool,
    pub defensive: bool,
    pub stackable: bool,
    /// `requires critical`: the level the winner's own test (or, `opponent`, the
    /// loser's) must have.
    pub requires: Option<(bool, u32)>,
    /// Weapon traits, any of which the winner's weapon must have; none: any weapon.
    pub traits: Vec<Name>,
    /// The effect list's actions, then combat.toml's (`[exchanges.NAME.effect.EFFECT]
    /// do`), done to `to` at the stage `at` for each time the effect was chosen.
    pub actions: Vec<Spanned<Action>>,
    /// After `actions`, the actions of the first case whose guard holds; with a
    /// `decision`, of the case the winner chooses among those whose guards hold.
    pub cases: Vec<Case>,
    pub decision: Option<Name>,
    /// Offered only while this holds (`offered`).
    pub offered: Option<Condition>,
    /// Its actions are done only while this holds (`if`).
    pub guard: Option<Condition>,
    /// Whom the actions befall: the loser unless combat.toml says the winner.
    pub to: Party,
    /// When they are done.
    pub at: EffectTime,
}

/// Actions done where the guard holds (always without one), when no case before it was;
/// or, named, an option of the effect's decision.
#[derive(Clone, Debug)]
pub struct Case {
    pub name: Option<Name>,
    pub guard: Option<Condition>,
    pub actions: Vec<Spanned<Action>>,
}

/// Who an effect's actions befall: the winner or the loser of the outcome.
pub use crate::tables::Party;

/// When an effect's actions are done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EffectTime {
    /// Once the blow's damage is taken, before its wound is judged (and only when the
    /// blow lands): what changes the wound, such as a weapon yanked out of it.
    Blow,
    /// After the blow, in the list's order, before the `after` rules.
    After,
}

/// A wound threshold.
#[derive(Clone, Debug)]
pub struct WoundRule {
    pub level: Name,
    /// The level's place among the exchange's wound levels (what `wound` reads).
    pub symbol: u32,
    pub guard: Condition,
    pub actions: Vec<Spanned<Action>>,
}

/// A rule of an exchange's `after` stage.
#[derive(Clone, Debug)]
pub struct After {
    /// When: once the outcome is known and the effects chosen (before the blow), or at
    /// the end of the exchange.
    pub at: AfterTime,
    pub guard: Condition,
    /// Whom the actions befall.
    pub to: Role,
    pub actions: Vec<Spanned<Action>>,
    /// How many times the actions are done (none for 0 or less), read once the guard
    /// holds; the guard is read again before each time after the first (once unless
    /// said).
    pub repeat: Option<Number>,
    /// With a decision, after the actions, the party they befall chooses among the
    /// options whose guards hold (one alone is taken without asking), and the chosen
    /// one's actions befall it.
    pub decision: Option<Name>,
    pub options: Vec<Case>,
}

/// When an `after` rule is done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AfterTime {
    /// Once the target and the weapon are found, before the reaction is declared.
    Target,
    /// Once the attack is rolled (its location found, where it is found then), before
    /// a reaction declared after the attack (`reactions_after`) is offered.
    Attack,
    /// Once the outcome is known and the effects chosen, before the blow.
    Outcome,
    /// Once a landed blow's wound is judged (its actions done), before the knockback.
    Wound,
    End,
}

/// What a script that a rule of an exchange calls (`script module::function`) sees of
/// the exchange, beside the row context: built only when a script is called.
#[derive(Clone, Debug, Default)]
pub struct ExchangeContext {
    pub attacker: usize,
    pub defender: usize,
    /// Who won the outcome, once it is known.
    pub winner: Option<usize>,
    /// The equipment ids of the attacker's weapon and of what the defender reacts with.
    pub weapon: Option<Name>,
    pub parry: Option<Name>,
    /// The location hit, once it is known.
    pub location: Option<Name>,
    /// The damage as rolled, as it reached the location (past the defence, before the
    /// armour), and as taken.
    pub rolled: i64,
    pub reached: i64,
    pub damage: i64,
    /// The attack's and the defence's level and die roll.
    pub attack: Option<(Name, i64)>,
    pub defence: Option<(Name, i64)>,
    /// The effects the winner chose, each as many times as chosen, in the list's order.
    pub chosen: Vec<Name>,
}

/// A combatant's part in an exchange.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Attacker,
    Defender,
}

impl Combat {
    /// Whether `combat.toml` says this step of the turn, so that no hook of `[hooks]` is
    /// needed for it. A ruleset that keeps a `choices` hook beside `[[action]]`s has the
    /// hook offer the actions, and combat.toml do those it names (`act` for the rest).
    pub fn provides(&self, hook: &str) -> bool {
        match hook {
            "initiative" => self.turn.initiative.is_some(),
            "tie_break" => self.turn.tie_break.is_some(),
            "actions" => self.turn.actions.is_some(),
            "out_of_fight" => self.turn.out_of_fight.is_some(),
            "choices" | "act" => !self.turn.choices.is_empty(),
            _ => false,
        }
    }
}

#[cfg(test)]
mod grade_tests {
    use super::{Grades, Rounding};

    /// Eight grades, easiest first, scaling a target by 1, 2, 3/2, 1 (the standard),
    /// 2/3, 1/2, 1/10 and 0; the first and the last roll no die; shifts move between
    /// the second and the last.
    fn grades(round: Rounding) -> Grades {
        Grades {
            scale: vec![
                (1, 1),
                (2, 1),
                (3, 2),
                (1, 1),
                (2, 3),
                (1, 2),
                (1, 10),
                (0, 1),
            ],
            no_roll: vec![Some(1), None, None, None, None, None, None, Some(2)],
            standard: 3,
            round,
            shift: None,
            shift_within: (1, 7),
        }
    }

    #[test]
    fn a_grade_scales_the_target_with_the_rounding_named() {
        let up = grades(Rounding::Up);
        // 55 is 110, 83, 55, 37, 28, 6 and 0, rounded up.
        let at = |grade| up.scaled(55, grade);
        assert_eq!(
            [at(1), at(2), at(3), at(4), at(5), at(6), at(7)],
            [110, 83, 55, 37, 28, 6, 0]
        );
        let down = grades(Rounding::Down);
        assert_eq!(
            [down.scaled(55, 2), down.scaled(55, 4), down.scaled(55, 6)],
            [82, 36, 5]
        );
        let nearest = grades(Rounding::Nearest);
        assert_eq!(
            [
                nearest.scaled(55, 4),
                nearest.scaled(55, 5),
                nearest.scaled(44, 5)
            ],
            [37, 28, 22]
        );
        // A negative target rounds the same way.
        assert_eq!(up.scaled(-5, 5), -2);
        assert_eq!(down.scaled(-5, 5), -3);
    }

    #[test]
    fn a_shift_moves_within_its_bounds_and_leaves_a_grade_outside_them() {
        let g = grades(Rounding::Up);
        assert_eq!(g.shifted(3, 1), 4);
        assert_eq!(g.shifted(3, -2), 1);
        assert_eq!(g.shifted(1, -1), 1, "not past the easiest");
        assert_eq!(g.shifted(6, 3), 7, "not past the hardest");
        assert_eq!(g.shifted(0, 1), 0, "outside: not shifted");
        assert_eq!(g.shifted(7, -1), 6);
    }
}
