//! Rolling a test kind: the die, the total, the target with its situational modifiers,
//! then the first level whose guard holds.

use std::collections::HashMap;
use std::ops::RangeInclusive;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use foldhash::fast::FixedState;
use parking_lot::{Mutex, RwLock};

use crate::dice::DiceExpr;
use crate::expr::Number;
use crate::names::Name;

use super::super::reads::TestResult;
use super::env::FightEnv;
use super::{Grades, MAX_GROUPS, TestKind, TestModifier};

/// Roll a test of `kind` for the combatant `env` binds as `self`. The roll, total and
/// target are bound for the level guards to read, in that order: a total may read the
/// roll, a guard all three.
pub(super) fn roll_test(kind: &TestKind, env: &mut FightEnv<'_>) -> TestResult {
    // Every expression of the test reads the fight under one hold of its state.
    env.holding(|env| roll_held(kind, env))
}

fn roll_held(kind: &TestKind, env: &mut FightEnv<'_>) -> TestResult {
    // An exploding die the roll rolls is kept here for the exchange
    // ([`FightEnv::exploding_die`]).
    env.exploding_die = 0;
    if env.merging
        && let Some(result) = roll_merged(kind, env)
    {
        return result;
    }
    // A graded test knows its grade before the die is rolled: some grades roll none.
    let grade = match &kind.grades {
        Some(grades) => {
            env.bound.test = TestResult::default();
            let grade = grade_of(kind, grades, env);
            if let Some(level) = grades.no_roll[grade as usize] {
                let target = modified_target(kind, env);
                env.bound.test = TestResult {
                    level,
                    target: grades.scaled(target, grade),
                    ..TestResult::default()
                };
                return env.bound.test;
            }
            Some((grades, grade))
        }
        None => None,
    };
    let roll = env.number_of(&kind.roll);
    env.bound.test = TestResult {
        roll,
        total: roll,
        ..TestResult::default()
    };
    if let Some(total) = &kind.total {
        env.bound.test.total = env.number_of(total);
    }
    env.bound.test.target = modified_target(kind, env);
    if let Some((grades, grade)) = grade {
        env.bound.test.target = grades.scaled(env.bound.test.target, grade);
    }
    env.bound.test.level = match &kind.levels_by_roll {
        Some(rolls) if rolls.contains(&roll) => looked_up(kind, rolls, env),
        _ => level(kind, env),
    };
    env.bound.test
}

/// The level of the test bound, looked up in its kind's table for its target: what
/// trying each level's guard gives, since those guards read only the roll, total and
/// target, worked out the first time a fight of the combat meets that roll and target.
fn looked_up(kind: &TestKind, rolls: &RangeInclusive<i64>, env: &mut FightEnv<'_>) -> u32 {
    let test = env.bound.test;
    let table = env.level_tables().of(kind.name, test.target, rolls);
    let entry = &table[(test.roll - rolls.start()) as usize];
    match entry.load(Ordering::Relaxed) {
        UNKNOWN => {
            let level = level(kind, env);
            entry.store(level, Ordering::Relaxed);
            level
        }
        found => {
            // Every test that fights in a debug build checks the table against the
            // guards, which read and roll nothing else.
            debug_assert_eq!(found, level(kind, env), "the level table of {}", kind.name);
            found
        }
    }
}

/// The level of `test` (a test of `kind` by the combatant `env` binds as `self`) read
/// again for its target as it is now: a roll lowered with its opponent's
/// (`excess_over`).
pub(super) fn level_again(kind: &TestKind, test: TestResult, env: &mut FightEnv<'_>) -> u32 {
    let bound = env.bound.test;
    env.bound.test = test;
    let found = env.holding(|env| level(kind, env));
    env.bound.test = bound;
    found
}

/// The first level whose guard holds of the test bound; the loader requires at least
/// one level, and the last is what no guard claims.
#[inline]
fn level(kind: &TestKind, env: &mut FightEnv<'_>) -> u32 {
    let last = kind.levels.last().map_or(0, |level| level.level);
    kind.levels
        .iter()
        .find(|level| env.holds(&level.guard))
        .map_or(last, |level| level.level)
}

/// In an enumeration, a test whose roll is plain dice is drawn by its level: each level
/// weighs the rolls that give it, and the roll stands for them all until a rule reads
/// it (`Core::refine`). A d100 test is four or five outcomes, not a hundred. `None`
/// when the test cannot be drawn so: a target or total that rolls, or a target that
/// reads the roll.
fn roll_merged(kind: &TestKind, env: &mut FightEnv<'_>) -> Option<TestResult> {
    let Number::Roll(dice) = &kind.roll else {
        return None;
    };
    let reads_roll = |slot| env.reads_roll(slot);
    if kind.total.as_ref().is_some_and(Number::rolls)
        || kind.target.rolls()
        || kind.target.reads_any(&reads_roll)
        || kind
            .modifiers
            .iter()
            .any(|m| m.dice.is_some() || m.guard.reads_any(&reads_roll))
    {
        return None;
    }
    env.bound.test = TestResult::default();
    let mut target = modified_target(kind, env);
    if let Some(grades) = &kind.grades {
        let grade = grade_of(kind, grades, env);
        target = grades.scaled(target, grade);
        if let Some(level) = grades.no_roll[grade as usize] {
            env.bound.test = TestResult {
                level,
                target,
                ..TestResult::default()
            };
            return Some(env.bound.test);
        }
    }
    // Levels that read the test alone are the same for every test of this target.
    let test_alone = |slot| env.reads_test_alone(slot);
    let pure = kind
        .levels
        .iter()
        .all(|l| !l.guard.reads_any(&|s| !test_alone(s)))
        && kind
            .total
            .as_ref()
            .is_none_or(|t| !t.reads_any(&|s| !test_alone(s)));
    let key = (kind.name, target);
    let cache = pure.then(|| env.combat_levels()).flatten();
    let levels = match cache.and_then(|cache| cache.get(key)) {
        Some(levels) => levels,
        None => {
            let levels = Arc::new(levels_of(kind, dice, target, env)?);
            if let Some(cache) = cache {
                cache.put(key, levels.clone());
            }
            levels
        }
    };
    let weights: Vec<u64> = levels
        .iter()
        .map(|(_, rolls)| rolls.iter().map(|r| r.2).sum())
        .collect();
    let place = env.branch(&weights) as usize;
    let (level, rolls) = &levels[place - 1];
    let (level, rolls) = (*level, rolls.clone());
    let (roll, total, _) = rolls[0];
    let merged = if rolls.len() > 1 {
        env.merge_rolls(rolls)
    } else {
        0
    };
    env.bound.test = TestResult {
        level,
        roll,
        total,
        target,
        merged,
    };
    Some(env.bound.test)
}

/// Each level of a test of `target` rolled with `dice`, with the rolls that give it:
/// (roll, total, ways), in the order of the rolls.
fn levels_of(
    kind: &TestKind,
    dice: &DiceExpr,
    target: i64,
    env: &mut FightEnv<'_>,
) -> Option<Levels> {
    let mut levels: Levels = Vec::new();
    for (roll, ways) in dice.totals()? {
        env.bound.test = TestResult {
            roll,
            total: roll,
            target,
            ..TestResult::default()
        };
        if let Some(total) = &kind.total {
            env.bound.test.total = env.number_of(total);
        }
        let total = env.bound.test.total;
        let level = level(kind, env);
        match levels.iter_mut().find(|(l, _)| *l == level) {
            Some((_, rolls)) => rolls.push((roll, total, ways)),
            None => levels.push((level, vec![(roll, total, ways)])),
        }
    }
    Some(levels)
}

/// The levels of a test with their rolls: (level, [(roll, total, ways)]).
type Levels = Vec<(u32, Vec<(i64, i64, u64)>)>;

/// The levels of tests whose level guards read only the test's roll, total and target,
/// by test kind and target: an enumeration draws thousands of tests of a few targets.
#[derive(Default)]
pub struct LevelCache(Mutex<HashMap<(Name, i64), Arc<Levels>>>);

impl LevelCache {
    fn get(&self, key: (Name, i64)) -> Option<Arc<Levels>> {
        self.0.lock().get(&key).cloned()
    }

    fn put(&self, key: (Name, i64), levels: Arc<Levels>) {
        self.0.lock().insert(key, levels);
    }
}

// A copy starts empty: what it keeps is worked out again where needed.
impl Clone for LevelCache {
    fn clone(&self) -> Self {
        LevelCache::default()
    }
}

impl std::fmt::Debug for LevelCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LevelCache")
    }
}

/// The level of each roll of a test that may be looked up ([`TestKind::levels_by_roll`]),
/// by test kind and target, from its least roll ([`UNKNOWN`] until a fight meets it):
/// shared by the fights of a specialised combat, which meet a few targets thousands of
/// times. A level is the same whichever fight works it out first, so the tables change
/// no fight.
#[derive(Default)]
pub struct LevelTables(RwLock<HashMap<(Name, i64), Table, FixedState>>);

/// The levels of a test kind against one target, by roll from the least.
type Table = Arc<[AtomicU32]>;

/// A roll whose level is not worked out yet.
const UNKNOWN: u32 = u32::MAX;

impl LevelTables {
    /// The table of the test kind `kind` against `target`, made empty the first time.
    fn of(&self, kind: Name, target: i64, rolls: &RangeInclusive<i64>) -> Table {
        if let Some(table) = self.0.read().get(&(kind, target)) {
            return table.clone();
        }
        self.0
            .write()
            .entry((kind, target))
            .or_insert_with(|| rolls.clone().map(|_| AtomicU32::new(UNKNOWN)).collect())
            .clone()
    }
}

// A copy starts empty: what it keeps is worked out again where needed.
impl Clone for LevelTables {
    fn clone(&self) -> Self {
        LevelTables::default()
    }
}

impl std::fmt::Debug for LevelTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LevelTables")
    }
}

/// The test's target with its situational modifiers; where they moved it, no lower than
/// the kind's `target_min` ("Modifiers may never adjust the total ... below 3").
#[inline]
fn modified_target(kind: &TestKind, env: &mut FightEnv<'_>) -> i64 {
    let target = env.number_of(&kind.target);
    let modifiers = modifiers(kind, env);
    let modified = target + modifiers;
    match &kind.target_min {
        Some(least) if modifiers != 0 => modified.max(env.number_of(least)),
        _ => modified,
    }
}

/// The sum of the test's modifiers whose guards hold; of a non-stacking group, only the
/// one of the largest size.
fn modifiers(kind: &TestKind, env: &mut FightEnv<'_>) -> i64 {
    if kind.modifiers.is_empty() {
        return 0;
    }
    let mut sum = 0i64;
    // Of each group, the modifier of the largest size (its standard value for dice);
    // `used` has a bit for each group one applies in.
    let mut groups: [Option<&TestModifier>; MAX_GROUPS] = [None; MAX_GROUPS];
    let mut used = 0u32;
    let mut standard = None;
    for modifier in &kind.modifiers {
        if modifier.grade.is_some() || !env.holds(&modifier.guard) {
            continue;
        }
        match modifier.group {
            Some(group) => {
                if groups[group].is_none_or(|g| modifier.value.abs() > g.value.abs()) {
                    groups[group] = Some(modifier);
                    used |= 1 << group;
                }
            }
            None => sum = sum.saturating_add(value_of(modifier, kind, &mut standard, env)),
        }
    }
    while used != 0 {
        let group = used.trailing_zeros() as usize;
        used &= used - 1;
        if let Some(modifier) = groups[group] {
            sum = sum.saturating_add(value_of(modifier, kind, &mut standard, env));
        }
    }
    sum
}

/// What an applying modifier adds: its number, or its dice rolled (for the modifier's
/// name) unless the test's `standard_modifiers` holds (asked once a test).
#[inline]
fn value_of(
    modifier: &TestModifier,
    kind: &TestKind,
    standard: &mut Option<bool>,
    env: &mut FightEnv<'_>,
) -> i64 {
    let Some(dice) = &modifier.dice else {
        return modifier.value;
    };
    let standard = *standard.get_or_insert_with(|| {
        kind.standard_modifiers
            .as_ref()
            .is_some_and(|condition| env.holds(condition))
    });
    if standard {
        return modifier.value;
    }
    let purpose = std::mem::replace(&mut env.purpose, modifier.name.as_str());
    let rolled = env.number_of(dice);
    env.purpose = purpose;
    rolled
}

/// The grade of the test bound: the most severe of the grades its modifiers name that
/// apply (the standard grade when none does), then shifted.
fn grade_of(kind: &TestKind, grades: &Grades, env: &mut FightEnv<'_>) -> u32 {
    let mut grade = None;
    for modifier in &kind.modifiers {
        if let Some(named) = modifier.grade
            && env.holds(&modifier.guard)
        {
            grade = Some(grade.map_or(named, |g: u32| g.max(named)));
        }
    }
    let grade = grade.unwrap_or(grades.standard);
    match &grades.shift {
        Some(shift) => grades.shifted(grade, env.number_of(shift)),
        None => grade,
    }
}
