//! Rolling a test kind: the die, the total, the target with its situational modifiers,
//! then the first level whose guard holds.

use std::collections::HashMap;
use std::sync::Arc;

use parking_lot::Mutex;

use crate::dice::DiceExpr;
use crate::expr::Number;
use crate::names::Name;

use super::super::reads::TestResult;
use super::env::FightEnv;
use super::{MAX_GROUPS, TestKind};

/// Roll a test of `kind` for the combatant `env` binds as `self`. The roll, total and
/// target are bound for the level guards to read, in that order: a total may read the
/// roll, a guard all three.
pub(super) fn roll_test(kind: &TestKind, env: &mut FightEnv<'_>) -> TestResult {
    // Every expression of the test reads the fight under one hold of its state.
    env.holding(|env| roll_held(kind, env))
}

fn roll_held(kind: &TestKind, env: &mut FightEnv<'_>) -> TestResult {
    if env.merging
        && let Some(result) = roll_merged(kind, env)
    {
        return result;
    }
    let roll = env.number_of(&kind.roll);
    env.bound.test = TestResult {
        roll,
        total: roll,
        ..TestResult::default()
    };
    if let Some(total) = &kind.total {
        env.bound.test.total = env.number_of(total);
    }
    env.bound.test.target = env.number_of(&kind.target) + modifiers(kind, env);
    env.bound.test.level = level(kind, env);
    env.bound.test
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
            .any(|m| m.guard.reads_any(&reads_roll))
    {
        return None;
    }
    env.bound.test = TestResult::default();
    let target = env.number_of(&kind.target) + modifiers(kind, env);
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

/// The sum of the test's modifiers whose guards hold; of a non-stacking group, only the
/// one of the largest size.
fn modifiers(kind: &TestKind, env: &mut FightEnv<'_>) -> i64 {
    let mut sum = 0i64;
    let mut groups = [0i64; MAX_GROUPS];
    for modifier in &kind.modifiers {
        if !env.holds(&modifier.guard) {
            continue;
        }
        match modifier.group {
            Some(group) => {
                if modifier.value.abs() > groups[group].abs() {
                    groups[group] = modifier.value;
                }
            }
            None => sum = sum.saturating_add(modifier.value),
        }
    }
    groups
        .iter()
        .fold(sum, |sum, value| sum.saturating_add(*value))
}
