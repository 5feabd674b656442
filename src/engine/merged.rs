//! Tests an enumeration draws by their level alone (`affray odds`).
//!
//! A fight rolls every test die by die. An enumeration walks every outcome of an
//! exchange, and a d100 test is a hundred outcomes though most rules read only its
//! level: so it draws the level, each weighing the rolls that give it, and keeps those
//! rolls here. Which of them came up is drawn only when a rule reads the roll (the
//! principle of deferred decisions: until then every roll of the level leads to the
//! same exchange, so drawing later draws from the same chances). When two such rolls
//! are compared (an opposed test tied on its level), only the comparison is drawn,
//! and the two rolls, if ever read, are drawn together among the pairs that agree
//! with it.

use crate::dice::{DiceSource, RollError};

use super::reads::TestResult;

/// The rolls of one level of one test: (roll, total, ways) each.
type Rolls = Vec<(i64, i64, u64)>;

#[derive(Debug)]
struct MergedRoll {
    rolls: Rolls,
    /// What the draw of the roll is for, as the enumeration lists it.
    purpose: String,
    /// The roll and total, once drawn.
    drawn: Option<(i64, i64)>,
    /// Compared with another merged roll before either was drawn: (the first, the
    /// second, whether the first rolled higher), the same on both.
    pair: Option<(usize, usize, bool)>,
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
            match merged.pair {
                Some(pair) => self.draw_pair(dice, pair)?,
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

    /// Draw two compared rolls together, among the pairs that agree with the comparison.
    fn draw_pair(
        &mut self,
        dice: &mut DiceSource,
        (first, second, higher): (usize, usize, bool),
    ) -> Result<(), RollError> {
        let mut pairs = Vec::new();
        for a in &self.0[first].rolls {
            for b in &self.0[second].rolls {
                if (a.0 > b.0) == higher {
                    pairs.push((*a, *b, a.2.saturating_mul(b.2)));
                }
            }
        }
        let weights: Vec<u64> = pairs.iter().map(|p| p.2).collect();
        let purpose = format!("{} and {}", self.0[first].purpose, self.0[second].purpose);
        let place = dice.branch(&weights, &purpose)?;
        let (a, b, _) = pairs[place as usize - 1];
        for (at, drawn) in [(first, a), (second, b)] {
            self.0[at].drawn = Some((drawn.0, drawn.1));
            self.0[at].pair = None;
        }
        Ok(())
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
                self.0[a].pair = Some((a, b, higher));
                self.0[b].pair = Some((a, b, higher));
                return Ok(higher);
            }
            return Ok(above > 0);
        }
        self.refine(dice, theirs)?;
        let Some(at) = self.undrawn(mine).filter(|&at| self.0[at].pair.is_none()) else {
            self.refine(dice, mine)?;
            return Ok(mine.roll > theirs.roll);
        };
        let merged = &mut self.0[at];
        let (higher, rest): (Rolls, Rolls) = merged
            .rolls
            .iter()
            .partition(|(roll, ..)| *roll > theirs.roll);
        let ways = |rolls: &Rolls| rolls.iter().map(|r| r.2).sum::<u64>();
        let is_higher = match (higher.is_empty(), rest.is_empty()) {
            (false, true) => true,
            (true, _) => false,
            (false, false) => dice.branch(&[ways(&higher), ways(&rest)], &merged.purpose)? == 1,
        };
        merged.rolls = if is_higher { higher } else { rest };
        (mine.roll, mine.total) = (merged.rolls[0].0, merged.rolls[0].1);
        if merged.rolls.len() == 1 {
            self.refine(dice, mine)?;
        }
        Ok(is_higher)
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
