//! How the expressions of the turn and the exchange read the fight while it runs. An
//! evaluation holds the fight's state from its first read to its end ([`FightEnv::holds`],
//! [`FightEnv::number`]), and lets go of it around a die, so that a die asked of a
//! person lets them look at the fight meanwhile.

use crate::dice::DiceExpr;
use crate::expr::{Condition, Env, Native, Number, Slot};

use super::super::lock::StateGuard;
use super::super::reads::{
    Bound, Read, SavedBindings, TestResult, Vocabulary, World, opponent, weapon_at,
};
use super::super::{Core, FightHandle};
use super::native::Codes;
use crate::engine::model::Equipment;
use crate::engine::model::Statistic;
use crate::names::Name;

/// The code of a fight without `combat.toml`: none.
static NO_CODES: std::sync::LazyLock<Codes> = std::sync::LazyLock::new(Codes::default);

/// The tests of an exchange whose rolls a read or a script may need exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tests {
    /// The test being rolled.
    Rolled,
    Attack,
    Defence,
    All,
}

/// The environment of one expression of `combat.toml`: the fight, what its names stand
/// for, and what a die rolled here is for.
pub(super) struct FightEnv<'f> {
    fight: &'f FightHandle,
    reads: &'f [Read],
    /// The code the combat's expressions were compiled to.
    codes: &'f Codes,
    pub bound: Bound<'f>,
    /// What a die rolled here is for, as the log says it.
    pub purpose: &'f str,
    /// Whose dice those rolled here are, when not `self`'s (the defender's armour
    /// rolled in the attacker's exchange).
    pub roller: Option<usize>,
    saved: SavedBindings<'f>,
    /// The fight's state, held while an expression is evaluated (one lock for all its
    /// reads, not one a read); never held between evaluations, where the engine changes
    /// the state.
    held: Option<StateGuard<'f, Core>>,
    /// What every read sees besides the state, looked up once.
    equipment: &'f Equipment,
    vocabulary: &'f Vocabulary,
    fight_options: &'f [Name],
    fight_modifiers: &'f [Name],
    /// The dice are an enumeration's: a test may be drawn by its level alone, and its
    /// roll is drawn when read ([`Core::refine`]).
    pub merging: bool,
    /// The first face of the exploding die the last test rolled here rolled (0: none), which
    /// the exchange keeps beside the attack and the defence (`Bound::exploding_dice`).
    pub exploding_die: u16,
    /// How many exchanges the exchange of this environment is run inside (`strike
    /// EXCHANGE`): 0 for one a turn runs.
    pub depth: u64,
    /// Where the exchange's blows take their hit points (`pool`), if not at the
    /// location found.
    pub pool: Option<Name>,
    /// The exchange's effect list, whose names `Bound::chosen` counts (for a script's
    /// `ctx.chosen`).
    pub effects: Option<&'f super::EffectsStage>,
    /// The location bound was called with the action (`[[action]] location`): the blow
    /// lands there, found on no table.
    pub called: bool,
    /// A wound judged at the blow, to be logged and done once the effects' actions are
    /// (`wounds_after_effects`): its place in the exchange's `wounds`, if one held, and
    /// the location.
    pub deferred_wound: Option<(Option<usize>, Name)>,
    /// In an enumeration, a condition tried without drawing anything (`holds`): a read
    /// of a roll still to be drawn, or a die, reads 0 and marks the try as missed.
    probe: Probe,
}

/// The state of a try of a condition ([`FightEnv::holds`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Probe {
    #[default]
    Off,
    Trying,
    Missed,
}

impl<'f> FightEnv<'f> {
    pub fn new(fight: &'f FightHandle, me: usize) -> Self {
        let ruleset = fight.ruleset();
        let reads = fight.combat().map_or(&[][..], |c| &c.reads);
        let codes = fight.combat().map_or(&*NO_CODES, |c| &c.codes);
        FightEnv {
            equipment: &ruleset.equipment,
            vocabulary: &ruleset.tactics.vocabulary,
            fight_options: fight.fight_options(),
            fight_modifiers: fight.fight_modifiers(),
            fight,
            reads,
            codes,
            bound: Bound {
                me,
                ..Bound::default()
            },
            purpose: "",
            roller: None,
            saved: SavedBindings::default(),
            held: None,
            merging: fight.merging(),
            exploding_die: 0,
            depth: 0,
            pool: None,
            effects: None,
            called: false,
            deferred_wound: None,
            probe: Probe::Off,
        }
    }

    /// Which test `slot` reads the roll or total of (the one being rolled, the attack,
    /// the defence), if any: what a test drawn by its level alone must draw first.
    fn roll_read(&self, slot: Slot) -> Option<Tests> {
        use super::super::reads::TestField::{Roll, Total};
        match self.reads[slot.0 as usize] {
            Read::TestRoll | Read::TestTotal => Some(Tests::Rolled),
            Read::Attack(Roll | Total) => Some(Tests::Attack),
            Read::Defence(Roll | Total) => Some(Tests::Defence),
            _ => None,
        }
    }

    /// The levels of tests an enumeration keeps for the fight's combat.
    pub fn combat_levels(&self) -> Option<&'f super::test::LevelCache> {
        self.fight.combat().map(|combat| &combat.levels)
    }

    /// The tables of levels by roll of the fight's combat.
    pub fn level_tables(&self) -> &'f super::test::LevelTables {
        static NONE: std::sync::LazyLock<super::test::LevelTables> =
            std::sync::LazyLock::new(Default::default);
        self.fight
            .combat()
            .map_or(&*NONE, |combat| &combat.level_tables)
    }

    /// Whether one of `tests` was drawn by its level alone, its roll not yet drawn.
    fn merged(&self, tests: Tests) -> bool {
        let merged = |test: Option<TestResult>| test.is_some_and(|t| t.merged != 0);
        match tests {
            Tests::Rolled => self.bound.test.merged != 0,
            Tests::Attack => merged(self.bound.attack),
            Tests::Defence => merged(self.bound.defence),
            Tests::All => {
                self.bound.test.merged != 0
                    || merged(self.bound.attack)
                    || merged(self.bound.defence)
            }
        }
    }

    /// Whether `slot` reads the roll, total or target of the test being rolled, and
    /// nothing else: a level guard that reads only these gives the same level for the
    /// same roll and target in any fight.
    pub fn reads_test_alone(&self, slot: Slot) -> bool {
        matches!(
            self.reads[slot.0 as usize],
            Read::TestRoll | Read::TestTotal | Read::TestTarget
        )
    }

    /// Whether `slot` reads the roll or total of a test.
    pub fn reads_roll(&self, slot: Slot) -> bool {
        self.roll_read(slot).is_some()
    }

    /// In an enumeration, one of several outcomes weighing `weights` (the first 1); a
    /// draw that cannot be made stops the fight (the stage finds the error) and reads 1.
    pub fn branch(&mut self, weights: &[u64]) -> u32 {
        if self.probe != Probe::Off {
            self.probe = Probe::Missed;
            return 1;
        }
        let purpose = self.purpose_of_me();
        let drawn = self.holding(|env| {
            let core = env.held.as_mut().expect("held");
            core.dice.branch(weights, &purpose)
        });
        drawn.unwrap_or_else(|error| {
            self.stop(error);
            1
        })
    }

    /// What a draw here is for, with whose it is, as a die rolled here says it.
    fn purpose_of_me(&self) -> String {
        let who = self.bound.me;
        let name = match &self.held {
            Some(core) => core.combatants[who].spec.name,
            None => self.fight.name(who),
        };
        format!("{} for {name}", self.purpose)
    }

    /// Record a die that cannot be drawn, for the stage to find; `stop` takes the
    /// state, so it is let go meanwhile if held.
    fn stop(&mut self, error: crate::dice::RollError) {
        let held = self.held.take().is_some();
        self.fight.stop(super::super::FightError::Dice(error));
        if held {
            self.held = Some(self.fight.core());
        }
    }

    /// Keep the rolls of a test drawn by its level alone; its place for
    /// [`super::super::reads::TestResult::merged`].
    pub fn merge_rolls(&mut self, rolls: Vec<(i64, i64, u64)>) -> u32 {
        let purpose = format!("{}: the roll within its level", self.purpose_of_me());
        self.holding(|env| env.held.as_mut().expect("held").merge_rolls(rolls, purpose))
    }

    /// Draw the exact rolls of `tests` where they were drawn by their levels alone:
    /// before a read of one, or before a script sees the exchange.
    pub fn refine_tests(&mut self, tests: Tests) {
        let mut bound = self.bound;
        let refined = self.holding(|env| {
            let core = env.held.as_mut().expect("held");
            let rolled = matches!(tests, Tests::Rolled | Tests::All).then_some(&mut bound.test);
            let attack = matches!(tests, Tests::Attack | Tests::All)
                .then_some(bound.attack.as_mut())
                .flatten();
            let defence = matches!(tests, Tests::Defence | Tests::All)
                .then_some(bound.defence.as_mut())
                .flatten();
            for test in rolled.into_iter().chain(attack).chain(defence) {
                core.refine(test)?;
            }
            Ok(())
        });
        (self.bound.test, self.bound.attack, self.bound.defence) =
            (bound.test, bound.attack, bound.defence);
        if let Err(error) = refined {
            self.stop(error);
        }
    }

    /// Whether `condition` holds, read with the fight's state held throughout.
    #[inline]
    pub fn holds(&mut self, condition: &Condition) -> bool {
        // A fight goes straight on; only an enumeration may draw the condition whole.
        if self.merging
            && let Some(holds) = self.holds_enumerated(condition)
        {
            return holds;
        }
        self.holds_exactly(condition)
    }

    /// In an enumeration, a condition that reads a roll still to be drawn is drawn as a
    /// whole (`holds_merged`): it is tried first without drawing, to find whether it
    /// does. `None`: evaluate it as a fight does.
    #[cold]
    #[inline(never)]
    fn holds_enumerated(&mut self, condition: &Condition) -> Option<bool> {
        if self.probe != Probe::Off || !self.merged(Tests::All) {
            return None;
        }
        self.probe = Probe::Trying;
        let holds = self.holds_exactly(condition);
        let missed = self.probe == Probe::Missed;
        self.probe = Probe::Off;
        if !missed {
            return Some(holds);
        }
        self.holds_merged(condition)
    }

    /// The common case, compiled code under a hold already taken, straight to the
    /// code: the rest (the state to take first, a tree) goes through
    /// [`Self::holds_taking`], so that this path saves no registers it does not use.
    #[inline]
    fn holds_exactly(&mut self, condition: &Condition) -> bool {
        match condition {
            Condition::Const(holds) => *holds,
            Condition::Native(native) if self.held.is_some() => self.codes.flag(native, self),
            _ => self.holds_taking(condition),
        }
    }

    #[inline(never)]
    fn holds_taking(&mut self, condition: &Condition) -> bool {
        match condition {
            Condition::Native(native) => {
                let codes = self.codes;
                self.holding(|env| codes.flag(native, env))
            }
            _ => self.holding(|env| condition.eval(env)),
        }
    }

    /// In an enumeration, a condition that reads the rolls of one or two tests drawn by
    /// their levels alone (`attack.roll > defence.roll` at the same level): what is
    /// drawn is whether it holds, each answer weighing the rolls (or pairs of rolls) of
    /// those levels that give it, and the rolls keep those that agree, to be drawn
    /// among them if read later. The condition is tried on every roll (or pair), as
    /// the walk face by face would, but makes one branch of two. `None` where it cannot
    /// be drawn so: it rolls dice, reads no such roll, or reads one already compared.
    fn holds_merged(&mut self, condition: &Condition) -> Option<bool> {
        use std::cell::Cell;
        const MOST: usize = 1 << 14;
        let read = Cell::new([false; 3]);
        condition.reads_any(&|slot| {
            let mut tests = read.get();
            match self.roll_read(slot) {
                Some(Tests::Rolled) => tests[0] = true,
                Some(Tests::Attack) => tests[1] = true,
                Some(Tests::Defence) => tests[2] = true,
                _ => {}
            }
            read.set(tests);
            false
        });
        let read = read.get();
        if !read.contains(&true) || condition.rolls() {
            return None;
        }
        let mut bound = [Some(self.bound.test), self.bound.attack, self.bound.defence];
        for (test, read) in bound.iter_mut().zip(read) {
            if !read || test.is_some_and(|t| t.merged == 0) {
                *test = None;
            }
        }
        self.holding(|env| {
            // The merged rolls read (one or two), and which bound test is which.
            let core = env.held.as_ref().expect("held");
            let mut at: Vec<usize> = Vec::new();
            let mut rolls: Vec<Vec<(i64, i64, u64)>> = Vec::new();
            let mut of = [None; 3];
            for (slot, test) in bound.iter().enumerate() {
                let Some(test) = test else { continue };
                let (index, candidates) = core.merged_candidates(test)?;
                let place = match at.iter().position(|&a| a == index) {
                    Some(place) => place,
                    None => {
                        at.push(index);
                        rolls.push(candidates.to_vec());
                        at.len() - 1
                    }
                };
                of[slot] = Some(place);
            }
            if at.is_empty() || at.len() > 2 || rolls.iter().map(Vec::len).product::<usize>() > MOST
            {
                return None;
            }
            let saved = (env.bound.test, env.bound.attack, env.bound.defence);
            let (mut holds, mut fails) = (Vec::new(), Vec::new());
            let seconds = rolls.get(1).map_or(1, Vec::len);
            for a in 0..rolls[0].len() {
                for b in 0..seconds {
                    let places = [a, b];
                    let exact = |test: &mut TestResult, place: Option<usize>| {
                        if let Some(place) = place {
                            let (roll, total, _) = rolls[place][places[place]];
                            (test.roll, test.total, test.merged) = (roll, total, 0);
                        }
                    };
                    exact(&mut env.bound.test, of[0]);
                    if let Some(attack) = env.bound.attack.as_mut() {
                        exact(attack, of[1]);
                    }
                    if let Some(defence) = env.bound.defence.as_mut() {
                        exact(defence, of[2]);
                    }
                    if env.holds_exactly(condition) {
                        holds.push((a, b));
                    } else {
                        fails.push((a, b));
                    }
                }
            }
            (env.bound.test, env.bound.attack, env.bound.defence) = saved;
            // Every roll gives the same answer: nothing to draw.
            if holds.is_empty() || fails.is_empty() {
                return Some(fails.is_empty());
            }
            let core = env.held.as_mut().expect("held");
            match core.draw_merged_group(&at, vec![holds, fails]) {
                Ok(place) => Some(place == 1),
                Err(error) => {
                    env.stop(error);
                    Some(false)
                }
            }
        })
    }

    /// What `number` comes to, read with the fight's state held (let go around a die).
    #[inline]
    pub fn number_of(&mut self, number: &Number) -> i64 {
        match number {
            Number::Const(value) => *value,
            // As for [`Self::holds_exactly`]: compiled code under a hold taken goes
            // straight to the code (a fight only: an enumeration draws what rolls).
            Number::Native(native) if self.held.is_some() && !self.merging => {
                self.codes.number(native, self)
            }
            _ => self.number_taking(number),
        }
    }

    #[inline(never)]
    fn number_taking(&mut self, number: &Number) -> i64 {
        match number {
            Number::Const(value) => *value,
            // In an enumeration, a number that rolls is drawn by its value.
            _ if self.merging && number.rolls() => self.drawn(number),
            Number::Native(native) => {
                let codes = self.codes;
                self.holding(|env| codes.number(native, env))
            }
            _ => self.holding(|env| number.eval(env)),
        }
    }

    /// In an enumeration, a number that rolls drawn as one outcome among its values,
    /// each weighing its ways; rolled die by die where its distribution cannot be said.
    fn drawn(&mut self, number: &Number) -> i64 {
        let ways = self.holding(|env| number.distribution(env));
        match ways {
            Some(ways) if ways.len() > 1 => {
                let weights: Vec<u64> = ways.iter().map(|w| w.1).collect();
                ways[self.branch(&weights) as usize - 1].0
            }
            Some(ways) => ways.first().map_or(0, |w| w.0),
            None => self.holding(|env| number.eval(env)),
        }
    }

    /// Evaluate with the fight's state held throughout (let go around a die): several
    /// expressions in a row under one lock. Nothing in `evaluate` may take the state
    /// but through this environment.
    pub fn holding<T>(&mut self, evaluate: impl FnOnce(&mut Self) -> T) -> T {
        let outermost = self.held.is_none();
        if outermost {
            self.held = Some(self.fight.core());
        }
        let value = evaluate(self);
        if outermost {
            self.held = None;
        }
        value
    }

    /// The fight's state: the one held by the evaluation, or taken for this read.
    #[inline]
    pub(super) fn with_core<T>(&self, read: impl FnOnce(&Core) -> T) -> T {
        match &self.held {
            Some(core) => read(core),
            None => read(&self.fight.core()),
        }
    }

    #[inline]
    fn read<T>(&self, slot: Slot, read: impl FnOnce(&World<'_>, &Bound<'f>, &Read) -> T) -> T {
        self.with_core(|core| self.read_in(core, slot, read))
    }

    #[inline]
    fn read_in<T>(
        &self,
        core: &Core,
        slot: Slot,
        read: impl FnOnce(&World<'_>, &Bound<'f>, &Read) -> T,
    ) -> T {
        let world = World {
            core,
            equipment: self.equipment,
            vocabulary: self.vocabulary,
            fight_options: self.fight_options,
            fight_modifiers: self.fight_modifiers,
            offered: &[],
        };
        read(&world, &self.bound, &self.reads[slot.0 as usize])
    }

    fn roll_dice(&mut self, dice: &DiceExpr) -> i64 {
        // A condition tried without drawing rolls nothing.
        if self.probe != Probe::Off {
            self.probe = Probe::Missed;
            return 0;
        }
        // A die nobody reads is rolled with the state held.
        if let Some(rolled) = self.held.as_mut().and_then(|core| core.roll_unseen(dice)) {
            return rolled.unwrap_or_else(|error| {
                // Recorded for the stage to find, as below; `stop` takes the state.
                drop(self.held.take());
                self.fight.stop(super::super::FightError::Dice(error));
                self.held = Some(self.fight.core());
                0
            });
        }
        // The state is let go while the die is rolled (it may be asked of a person).
        let held = self.held.take().is_some();
        // A die that cannot be rolled (given dice run out) stops the fight: the stage
        // that evaluated this finds the error recorded and returns it.
        let rolled = self
            .fight
            .roll_expr(
                Some(self.roller.unwrap_or(self.bound.me)),
                dice,
                self.purpose,
            )
            .unwrap_or(0);
        if held {
            self.held = Some(self.fight.core());
        }
        rolled
    }
}

impl Env for FightEnv<'_> {
    #[inline]
    fn number(&mut self, slot: Slot) -> i64 {
        // In an enumeration, a roll drawn by its level alone is drawn when read.
        if self.merging
            && let Some(tests) = self.roll_read(slot)
            && self.merged(tests)
        {
            if self.probe != Probe::Off {
                self.probe = Probe::Missed;
                return 0;
            }
            self.refine_tests(tests);
        }
        self.read(slot, |world, bound, read| world.number(bound, read))
    }

    #[inline]
    fn flag(&mut self, slot: Slot) -> bool {
        self.read(slot, |world, bound, read| world.flag(bound, read))
    }

    /// A symbol reads what is bound alone, without the fight's state.
    fn symbol(&self, slot: Slot) -> u32 {
        self.bound
            .symbol(self.vocabulary, &self.reads[slot.0 as usize])
    }

    fn roll_slot(&mut self, slot: Slot) -> i64 {
        match self.reads[slot.0 as usize] {
            Read::ItemDamage => match self.bound.item.and_then(|w| w.damage.as_ref()) {
                Some(dice) => self.roll_dice(dice),
                None => 0,
            },
            Read::StatisticDice(who, ref name) => {
                let whom = who.of(&self.bound);
                // Taken out of the state first: the state is not held while rolling.
                let statistic = whom.and_then(|whom| {
                    self.with_core(|core| core.combatants[whom].statistic(*name).cloned())
                });
                match statistic {
                    Some(Statistic::Dice(dice)) => self.roll_dice(&dice),
                    Some(Statistic::Number(n)) => n,
                    _ => 0,
                }
            }
            Read::SkillDice(..) => match self.slot_dice(slot) {
                Some(dice) => self.roll_dice(&dice),
                None => 0,
            },
            _ => 0,
        }
    }

    fn dice_bounds(&self, slot: Slot) -> (i64, i64) {
        let bounds = |dice: &DiceExpr| (dice.min(), dice.max());
        match &self.reads[slot.0 as usize] {
            Read::ItemDamage => self
                .bound
                .item
                .and_then(|w| w.damage.as_ref())
                .map_or((0, 0), bounds),
            Read::StatisticDice(who, name) => {
                let whom = who.of(&self.bound);
                self.with_core(|core| {
                    match whom.and_then(|whom| core.combatants[whom].statistic(*name)) {
                        Some(Statistic::Dice(dice)) => bounds(dice),
                        Some(Statistic::Number(n)) => (*n, *n),
                        _ => (0, 0),
                    }
                })
            }
            Read::SkillDice(..) => self.slot_dice(slot).map_or((0, 0), |d| bounds(&d)),
            _ => (0, 0),
        }
    }

    fn slot_dice(&self, slot: Slot) -> Option<DiceExpr> {
        self.read(slot, |world, bound, read| world.dice(bound, read))
    }

    fn roll(&mut self, dice: &DiceExpr) -> i64 {
        self.roll_dice(dice)
    }

    fn roll_labelled(&mut self, dice: &DiceExpr, label: &str) -> i64 {
        // A die nobody reads needs no text of what it is for.
        if label.is_empty() || self.held.as_ref().is_some_and(|core| core.dice_unseen()) {
            return self.roll_dice(dice);
        }
        let labelled = format!("{}: {label}", self.purpose);
        let held = self.held.take().is_some();
        let rolled = self
            .fight
            .roll_expr(Some(self.roller.unwrap_or(self.bound.me)), dice, &labelled)
            .unwrap_or(0);
        if held {
            self.held = Some(self.fight.core());
        }
        rolled
    }

    fn exploding_die(&mut self, face: i64) {
        self.exploding_die = u16::try_from(face).unwrap_or(0);
    }

    fn exploding_one_subtracts(&mut self, label: &str, highest: i64) {
        // The state is let go while the note is logged, as while a die is rolled.
        let held = self.held.take().is_some();
        let who = self.bound.me;
        let fight = self.fight;
        fight.note(|| {
            format!(
                "{}: a 1 on the {label} takes itself and the highest die ({highest}) away",
                fight.name(who)
            )
        });
        if held {
            self.held = Some(self.fight.core());
        }
    }

    fn bind(&mut self, collection: Slot, index: usize) -> bool {
        let fight = self.fight;
        let me = self.bound.me;
        match self.reads[collection.0 as usize] {
            Read::EachOpponent => {
                self.bound.other = self.with_core(|core| opponent(core, me, index));
                self.bound.other.is_some()
            }
            Read::EachCombatant => {
                let count = self.with_core(|core| core.combatants.len());
                self.bound.other = (index < count).then_some(index);
                self.bound.other.is_some()
            }
            Read::EachWeapon(place) => {
                let equipment = &fight.ruleset().equipment;
                self.bound.item =
                    self.with_core(|core| weapon_at(core, equipment, me, place, index));
                self.bound.item.is_some()
            }
            _ => false,
        }
    }

    fn enter(&mut self, _: Slot) {
        self.saved.enter(&self.bound);
    }

    fn leave(&mut self, _: Slot) {
        self.saved.leave(&mut self.bound);
    }

    fn native_flag(&mut self, native: &Native<Condition>) -> bool {
        let codes = self.codes;
        codes.flag(native, self)
    }

    fn native_number(&mut self, native: &Native<Number>) -> i64 {
        let codes = self.codes;
        codes.number(native, self)
    }
}
