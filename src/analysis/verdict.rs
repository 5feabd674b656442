//! The verdict: a few plain sentences that open the reports of `simulate` and `compare`,
//! for a GM who reads them before (or instead of) the table of figures — who wins how
//! often, how long fights last, for `compare` what the house rule changed, and for `sweep`
//! where the fight becomes even.

use super::compare::{CompareLine, Comparison};
use super::figures::NOBODY;
use super::simulate::{Report, RoundsLine, percent};
use super::sweep::SweepReport;

/// Where the verdict's lines are wrapped.
const WIDTH: usize = 90;

/// The verdict of a `simulate` report, wrapped, ending with an empty line.
pub fn of_report(report: &Report) -> String {
    let mut sentences = Vec::new();
    let sides: Vec<String> = report
        .wins
        .iter()
        .filter(|line| line.side != NOBODY)
        .map(|line| {
            format!(
                "{} wins {} ({}; very likely between {} and {})",
                line.side,
                how_often(line.rate),
                percent(line.rate),
                percent(line.interval.low),
                percent(line.interval.high)
            )
        })
        .collect();
    if !sides.is_empty() {
        sentences.push(format!("{}.", capitalised(&join(&sides))));
    }
    if let Some(nobody) = report.wins.iter().find(|l| l.side == NOBODY && l.wins > 0) {
        sentences.push(format!(
            "{} no winner (the round limit came first, or every side fell).",
            capitalised(&fights_of(nobody.wins, report.fights, "had"))
        ));
    }
    sentences.push(rounds_sentence(&report.rounds));
    wrap(&sentences.join(" "))
}

/// The verdict of a `compare` report: what B changes against A.
pub fn of_comparison(comparison: &Comparison) -> String {
    let mut sentences = Vec::new();
    if comparison.differences.is_empty() {
        sentences.push("B's rules are the same as A's.".to_string());
    }
    if comparison.same == comparison.fights {
        sentences.push(format!(
            "Every one of the {} fights went exactly the same under both rulesets{}",
            thousands(comparison.fights),
            if comparison.differences.is_empty() {
                "."
            } else {
                ": the change never came into play here (a table row never rolled, an option \
                 the tactics never choose, a rule for a situation this scenario does not have)."
            }
        ));
        return wrap(&sentences.join(" "));
    }
    let changed: Vec<&CompareLine> = comparison
        .wins
        .iter()
        .filter(|line| line.name != NOBODY && line.significant)
        .collect();
    if changed.is_empty() {
        let rates: Vec<String> = comparison
            .wins
            .iter()
            .filter(|line| line.name != NOBODY)
            .map(|line| {
                format!(
                    "{} {} under A, {} under B",
                    line.name,
                    percent(line.before),
                    percent(line.after)
                )
            })
            .collect();
        sentences.push(format!(
            "B does not change who wins beyond chance ({}).",
            rates.join("; ")
        ));
    } else {
        for line in changed {
            sentences.push(format!(
                "B {} {}'s chance to win from {} to {} ({} points; very likely between {} and {}).",
                if line.difference > 0.0 {
                    "raises"
                } else {
                    "lowers"
                },
                line.name,
                percent(line.before),
                percent(line.after),
                signed_points(line.difference),
                signed_points(line.interval.low),
                signed_points(line.interval.high)
            ));
        }
    }
    let rounds = &comparison.rounds;
    if rounds.significant {
        let sooner = rounds.difference < 0.0;
        sentences.push(format!(
            "Fights end about {} {} {} (a mean of {:.1} rounds under A, {:.1} under B).",
            rounded_rounds(rounds.difference.abs()),
            if rounded_rounds(rounds.difference.abs()) == "1" {
                "round"
            } else {
                "rounds"
            },
            if sooner { "sooner" } else { "later" },
            rounds.before,
            rounds.after
        ));
    } else {
        sentences.push(format!(
            "Fights last as long (a mean of {:.1} rounds under A, {:.1} under B).",
            rounds.before, rounds.after
        ));
    }
    sentences.push(format!(
        "{} went exactly the same under both rulesets.",
        capitalised(&fights_of(comparison.same, comparison.fights, ""))
    ));
    let others = comparison.figures.iter().filter(|f| f.significant).count();
    sentences.push(match others {
        0 => "No other figure moved beyond chance.".to_string(),
        1 => "One other figure moved beyond chance (marked * below).".to_string(),
        n => format!("{n} other figures moved beyond chance (marked * below)."),
    });
    wrap(&sentences.join(" "))
}

/// Where a sweep's fight becomes even, side by side: the value where each side's win rate
/// crosses 50% (or that it never does in the range), and the values where 50% is within
/// chance. With two sides, the first side says it for both.
pub fn of_sweep(report: &SweepReport) -> String {
    // With two sides, one side's crossing is the other's (but for the rare fight
    // without a winner): the first side says it for both.
    let told = if report.even.len() == 2 {
        &report.even[..1]
    } else {
        &report.even[..]
    };
    let side_index = |side: &str| report.info.sides.iter().position(|s| s == side);
    let rate_at = |index: Option<usize>, value: i64| {
        report
            .points
            .iter()
            .find(|p| p.value == value)
            .and_then(|p| index.and_then(|i| p.wins.get(i)))
            .map_or(0.0, |w| w.rate)
    };
    let mut sentences = Vec::new();
    let (first, last) = (
        report.points.first().map_or(0, |p| p.value),
        report.points.last().map_or(0, |p| p.value),
    );
    for even in told {
        let index = side_index(&even.side);
        let vary = &report.vary;
        match even.crossings.as_slice() {
            [] => {
                let rates: Vec<(i64, f64)> = report
                    .points
                    .iter()
                    .map(|p| (p.value, rate_at(index, p.value)))
                    .collect();
                let above = rates.iter().all(|&(_, r)| r >= 0.5);
                let (value, rate) = if above {
                    rates
                        .iter()
                        .copied()
                        .fold((first, 1.0), |m, x| if x.1 < m.1 { x } else { m })
                } else {
                    rates
                        .iter()
                        .copied()
                        .fold((first, 0.0), |m, x| if x.1 > m.1 { x } else { m })
                };
                sentences.push(format!(
                    "{} wins {} the fights at every {vary} from {first} to {last} ({} {} at \
                     {value}): the fight does not become even in this range.",
                    capitalised(&even.side),
                    if above {
                        "more than half"
                    } else {
                        "fewer than half"
                    },
                    if above { "at least" } else { "at most" },
                    percent(rate),
                ));
            }
            [one] => sentences.push(format!(
                "The win rate of {} crosses 50% between {vary} {} ({}) and {} ({}): the fight is \
                 even at about {vary} {:.1}.",
                even.side,
                one.from,
                percent(rate_at(index, one.from)),
                one.to,
                percent(rate_at(index, one.to)),
                one.estimate
            )),
            many => {
                let places: Vec<String> = many
                    .iter()
                    .map(|c| format!("between {} and {}", c.from, c.to))
                    .collect();
                sentences.push(format!(
                    "The win rate of {} crosses 50% {} times ({}): the curve is not steady at this \
                     number of fights; more fights would smooth it.",
                    even.side,
                    many.len(),
                    join(&places)
                ));
            }
        }
        match even.within_chance.as_slice() {
            [] => {}
            [one] => sentences.push(format!(
                "At {vary} {one}, 50% is within the 95% interval of {}: even, within chance.",
                even.side
            )),
            many => {
                let values: Vec<String> = many.iter().map(i64::to_string).collect();
                sentences.push(format!(
                    "At {vary} {}, 50% is within the 95% interval of {}: even, within chance.",
                    join(&values),
                    even.side
                ));
            }
        }
    }
    wrap(&sentences.join(" "))
}

/// How often, as a GM says it: "2 fights in 3", "1 fight in 12", "every fight".
fn how_often(rate: f64) -> String {
    if rate >= 0.995 {
        return "nearly every fight".into();
    }
    if rate <= 0.0 {
        return "no fight".into();
    }
    if rate < 0.005 {
        return "hardly ever".into();
    }
    // The simplest fraction (denominator up to 12) within a twentieth of the rate (or
    // of its complement); else one fight in so many, or all but one in so many.
    let tolerance = (rate.min(1.0 - rate) * 0.05).max(0.003);
    let simple = (1..=12u32)
        .flat_map(|of| (1..of).map(move |count| (count, of)))
        .find(|&(count, of)| (f64::from(count) / f64::from(of) - rate).abs() <= tolerance);
    match simple {
        Some((1, of)) => format!("1 fight in {of}"),
        Some((count, of)) => format!("{count} fights in {of}"),
        None if rate < 0.5 => format!("1 fight in {}", (1.0 / rate).round()),
        None => format!("all but 1 fight in {}", (1.0 / (1.0 - rate)).round()),
    }
}

/// "1 fight in 2,000 had", "12 of 10,000 fights had".
fn fights_of(count: u64, fights: u64, verb: &str) -> String {
    let verb = if verb.is_empty() {
        String::new()
    } else {
        format!(" {verb}")
    };
    if count == 1 {
        format!("1 fight in {}{verb}", thousands(fights))
    } else {
        format!("{} of {} fights{verb}", thousands(count), thousands(fights))
    }
}

fn rounds_sentence(rounds: &RoundsLine) -> String {
    format!(
        "A fight lasts {:.1} rounds on average: half are over by round {}, nine in ten by \
         round {}, the longest took {}.",
        rounds.mean, rounds.median, rounds.p90, rounds.longest
    )
}

/// A difference of rounds as a GM reads it: whole rounds, or a fraction of one.
fn rounded_rounds(rounds: f64) -> String {
    if rounds < 0.75 {
        format!("{rounds:.1}")
    } else {
        format!("{}", rounds.round() as i64)
    }
}

fn signed_points(rate: f64) -> String {
    format!("{:+.1}", rate * 100.0)
}

fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// "a, b and c".
fn join(parts: &[String]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

fn wrap(text: &str) -> String {
    let mut out = textwrap::fill(text, WIDTH);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_read_as_a_gm_says_them() {
        assert_eq!(how_often(0.668), "2 fights in 3");
        assert_eq!(how_often(0.331), "1 fight in 3");
        assert_eq!(how_often(0.5), "1 fight in 2");
        assert_eq!(how_often(0.083), "1 fight in 12");
        assert_eq!(how_often(0.04), "1 fight in 25");
        assert_eq!(how_often(0.9734), "all but 1 fight in 38");
        assert_eq!(how_often(0.997), "nearly every fight");
        assert_eq!(how_often(0.0), "no fight");
        assert_eq!(how_often(0.002), "hardly ever");
    }

    /// 100 pairs of fights of red against blue: blue wins `a` under A and `b` under B
    /// (the first fights), the fights under B two rounds shorter from the 41st on.
    fn comparison(a: i64, b: i64, differences: usize) -> Comparison {
        use super::super::compare::PairedTally;
        use super::super::figures::{FightFigures, FigureKey, Section};
        use super::super::run::Accumulate;
        use super::super::simulate::RunInfo;
        let fight = |blue: bool, rounds: u32| {
            let side = if blue { "blue" } else { "red" };
            FightFigures {
                rounds,
                counts: [(
                    FigureKey {
                        section: Section::Wins,
                        name: side.into(),
                    },
                    1,
                )]
                .into_iter()
                .collect(),
            }
        };
        let mut tally = PairedTally::default();
        for i in 0..100 {
            let before = fight(i < a, 8);
            let after = fight(i < b, if i < 40 { 8 } else { 6 });
            tally.add((before, after));
        }
        let info = RunInfo {
            scenario: "Duel".into(),
            ruleset: "test".into(),
            seed: 1,
            sides: vec!["red".into(), "blue".into()],
            exchange: None,
        };
        let differences = (0..differences)
            .map(|_| super::super::diff::Difference {
                file: "tables/fumbles.tables".into(),
                title: "fumbles row 1 falter".into(),
                item: super::super::diff::Item::TableRow {
                    table: "fumbles".into(),
                    row: "falter".into(),
                },
                change: super::super::diff::Change::Changed,
                before: None,
                after: None,
            })
            .collect();
        Comparison::new(info, ("a".into(), "b".into()), differences, &tally)
    }

    #[test]
    fn a_compare_verdict_says_what_the_house_rule_changed() {
        let verdict = of_comparison(&comparison(30, 50, 1)).replace('\n', " ");
        assert!(
            verdict.contains(
                "B raises blue's chance to win from 30.0% to 50.0% (+20.0 points; very likely between"
            ),
            "{verdict}"
        );
        assert!(
            verdict.contains("B lowers red's chance to win from 70.0% to 50.0% (-20.0 points"),
            "{verdict}"
        );
        assert!(
            verdict.contains(
                "Fights end about 1 round sooner (a mean of 8.0 rounds under A, 6.8 under B)."
            ),
            "{verdict}"
        );
        // Fights 1-30 are the same (blue wins both, in 8 rounds); 31-40 have another
        // winner, 41-100 other rounds.
        assert!(
            verdict.contains("30 of 100 fights went exactly the same under both rulesets."),
            "{verdict}"
        );
    }

    #[test]
    fn a_compare_verdict_says_when_the_change_never_came_into_play() {
        let verdict = of_comparison(&comparison(30, 30, 0)).replace('\n', " ");
        // The rounds differ from the 41st fight on, so not every fight is the same here.
        assert!(
            verdict.starts_with("B's rules are the same as A's."),
            "{verdict}"
        );
        assert!(verdict.contains("B does not change who wins beyond chance (red 70.0% under A, 70.0% under B; blue 30.0% under A, 30.0% under B)."), "{verdict}");
    }

    #[test]
    fn counts_read_with_their_thousands() {
        assert_eq!(thousands(2000), "2,000");
        assert_eq!(thousands(987), "987");
        assert_eq!(thousands(1234567), "1,234,567");
        assert_eq!(fights_of(1, 2000, "had"), "1 fight in 2,000 had");
        assert_eq!(fights_of(6204, 10000, ""), "6,204 of 10,000 fights");
        assert_eq!(join(&["a".into(), "b".into(), "c".into()]), "a, b and c");
    }
}
