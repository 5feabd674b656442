//! Tests an enumeration draws by their level alone (`affray odds`).
//!
//! A fight rolls every test die by die. An enumeration walks every outcome of an
//! exchange, and a d100 test is a hundred outcomes though most rules read only its
//! level: so it draws the level, each weighing the rolls that give it, and keeps those
//! rolls here. Which of them came up is drawn only when a rule reads the roll (the
//! principle of deferred decisions: until then every roll of the level leads to the
//! same exchange, so drawing later draws from the same chances). When two such rolls
//! are compared (an opposed test tied on its level), or a condition reads them
//! (`FightEnv::holds`), only the comparison or the condition is drawn, and the two
//! keep the pairs of rolls that agree with it; one of them read later is drawn alone
//! (weighing the pairs it is in), the other keeping the rolls that go with it. A roll
//! compared with an exact one keeps the rolls that agree.

use std::sync::Arc;

use crate::dice::{DiceSource, RollError};

use super::reads::TestResult;

/// One roll of a level of a test: (roll, total, ways).
pub(crate) type RollWays = (i64, i64, u64);

/// The rolls of one level of one test.
type Rolls = Vec<RollWays>;

#[derive(Debug)]
struct MergedRoll {
    rolls: Rolls,
    /// What the draw of the roll is for, as the enumeration lists it.
    purpose: String,
    /// The roll and total, once drawn.
    drawn: Option<(i64, i64)>,
    /// Compared with another merged roll before either was drawn: the two and the
    /// pairs of their rolls that agree with what was drawn, the same on both.
    pair: Option<Arc<Pair>>,
}

/// Two merged rolls drawn together: the first, the second, and the places in their
/// `rolls` of the pairs still possible.
#[derive(Debug)]
struct Pair {
    first: usize,
    second: usize,
    allowed: Vec<(usize, usize)>,
}

/// The merged rolls of one fight of an enumeration; empty in a fight.
#[derive(Debug, Default)]
pub(crate) struct MergedRolls(Vec<MergedRoll>);

impl MergedRolls {
    /// Keep the rolls of a test drawn by its level alone: its place for
    /// [`TestResult::merged`] (the first 1).
    pub fn keep(&mut self, rolls: Rolls, purpose: String) -> u32 {
        self.0.push(MergedRoll {
            rolls,
            purpose,
            drawn: None,
            pair: None,
        });
        self.0.len() as u32
    }

    /// The index of `result`'s merged roll, if its roll is still to be drawn.
    fn undrawn(&self, result: &TestResult) -> Option<usize> {
        let at = result.merged.checked_sub(1)? as usize;
        self.0.get(at).filter(|m| m.drawn.is_none()).map(|_| at)
    }

    /// Make `result`'s roll and total exact, drawing them among its level's rolls the
    /// first time any copy of it is read (with the roll it was compared with, if any).
    pub fn refine(
        &mut self,
        dice: &mut DiceSource,
        result: &mut TestResult,
    ) -> Result<(), RollError> {
        let Some(at) = result.merged.checked_sub(1).map(|at| at as usize) else {
            return Ok(());
        };
        let Some(merged) = self.0.get(at) else {
            return Ok(());
        };
        if merged.drawn.is_none() {
            match merged.pair.clone() {
                Some(pair) => self.draw_one_of_pair(dice, &pair, at)?,
                None => {
                    let weights: Vec<u64> = merged.rolls.iter().map(|r| r.2).collect();
                    let place = dice.branch(&weights, &merged.purpose)?;
                    let (roll, total, _) = merged.rolls[place as usize - 1];
                    self.0[at].drawn = Some((roll, total));
                }
            }
        }
        if let Some((roll, total)) = self.0[at].drawn {
            (result.roll, result.total, result.merged) = (roll, total, 0);
        }
        Ok(())
    }

    /// Draw the roll `at`, one of two compared rolls, among the pairs that agree with
    /// what was drawn (each roll weighing the pairs it is in); the other keeps the rolls
    /// that go with it, still to be drawn.
    fn draw_one_of_pair(
        &mut self,
        dice: &mut DiceSource,
        pair: &Pair,
        at: usize,
    ) -> Result<(), RollError> {
        let (mine, other) = if at == pair.first {
            (pair.first, pair.second)
        } else {
            (pair.second, pair.first)
        };
        // For each of its rolls that some pair allows, the places of the other's.
        let mut partners: Vec<(usize, Vec<usize>)> = Vec::new();
        for &(a, b) in &pair.allowed {
            let (m, o) = if at == pair.first { (a, b) } else { (b, a) };
            match partners.iter_mut().find(|(place, _)| *place == m) {
                Some((_, others)) => others.push(o),
                None => partners.push((m, vec![o])),
            }
        }
        partners.sort_by_key(|(place, _)| *place);
        let weights: Vec<u64> = partners
            .iter()
            .map(|(m, others)| {
                let theirs: u64 = others.iter().map(|&o| self.0[other].rolls[o].2).sum();
                self.0[mine].rolls[*m].2.saturating_mul(theirs)
            })
            .collect();
        let place = dice.branch(&weights, &self.0[mine].purpose)?;
        let (m, others) = &partners[place as usize - 1];
        let (roll, total, _) = self.0[mine].rolls[*m];
        self.0[mine].drawn = Some((roll, total));
        let kept: Rolls = others.iter().map(|&o| self.0[other].rolls[o]).collect();
        self.0[other].rolls = kept;
        self.0[mine].pair = None;
        self.0[other].pair = None;
        if self.0[other].rolls.len() == 1 {
            let (roll, total, _) = self.0[other].rolls[0];
            self.0[other].drawn = Some((roll, total));
        }
        Ok(())
    }

    /// The index and rolls of `result`'s merged roll, if still to be drawn and drawn
    /// with no other.
    pub fn candidates(&self, result: &TestResult) -> Option<(usize, &Rolls)> {
        let at = self.undrawn(result)?;
        let merged = &self.0[at];
        merged.pair.is_none().then_some((at, &merged.rolls))
    }

    /// Draw which of `groups` holds, each a set of the places of the rolls of the
    /// merged rolls `at` (one or two of them, from [`MergedRolls::candidates`]) that
    /// give it; the rolls keep the places of the group drawn. Its place, the first 1.
    pub fn draw_group(
        &mut self,
        dice: &mut DiceSource,
        at: &[usize],
        groups: Vec<Vec<(usize, usize)>>,
    ) -> Result<usize, RollError> {
        let ways = |merged: &MergedRolls, places: &[(usize, usize)]| -> u64 {
            places
                .iter()
                .map(|&(a, b)| match at {
                    [one] => merged.0[*one].rolls[a].2,
                    [first, second, ..] => merged.0[*first].rolls[a]
                        .2
                        .saturating_mul(merged.0[*second].rolls[b].2),
                    [] => 0,
                })
                .fold(0u64, u64::saturating_add)
        };
        let weights: Vec<u64> = groups.iter().map(|g| ways(self, g)).collect();
        let place = if groups.len() > 1 {
            let purpose = at
                .iter()
                .map(|&at| self.0[at].purpose.as_str())
                .collect::<Vec<_>>()
                .join(" against ");
            dice.branch(&weights, &purpose)? as usize
        } else {
            1
        };
        let chosen = &groups[place - 1];
        match at {
            [one] => {
                let rolls = &self.0[*one].rolls;
                self.0[*one].rolls = chosen.iter().map(|&(a, _)| rolls[a]).collect();
            }
            [first, second, ..] => {
                let pair = Arc::new(Pair {
                    first: *first,
                    second: *second,
                    allowed: chosen.clone(),
                });
                self.0[*first].pair = Some(pair.clone());
                self.0[*second].pair = Some(pair);
            }
            [] => {}
        }
        Ok(place)
    }

    /// Whether `mine` rolled higher than `theirs`. Both still to be drawn and not yet
    /// compared: only the comparison is drawn (by the ways of the pairs on each side),
    /// and the two stay merged, paired. Otherwise `theirs` is made exact, and `mine`, if
    /// still merged, keeps the rolls that agree with the comparison drawn.
    pub fn higher(
        &mut self,
        dice: &mut DiceSource,
        mine: &mut TestResult,
        theirs: &mut TestResult,
    ) -> Result<bool, RollError> {
        let unpaired = |at: Option<usize>| at.filter(|&at| self.0[at].pair.is_none());
        if let (Some(a), Some(b)) = (unpaired(self.undrawn(mine)), unpaired(self.undrawn(theirs)))
            && a != b
        {
            let (mut above, mut rest) = (0u64, 0u64);
            for x in &self.0[a].rolls {
                for y in &self.0[b].rolls {
                    let ways = x.2.saturating_mul(y.2);
                    if x.0 > y.0 {
                        above = above.saturating_add(ways);
                    } else {
                        rest = rest.saturating_add(ways);
                    }
                }
            }
            if above > 0 && rest > 0 {
                let purpose = format!("{} against {}", self.0[a].purpose, self.0[b].purpose);
                let higher = dice.branch(&[above, rest], &purpose)? == 1;
                let mut allowed = Vec::new();
                for (i, x) in self.0[a].rolls.iter().enumerate() {
                    for (j, y) in self.0[b].rolls.iter().enumerate() {
                        if (x.0 > y.0) == higher {
                            allowed.push((i, j));
                        }
                    }
                }
                let pair = Arc::new(Pair {
                    first: a,
                    second: b,
                    allowed,
                });
                self.0[a].pair = Some(pair.clone());
                self.0[b].pair = Some(pair);
                return Ok(higher);
            }
            return Ok(above > 0);
        }
        // One of the two exact (or drawn): the other, still merged, keeps the rolls that
        // agree with the comparison drawn, as `theirs` did above.
        let open = |merged: &Self, result: &TestResult| {
            merged
                .undrawn(result)
                .filter(|&at| merged.0[at].pair.is_none())
        };
        if let Some(at) = open(self, theirs).filter(|_| self.undrawn(mine).is_none()) {
            self.refine(dice, mine)?;
            let lower = self.narrow(dice, at, |roll| roll < mine.roll, theirs)?;
            return Ok(lower);
        }
        self.refine(dice, theirs)?;
        let Some(at) = open(self, mine) else {
            self.refine(dice, mine)?;
            return Ok(mine.roll > theirs.roll);
        };
        let theirs = theirs.roll;
        self.narrow(dice, at, |roll| roll > theirs, mine)
    }

    /// Draw whether the merged roll `at` (of `result`) is one that `agrees`, each answer
    /// weighing its rolls; the roll keeps those of the answer drawn (and is drawn if it
    /// is one roll). The answer.
    fn narrow(
        &mut self,
        dice: &mut DiceSource,
        at: usize,
        agrees: impl Fn(i64) -> bool,
        result: &mut TestResult,
    ) -> Result<bool, RollError> {
        let merged = &mut self.0[at];
        let (yes, no): (Rolls, Rolls) = merged.rolls.iter().partition(|(roll, ..)| agrees(*roll));
        let ways = |rolls: &Rolls| rolls.iter().map(|r| r.2).sum::<u64>();
        let agreed = match (yes.is_empty(), no.is_empty()) {
            (false, true) => true,
            (true, _) => false,
            (false, false) => dice.branch(&[ways(&yes), ways(&no)], &merged.purpose)? == 1,
        };
        merged.rolls = if agreed { yes } else { no };
        (result.roll, result.total) = (merged.rolls[0].0, merged.rolls[0].1);
        if merged.rolls.len() == 1 {
            self.refine(dice, result)?;
        }
        Ok(agreed)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    /// Every path of draws `run` can take, with its chance: the draws of a
    /// `DiceSource::planned` walked outcome by outcome, as `affray odds` walks them.
    fn walk(run: &dyn Fn(&mut DiceSource) -> (i64, i64)) -> BTreeMap<(i64, i64), f64> {
        let mut found = BTreeMap::new();
        let mut stack = vec![(Vec::new(), 1.0)];
        while let Some((plan, chance)) = stack.pop() {
            let mut dice = DiceSource::planned(plan.clone(), 0).traced();
            let result = run(&mut dice);
            match dice.trace().get(plan.len()) {
                None => *found.entry(result).or_insert(0.0) += chance,
                Some(next) => {
                    let all: u64 = next.weights.iter().sum();
                    for (place, weight) in next.weights.iter().enumerate() {
                        let mut branch = plan.clone();
                        branch.push(place as u32 + 1);
                        stack.push((branch, chance * *weight as f64 / all as f64));
                    }
                }
            }
        }
        found
    }

    /// `pairs` pairs of rolls came up, each with the same chance.
    fn assert_every_pair_once_in(found: &BTreeMap<(i64, i64), f64>, pairs: usize) {
        assert_eq!(found.len(), pairs, "{found:?}");
        for chance in found.values() {
            assert!((chance - 1.0 / pairs as f64).abs() < 1e-12, "{found:?}");
        }
    }

    fn rolls(low: i64, high: i64) -> Rolls {
        (low..=high).map(|roll| (roll, roll, 1)).collect()
    }

    fn merged(at: u32) -> TestResult {
        TestResult {
            merged: at,
            ..TestResult::default()
        }
    }

    /// Two rolls of one level compared, then both read: the comparison is drawn first
    /// and the pair after, and every pair of rolls comes up as often as rolling both
    /// dice at once would give it.
    #[test]
    fn compared_rolls_read_later_come_up_as_two_dice_would() {
        let found = walk(&|dice| {
            let mut kept = MergedRolls::default();
            let (mut mine, mut theirs) = (
                merged(kept.keep(rolls(6, 10), "mine".into())),
                merged(kept.keep(rolls(5, 8), "theirs".into())),
            );
            let higher = kept.higher(dice, &mut mine, &mut theirs).unwrap();
            kept.refine(dice, &mut mine).unwrap();
            kept.refine(dice, &mut theirs).unwrap();
            assert_eq!(higher, mine.roll > theirs.roll);
            assert_eq!((mine.merged, theirs.merged), (0, 0));
            (mine.roll, theirs.roll)
        });
        assert_every_pair_once_in(&found, 20);
    }

    /// A roll compared with one already drawn keeps the rolls that agree; read later,
    /// each comes up with its own chance.
    #[test]
    fn a_roll_compared_with_a_drawn_one_keeps_the_rolls_that_agree() {
        let found = walk(&|dice| {
            let mut kept = MergedRolls::default();
            let mut theirs = merged(kept.keep(rolls(1, 3), "theirs".into()));
            kept.refine(dice, &mut theirs).unwrap();
            let mut mine = merged(kept.keep(rolls(1, 4), "mine".into()));
            let higher = kept.higher(dice, &mut mine, &mut theirs).unwrap();
            kept.refine(dice, &mut mine).unwrap();
            assert_eq!(higher, mine.roll > theirs.roll);
            (mine.roll, theirs.roll)
        });
        assert_every_pair_once_in(&found, 12);
    }

    /// A merged roll compared with an exact one (a level of a single roll) keeps the
    /// rolls that agree: two outcomes, not a face each, and each pair comes up with its
    /// own chance once the roll is read.
    #[test]
    fn a_merged_roll_compared_with_an_exact_one_is_narrowed_not_drawn() {
        let found = walk(&|dice| {
            let mut kept = MergedRolls::default();
            let mut theirs = merged(kept.keep(rolls(1, 6), "theirs".into()));
            let mut mine = TestResult {
                roll: 4,
                total: 4,
                ..TestResult::default()
            };
            let higher = kept.higher(dice, &mut mine, &mut theirs).unwrap();
            assert!(dice.trace().iter().all(|die| die.sides <= 2));
            kept.refine(dice, &mut theirs).unwrap();
            assert_eq!(higher, mine.roll > theirs.roll);
            (mine.roll, theirs.roll)
        });
        assert_every_pair_once_in(&found, 6);
    }

    /// Two compared rolls, one of them read: only its roll is drawn (each weighing the
    /// pairs it is in), the other keeps the rolls that go with it; read after, every
    /// pair comes up as two dice would give it.
    #[test]
    fn one_of_two_compared_rolls_read_draws_it_alone() {
        let found = walk(&|dice| {
            let mut kept = MergedRolls::default();
            let (mut mine, mut theirs) = (
                merged(kept.keep(rolls(1, 6), "mine".into())),
                merged(kept.keep(rolls(1, 6), "theirs".into())),
            );
            let higher = kept.higher(dice, &mut mine, &mut theirs).unwrap();
            kept.refine(dice, &mut theirs).unwrap();
            assert!(dice.trace().iter().all(|die| die.sides <= 6));
            kept.refine(dice, &mut mine).unwrap();
            assert_eq!(higher, mine.roll > theirs.roll);
            (mine.roll, theirs.roll)
        });
        assert_every_pair_once_in(&found, 36);
    }

    /// Any split of two merged rolls (what a condition reading both gives): one draw of
    /// two outcomes, weighing the pairs on each side; the pairs read after come up as
    /// two dice would give them.
    #[test]
    fn a_split_of_two_rolls_is_one_draw_and_keeps_the_pairs_of_its_side() {
        let found = walk(&|dice| {
            let mut kept = MergedRolls::default();
            let (mut a, mut b) = (
                merged(kept.keep(rolls(1, 6), "a".into())),
                merged(kept.keep(rolls(1, 4), "b".into())),
            );
            let (ia, ra) = kept.candidates(&a).map(|(i, r)| (i, r.clone())).unwrap();
            let (ib, rb) = kept.candidates(&b).map(|(i, r)| (i, r.clone())).unwrap();
            let (mut sum_high, mut rest) = (Vec::new(), Vec::new());
            for (i, x) in ra.iter().enumerate() {
                for (j, y) in rb.iter().enumerate() {
                    if x.0 + y.0 > 6 {
                        sum_high.push((i, j));
                    } else {
                        rest.push((i, j));
                    }
                }
            }
            let place = kept
                .draw_group(dice, &[ia, ib], vec![sum_high, rest])
                .unwrap();
            assert_eq!(dice.trace().len(), 1);
            assert_eq!(dice.trace()[0].weights, vec![10, 14]);
            kept.refine(dice, &mut a).unwrap();
            kept.refine(dice, &mut b).unwrap();
            assert_eq!(place == 1, a.roll + b.roll > 6);
            (a.roll, b.roll)
        });
        assert_every_pair_once_in(&found, 24);
    }

    /// A roll never read is never drawn: the level alone was enough.
    #[test]
    fn a_roll_never_read_is_never_drawn() {
        let mut dice = DiceSource::planned(Vec::new(), 0).traced();
        let mut kept = MergedRolls::default();
        let mut result = merged(kept.keep(rolls(1, 50), "attack".into()));
        result.roll = 1;
        assert!(dice.trace().is_empty());
        kept.refine(&mut dice, &mut result).unwrap();
        assert_eq!(dice.trace().len(), 1);
        assert_eq!(dice.trace()[0].weights, vec![1; 50]);
        // A copy read later gets the same roll without another draw.
        let mut copy = merged(1);
        kept.refine(&mut dice, &mut copy).unwrap();
        assert_eq!((copy.roll, dice.trace().len()), (result.roll, 1));
    }
}
