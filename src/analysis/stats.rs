//! The few statistics a report needs: a 95% interval for a proportion (Wilson's score
//! interval, sound near 0% and 100% where the normal approximation is not) and for a mean
//! (normal approximation from exact integer sums), the p-value of a mean difference and
//! the Benjamini–Hochberg decision over many of them, and percentiles of a histogram.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    pub low: f64,
    pub high: f64,
}

impl Interval {
    pub fn width(&self) -> f64 {
        self.high - self.low
    }

    /// Whether the interval leaves out zero: a difference that is not noise.
    pub fn excludes_zero(&self) -> bool {
        self.low > 0.0 || self.high < 0.0
    }
}

/// Wilson's 95% score interval for `hits` out of `n`.
pub fn proportion_interval(hits: u64, n: u64) -> Interval {
    if n == 0 {
        return Interval {
            low: 0.0,
            high: 1.0,
        };
    }
    let n = n as f64;
    let p = hits as f64 / n;
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Interval {
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    }
}

/// Sums of a per-fight whole number: exact, so adding them up in any order gives the same.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Sums {
    pub sum: i64,
    pub sum_of_squares: i128,
}

impl Sums {
    pub fn add(&mut self, value: i64) {
        self.sum += value;
        self.sum_of_squares += i128::from(value) * i128::from(value);
    }

    pub fn merge(&mut self, other: &Sums) {
        self.sum += other.sum;
        self.sum_of_squares += other.sum_of_squares;
    }

    pub fn mean(&self, n: u64) -> f64 {
        if n == 0 {
            0.0
        } else {
            self.sum as f64 / n as f64
        }
    }

    /// The standard error of the mean over `n` fights; `None` below two fights.
    fn standard_error(&self, n: u64) -> Option<f64> {
        if n < 2 {
            return None;
        }
        let nf = n as f64;
        let mean = self.mean(n);
        let variance = ((self.sum_of_squares as f64) - (self.sum as f64) * mean) / (nf - 1.0);
        Some((variance.max(0.0) / nf).sqrt())
    }

    /// The 95% interval of the mean over `n` fights (normal approximation).
    pub fn interval(&self, n: u64) -> Interval {
        let mean = self.mean(n);
        let half = self.standard_error(n).map_or(0.0, |error| Z95 * error);
        Interval {
            low: mean - half,
            high: mean + half,
        }
    }

    /// The two-sided p-value of "the true mean is zero" (normal approximation): how often
    /// a mean this far from zero would come from noise alone. A figure that is the same
    /// in every fight gives 1 when it is zero and 0 otherwise.
    pub fn p_value_of_zero(&self, n: u64) -> f64 {
        let mean = self.mean(n);
        match self.standard_error(n) {
            None => 1.0,
            Some(0.0) => {
                if mean == 0.0 {
                    1.0
                } else {
                    0.0
                }
            }
            Some(error) => libm::erfc((mean / error).abs() / std::f64::consts::SQRT_2),
        }
    }
}

/// Which of many tests are discoveries when at most a fraction `rate` of the discoveries
/// may be flukes on average (Benjamini and Hochberg, 1995): sorted by p-value, the first
/// k are, for the largest k whose p-value is at most `rate × k / m`.
pub fn benjamini_hochberg(p_values: &[f64], rate: f64) -> Vec<bool> {
    let m = p_values.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p_values[a].total_cmp(&p_values[b]).then(a.cmp(&b)));
    let discoveries = (1..=m)
        .rev()
        .find(|&k| p_values[order[k - 1]] <= rate * k as f64 / m as f64)
        .unwrap_or(0);
    let mut decided = vec![false; m];
    for &index in &order[..discoveries] {
        decided[index] = true;
    }
    decided
}

/// The smallest value with at least `fraction` of the counts at or below it.
pub fn percentile(histogram: &BTreeMap<u32, u64>, fraction: f64) -> u32 {
    let total: u64 = histogram.values().sum();
    let wanted = (fraction * total as f64).ceil().max(1.0) as u64;
    let mut seen = 0;
    for (&value, &count) in histogram {
        seen += count;
        if seen >= wanted {
            return value;
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_matches_a_worked_value() {
        // 50 of 100: 0.404 to 0.596 (Wilson, z = 1.96).
        let interval = proportion_interval(50, 100);
        assert!((interval.low - 0.4038).abs() < 1e-3, "{interval:?}");
        assert!((interval.high - 0.5962).abs() < 1e-3, "{interval:?}");
        // 0 of 20 still has room above zero.
        let none = proportion_interval(0, 20);
        assert_eq!(none.low, 0.0);
        assert!((none.high - 0.1611).abs() < 1e-3, "{none:?}");
    }

    #[test]
    fn mean_interval_from_sums() {
        let mut sums = Sums::default();
        for value in [2, 4, 4, 4, 5, 5, 7, 9] {
            sums.add(value);
        }
        assert_eq!(sums.mean(8), 5.0);
        // Sample standard deviation 2.138; half-width 1.96 * 2.138 / sqrt(8) = 1.4816.
        let interval = sums.interval(8);
        assert!((interval.high - 6.4816).abs() < 1e-3, "{interval:?}");
    }

    #[test]
    fn p_value_of_a_mean() {
        // Mean 5, standard error 2.138 / sqrt(8) = 0.7559: z = 6.61, p about 4e-11.
        let mut sums = Sums::default();
        for value in [2, 4, 4, 4, 5, 5, 7, 9] {
            sums.add(value);
        }
        assert!(sums.p_value_of_zero(8) < 1e-10);
        // -1, 2, -1, 2: mean 0.5, sample variance 3, standard error sqrt(3/4) = 0.866;
        // z = 0.577 and p = 2 (1 - 0.71815) = 0.5637.
        let mut sums = Sums::default();
        for value in [-1, 2, -1, 2] {
            sums.add(value);
        }
        let p = sums.p_value_of_zero(4);
        assert!((sums.mean(4) - 0.5).abs() < 1e-12);
        assert!((p - 0.5637).abs() < 1e-3, "{p}");
        // The same in every fight.
        let mut zero = Sums::default();
        let mut one = Sums::default();
        for _ in 0..10 {
            zero.add(0);
            one.add(1);
        }
        assert_eq!(zero.p_value_of_zero(10), 1.0);
        assert_eq!(one.p_value_of_zero(10), 0.0);
    }

    #[test]
    fn benjamini_hochberg_on_the_worked_example() {
        // Ten p-values as in the usual textbook example: at a 5% rate only the two
        // smallest are discoveries, although five are below 0.05.
        let p = [
            0.205, 0.001, 0.039, 0.041, 0.042, 0.06, 0.074, 0.008, 0.212, 0.216,
        ];
        let decided = benjamini_hochberg(&p, 0.05);
        let found: Vec<f64> = (0..p.len()).filter(|&i| decided[i]).map(|i| p[i]).collect();
        assert_eq!(found, [0.001, 0.008]);
        // A later p-value under its threshold carries the smaller ones with it.
        assert_eq!(
            benjamini_hochberg(&[0.03, 0.04, 0.01, 0.005], 0.05),
            [true, true, true, true]
        );
        assert!(benjamini_hochberg(&[], 0.05).is_empty());
    }

    #[test]
    fn percentiles_of_a_histogram() {
        let histogram = BTreeMap::from([(1, 5), (2, 3), (10, 2)]);
        assert_eq!(percentile(&histogram, 0.5), 1);
        assert_eq!(percentile(&histogram, 0.6), 2);
        assert_eq!(percentile(&histogram, 0.9), 10);
        assert_eq!(percentile(&histogram, 1.0), 10);
    }
}
