//! Rolling a test kind: the die, the total, the target with its situational modifiers,
//! then the first level whose guard holds.

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
    // The loader requires at least one level; the last is what no guard claims.
    let last = kind.levels.last().map_or(0, |level| level.level);
    env.bound.test.level = kind
        .levels
        .iter()
        .find(|level| env.holds(&level.guard))
        .map_or(last, |level| level.level);
    env.bound.test
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
