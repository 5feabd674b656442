//! The dice expression model: `1D8+1D2`, `4D+2`, `1D6-1`, `7`.

use std::fmt;

use serde::{Serialize, Serializer};
use smallvec::SmallVec;

use super::source::{DiceSource, DieOf, RollError};

/// A sum of signed terms, each a number of dice or a constant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiceExpr {
    /// Inline for the usual one to three terms, so that a copy of the dice (a
    /// statistic's, taken out of the fight's state to be rolled) allocates nothing.
    terms: SmallVec<[DiceTerm; 3]>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DiceTerm {
    pub negative: bool,
    pub kind: TermKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TermKind {
    Dice { count: u32, sides: u32 },
    Constant(u32),
}

impl DiceExpr {
    /// The same dice with every term's sign turned: `-1D4` for `1D4`.
    pub fn negative(&self) -> DiceExpr {
        DiceExpr {
            terms: self
                .terms
                .iter()
                .map(|term| DiceTerm {
                    negative: !term.negative,
                    kind: term.kind,
                })
                .collect(),
        }
    }
}

/// The bounds that keep an expression sane to roll and to enumerate.
#[derive(Clone, Copy, Debug)]
pub struct Limits;

impl Limits {
    pub const MAX_TERMS: usize = 32;
    pub const MAX_COUNT: u32 = 100;
    pub const MAX_SIDES: u32 = 1000;
    pub const MAX_CONSTANT: u32 = 100_000;
    /// Sum of count x sides over all terms: bounds the size and cost of the exact
    /// distribution (100D100, or 10 terms of 1D1000).
    pub const MAX_SPREAD: u64 = 10_000;
}

/// Why an expression was refused, with a sentence for the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LimitExceeded {
    TooManyTerms(usize),
    TooManyDice(u32),
    TooManySides(u32),
    ZeroSides,
    ZeroDice,
    ConstantTooLarge(u32),
    SpreadTooLarge(u64),
}

impl fmt::Display for LimitExceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LimitExceeded::TooManyTerms(n) => write!(
                f,
                "{n} terms is too many (at most {} terms)",
                Limits::MAX_TERMS
            ),
            LimitExceeded::TooManyDice(n) => write!(
                f,
                "{n} dice in one term is too many (at most {})",
                Limits::MAX_COUNT
            ),
            LimitExceeded::TooManySides(n) => write!(
                f,
                "a die of {n} sides is too large (at most {} sides)",
                Limits::MAX_SIDES
            ),
            LimitExceeded::ZeroSides => write!(f, "a die needs at least one side"),
            LimitExceeded::ZeroDice => write!(f, "a term rolls at least one die"),
            LimitExceeded::ConstantTooLarge(n) => write!(
                f,
                "the constant {n} is too large (at most {})",
                Limits::MAX_CONSTANT
            ),
            LimitExceeded::SpreadTooLarge(n) => write!(
                f,
                "the dice add up to {n} sides in all, too many to roll or enumerate (at most {})",
                Limits::MAX_SPREAD
            ),
        }
    }
}

/// One roll of an expression: the total and every die face, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Rolled {
    pub total: i64,
    pub faces: Vec<u32>,
}

/// An exact probability distribution over consecutive totals.
#[derive(Clone, Debug, PartialEq)]
pub struct Distribution {
    pub min: i64,
    /// `probabilities[i]` is the chance of the total `min + i`.
    pub probabilities: Vec<f64>,
}

impl Distribution {
    pub fn max(&self) -> i64 {
        self.min + self.probabilities.len() as i64 - 1
    }

    pub fn probability(&self, total: i64) -> f64 {
        usize::try_from(total - self.min)
            .ok()
            .and_then(|index| self.probabilities.get(index).copied())
            .unwrap_or(0.0)
    }

    pub fn mean(&self) -> f64 {
        self.iter().map(|(total, p)| total as f64 * p).sum()
    }

    pub fn iter(&self) -> impl Iterator<Item = (i64, f64)> + '_ {
        self.probabilities
            .iter()
            .enumerate()
            .map(|(i, p)| (self.min + i as i64, *p))
    }

    fn point(value: i64) -> Self {
        Distribution {
            min: value,
            probabilities: vec![1.0],
        }
    }

    /// The distribution of the sum of two independent totals.
    fn add(&self, other: &Distribution) -> Distribution {
        let mut probabilities = vec![0.0; self.probabilities.len() + other.probabilities.len() - 1];
        for (i, p) in self.probabilities.iter().enumerate() {
            for (j, q) in other.probabilities.iter().enumerate() {
                probabilities[i + j] += p * q;
            }
        }
        Distribution {
            min: self.min + other.min,
            probabilities,
        }
    }

    fn negated(&self) -> Distribution {
        let mut probabilities = self.probabilities.clone();
        probabilities.reverse();
        Distribution {
            min: -self.max(),
            probabilities,
        }
    }
}

impl DiceExpr {
    /// Build an expression, refusing one that is absurd to roll or enumerate.
    pub fn new(terms: Vec<DiceTerm>) -> Result<Self, LimitExceeded> {
        if terms.len() > Limits::MAX_TERMS {
            return Err(LimitExceeded::TooManyTerms(terms.len()));
        }
        let mut spread = 0u64;
        for term in &terms {
            term.check()?;
            if let TermKind::Dice { count, sides } = term.kind {
                spread += u64::from(count) * u64::from(sides);
            }
        }
        if spread > Limits::MAX_SPREAD {
            return Err(LimitExceeded::SpreadTooLarge(spread));
        }
        Ok(DiceExpr {
            terms: terms.into_iter().collect(),
        })
    }

    pub fn constant(value: i64) -> Self {
        DiceExpr {
            terms: smallvec::smallvec![DiceTerm {
                negative: value < 0,
                kind: TermKind::Constant(value.unsigned_abs() as u32),
            }],
        }
    }

    pub fn terms(&self) -> &[DiceTerm] {
        &self.terms
    }

    /// The value of an expression that rolls no dice, such as `3` or `-1`.
    pub fn as_constant(&self) -> Option<i64> {
        self.terms
            .iter()
            .try_fold(0i64, |sum, term| match term.kind {
                TermKind::Constant(value) => Some(sum + term.sign() * i64::from(value)),
                TermKind::Dice { .. } => None,
            })
    }

    pub fn min(&self) -> i64 {
        self.terms.iter().map(|t| t.bounds().0).sum()
    }

    pub fn max(&self) -> i64 {
        self.terms.iter().map(|t| t.bounds().1).sum()
    }

    pub fn mean(&self) -> f64 {
        self.terms.iter().map(DiceTerm::mean).sum()
    }

    /// The exact distribution of totals, by convolution of the dice.
    pub fn distribution(&self) -> Distribution {
        let mut total = Distribution::point(0);
        for term in &self.terms {
            let part = match term.kind {
                TermKind::Constant(value) => Distribution::point(i64::from(value)),
                TermKind::Dice { count, sides } => {
                    let die = Distribution {
                        min: 1,
                        probabilities: vec![1.0 / f64::from(sides); sides as usize],
                    };
                    (0..count).fold(Distribution::point(0), |sum, _| sum.add(&die))
                }
            };
            let part = if term.negative { part.negated() } else { part };
            total = total.add(&part);
        }
        total
    }

    /// How many dice the expression rolls.
    pub fn dice(&self) -> u32 {
        self.terms
            .iter()
            .map(|term| match term.kind {
                TermKind::Dice { count, .. } => count,
                TermKind::Constant(_) => 0,
            })
            .sum()
    }

    /// Each total the expression can roll with the number of ways it rolls it, lowest
    /// first; `None` when the ways do not fit in 64 bits (100D100).
    pub fn totals(&self) -> Option<Vec<(i64, u64)>> {
        // ways[i]: the ways to roll `low + i`.
        let (mut low, mut ways) = (0i64, vec![1u64]);
        for term in &self.terms {
            match term.kind {
                TermKind::Constant(value) => low += term.sign() * i64::from(value),
                TermKind::Dice { count, sides } => {
                    for _ in 0..count {
                        let mut next = vec![0u64; ways.len() + sides as usize - 1];
                        for (i, w) in ways.iter().enumerate() {
                            for face in 0..sides as usize {
                                // A negative die adds its faces from the top down.
                                let at = if term.negative {
                                    sides as usize - 1 - face
                                } else {
                                    face
                                };
                                next[i + at] = next[i + at].checked_add(*w)?;
                            }
                        }
                        low += if term.negative { -i64::from(sides) } else { 1 };
                        ways = next;
                    }
                }
            }
        }
        Some(
            ways.into_iter()
                .enumerate()
                .filter(|(_, w)| *w > 0)
                .map(|(i, w)| (low + i as i64, w))
                .collect(),
        )
    }

    /// Roll every die of the expression from `source`, each die with `purpose`.
    pub fn roll(&self, source: &mut DiceSource, purpose: &str) -> Result<Rolled, RollError> {
        let mut faces = Vec::new();
        let total = self.roll_each(source, purpose, |face| faces.push(face))?;
        Ok(Rolled { total, faces })
    }

    /// The total of the expression rolled from `source`, the faces not kept: the same
    /// dice as [`DiceExpr::roll`], for a fight that logs no roll.
    pub fn roll_total(&self, source: &mut DiceSource, purpose: &str) -> Result<i64, RollError> {
        self.roll_each(source, purpose, |_| {})
    }

    fn roll_each(
        &self,
        source: &mut DiceSource,
        purpose: &str,
        mut face_rolled: impl FnMut(u32),
    ) -> Result<i64, RollError> {
        // An enumeration walks the totals of dice rolled together, not each face: the
        // caller reads the total alone.
        if source.merges()
            && self.dice() > 1
            && let Some(totals) = self.totals()
        {
            let weights: Vec<u64> = totals.iter().map(|(_, ways)| *ways).collect();
            let place = source.branch(&weights, purpose)?;
            return Ok(totals[place as usize - 1].0);
        }
        let mut total = 0i64;
        for term in &self.terms {
            match term.kind {
                TermKind::Constant(value) => total += term.sign() * i64::from(value),
                TermKind::Dice { count, sides } => {
                    for index in 1..=count {
                        let face = source.roll_die_of(sides, purpose, DieOf { index, count })?;
                        face_rolled(face);
                        total += term.sign() * i64::from(face);
                    }
                }
            }
        }
        Ok(total)
    }
}

impl DiceTerm {
    fn check(&self) -> Result<(), LimitExceeded> {
        match self.kind {
            TermKind::Constant(value) if value > Limits::MAX_CONSTANT => {
                Err(LimitExceeded::ConstantTooLarge(value))
            }
            TermKind::Dice { count: 0, .. } => Err(LimitExceeded::ZeroDice),
            TermKind::Dice { count, .. } if count > Limits::MAX_COUNT => {
                Err(LimitExceeded::TooManyDice(count))
            }
            TermKind::Dice { sides: 0, .. } => Err(LimitExceeded::ZeroSides),
            TermKind::Dice { sides, .. } if sides > Limits::MAX_SIDES => {
                Err(LimitExceeded::TooManySides(sides))
            }
            _ => Ok(()),
        }
    }

    fn sign(&self) -> i64 {
        if self.negative { -1 } else { 1 }
    }

    fn bounds(&self) -> (i64, i64) {
        let (low, high) = match self.kind {
            TermKind::Constant(value) => (i64::from(value), i64::from(value)),
            TermKind::Dice { count, sides } => {
                (i64::from(count), i64::from(count) * i64::from(sides))
            }
        };
        if self.negative {
            (-high, -low)
        } else {
            (low, high)
        }
    }

    fn mean(&self) -> f64 {
        let mean = match self.kind {
            TermKind::Constant(value) => f64::from(value),
            TermKind::Dice { count, sides } => f64::from(count) * (f64::from(sides) + 1.0) / 2.0,
        };
        self.sign() as f64 * mean
    }
}

impl fmt::Display for DiceExpr {
    /// The book's own spelling: `1D8+1`, `2D6`, `-1D4`, `3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, term) in self.terms.iter().enumerate() {
            if term.negative {
                f.write_str("-")?;
            } else if index > 0 {
                f.write_str("+")?;
            }
            match term.kind {
                TermKind::Constant(value) => write!(f, "{value}")?,
                TermKind::Dice { count, sides } => write!(f, "{count}D{sides}")?,
            }
        }
        Ok(())
    }
}

impl Serialize for DiceExpr {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dice(count: u32, sides: u32) -> DiceTerm {
        DiceTerm {
            negative: false,
            kind: TermKind::Dice { count, sides },
        }
    }

    fn constant(value: i64) -> DiceTerm {
        DiceTerm {
            negative: value < 0,
            kind: TermKind::Constant(value.unsigned_abs() as u32),
        }
    }

    #[test]
    fn bounds_and_mean_of_a_mixed_expression() {
        // 1D8+1D2
        let expr = DiceExpr::new(vec![dice(1, 8), dice(1, 2)]).unwrap();
        assert_eq!((expr.min(), expr.max()), (2, 10));
        assert_eq!(expr.mean(), 6.0);
        assert_eq!(expr.to_string(), "1D8+1D2");
    }

    #[test]
    fn a_negative_constant_lowers_both_bounds() {
        // 1D6-1
        let expr = DiceExpr::new(vec![dice(1, 6), constant(-1)]).unwrap();
        assert_eq!((expr.min(), expr.max()), (0, 5));
        assert_eq!(expr.to_string(), "1D6-1");
    }

    #[test]
    fn three_d_six_distribution_is_exact() {
        let dist = DiceExpr::new(vec![dice(3, 6)]).unwrap().distribution();
        assert_eq!((dist.min, dist.max()), (3, 18));
        // 27 of the 216 outcomes total 10.
        assert!((dist.probability(10) - 27.0 / 216.0).abs() < 1e-12);
        assert!((dist.probability(3) - 1.0 / 216.0).abs() < 1e-12);
        assert_eq!(dist.probability(19), 0.0);
        assert!((dist.mean() - 10.5).abs() < 1e-9);
        let sum: f64 = dist.probabilities.iter().sum();
        assert!((sum - 1.0).abs() < 1e-12);
    }

    #[test]
    fn a_subtracted_die_mirrors_its_distribution() {
        // 1D4-1D4 runs from -3 to 3 with a peak of 4/16 at 0.
        let mut minus = dice(1, 4);
        minus.negative = true;
        let dist = DiceExpr::new(vec![dice(1, 4), minus])
            .unwrap()
            .distribution();
        assert_eq!((dist.min, dist.max()), (-3, 3));
        assert!((dist.probability(0) - 0.25).abs() < 1e-12);
        assert!((dist.probability(-3) - 1.0 / 16.0).abs() < 1e-12);
    }

    /// The ways an enumeration weighs each total by: counted, not taken from the
    /// floating-point distribution.
    #[test]
    fn totals_count_the_ways_of_each_sum() {
        let three_d_six = DiceExpr::new(vec![dice(3, 6)]).unwrap().totals().unwrap();
        assert_eq!(three_d_six.len(), 16);
        assert_eq!(three_d_six[0], (3, 1));
        assert_eq!(three_d_six[7], (10, 27));
        assert_eq!(three_d_six.iter().map(|t| t.1).sum::<u64>(), 216);
        // 1D8+1D2-1: 1 to 9, each total of 2 to 8 two ways.
        let damage = DiceExpr::new(vec![dice(1, 8), dice(1, 2), constant(-1)])
            .unwrap()
            .totals()
            .unwrap();
        assert_eq!(damage.first(), Some(&(1, 1)));
        assert_eq!(damage.last(), Some(&(9, 1)));
        assert!(damage[1..8].iter().all(|t| t.1 == 2));
        // 1D6-1D4: -3 to 5; 1 comes four ways (2-1, 3-2, 4-3, 5-4).
        let mut minus = dice(1, 4);
        minus.negative = true;
        let difference = DiceExpr::new(vec![dice(1, 6), minus])
            .unwrap()
            .totals()
            .unwrap();
        assert_eq!(difference.first(), Some(&(-3, 1)));
        assert_eq!(difference.last(), Some(&(5, 1)));
        assert!(difference.contains(&(1, 4)));
        // A single die's faces are its totals; 100 dice have more ways than 64 bits hold.
        let d100 = DiceExpr::new(vec![dice(1, 100)]).unwrap().totals().unwrap();
        assert!(
            d100.iter()
                .enumerate()
                .all(|(i, t)| *t == (i as i64 + 1, 1))
        );
        assert_eq!(DiceExpr::new(vec![dice(100, 100)]).unwrap().totals(), None);
    }

    #[test]
    fn absurd_expressions_are_refused() {
        assert_eq!(
            DiceExpr::new(vec![dice(1_000_000, 1_000_000)]),
            Err(LimitExceeded::TooManyDice(1_000_000))
        );
        assert_eq!(
            DiceExpr::new(vec![dice(1, 6); 40]),
            Err(LimitExceeded::TooManyTerms(40))
        );
        assert_eq!(
            DiceExpr::new(vec![dice(100, 1000)]),
            Err(LimitExceeded::SpreadTooLarge(100_000))
        );
        assert_eq!(
            DiceExpr::new(vec![dice(1, 0)]),
            Err(LimitExceeded::ZeroSides)
        );
    }
}
