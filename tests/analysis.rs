//! `simulate`, `compare` and `odds` on the Legend sword-and-shield duel: the report does not
//! depend on the number of threads, a house-ruled fumble table shows up in a comparison
//! and identical rules do not, the odds of one exchange agree with sampled exchanges and
//! with the dice worked out by hand.

mod common;

use std::fs;

use common::{affray, copy_dir, edit, root, run_ok, scratch, text};
use serde_json::Value;

const DUEL: &str = "rulesets/legend/scenarios/sword_and_shield_duel.toml";

#[test]
fn simulate_reports_the_same_for_one_thread_and_two() {
    // 1,500 fights cross a batch boundary (1,000): batches and threads both split work.
    let one = run_ok(&[
        "simulate",
        DUEL,
        "--fights",
        "1500",
        "--seed",
        "1",
        "--threads",
        "1",
    ]);
    let two = run_ok(&[
        "simulate",
        DUEL,
        "--fights",
        "1500",
        "--seed",
        "1",
        "--threads",
        "2",
    ]);
    assert_eq!(one, two);
    assert!(one.contains("1500 fights, seed 1"), "{one}");
    for section in [
        "wins",
        "rounds to the end",
        "test results",
        "table rows rolled",
    ] {
        assert!(one.contains(section), "{section} missing:\n{one}");
    }
    // Another seed is another sample.
    let other = run_ok(&["simulate", DUEL, "--fights", "1500", "--seed", "2"]);
    assert_ne!(one, other);
}

#[test]
fn simulate_json_adds_up_and_stops_at_the_asked_precision() {
    let json: Value = serde_json::from_str(&run_ok(&[
        "simulate",
        DUEL,
        "--fights",
        "100000",
        "--until-error",
        "0.2",
        "--json",
    ]))
    .unwrap();
    // A 95% interval narrower than 20 points needs far fewer than 1,000 fights, and the
    // rule is checked once per batch of 1,000.
    assert_eq!(json["fights"], 1000);
    let wins: u64 = json["wins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|side| side["wins"].as_u64().unwrap())
        .sum();
    assert_eq!(wins, 1000, "every fight has one winner or nobody");
    let rounds: u64 = json["rounds"]["histogram"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(rounds, 1000);
}

/// A rate as the reports print it.
fn percent(rate: &Value) -> String {
    format!("{:.1}%", rate.as_f64().unwrap() * 100.0)
}

#[test]
fn simulate_opens_with_a_verdict_in_words_and_its_numbers() {
    let args = ["simulate", DUEL, "--fights", "1000", "--seed", "4"];
    let out = run_ok(&args).replace('\n', " ");
    let json: Value = serde_json::from_str(&run_ok(&[&args[..], &["--json"]].concat())).unwrap();
    let verdict = &out[..out.find("wins  ").expect("the table after the verdict")];
    for side in json["wins"].as_array().unwrap() {
        if side["side"] == "nobody" {
            continue;
        }
        let numbers = format!(
            "({}; very likely between {} and {})",
            percent(&side["rate"]),
            percent(&side["interval"]["low"]),
            percent(&side["interval"]["high"])
        );
        assert!(verdict.contains(&numbers), "{numbers} in: {verdict}");
    }
    assert!(
        verdict.starts_with("Sword-and-shield duel (Legend): 1000 fights, seed 4  Red wins "),
        "{verdict}"
    );
    let rounds = &json["rounds"];
    let lasts = format!(
        "A fight lasts {:.1} rounds on average: half are over by round {}, nine in ten by round {}, the longest took {}.",
        rounds["mean"].as_f64().unwrap(),
        rounds["median"],
        rounds["p90"],
        rounds["longest"]
    );
    assert!(verdict.contains(&lasts), "{lasts} in: {verdict}");
}

#[test]
fn simulate_draws_a_plot() {
    let dir = scratch("simulate-plot");
    let svg = dir.join("duel.svg");
    run_ok(&[
        "simulate",
        DUEL,
        "--fights",
        "200",
        "--plot",
        svg.to_str().unwrap(),
    ]);
    let drawn = std::fs::read_to_string(&svg).unwrap();
    assert!(
        drawn.starts_with("<svg"),
        "{}",
        &drawn[..80.min(drawn.len())]
    );
    assert!(drawn.contains("win rate"));
}

fn legend_copy(case: &str) -> std::path::PathBuf {
    let dir = scratch(case).join("legend");
    copy_dir(&root().join("rulesets/legend"), &dir);
    dir
}

#[test]
fn compare_finds_a_house_ruled_fumble_table() {
    let house = legend_copy("compare-fumbles");
    // Falter takes the rolls of Drop Weapon: a GM who finds dropped weapons too harsh.
    let fumbles = house.join("tables/fumbles.tables");
    edit(&fumbles, "  01–03  falter", "  01–06  falter");
    edit(&fumbles, "  04–06  drop_weapon", "  07–07  drop_weapon");
    edit(&fumbles, "  07–09  lose_balance", "  08–09  lose_balance");
    let args = [
        "compare",
        DUEL,
        "--ruleset",
        "rulesets/legend",
        "--ruleset",
        house.to_str().unwrap(),
        "--fights",
        "1000",
        "--seed",
        "1",
    ];
    let out = run_ok(&args);
    let line = |name: &str| {
        out.lines()
            .find(|l| l.trim_start().starts_with(name))
            .unwrap_or_else(|| panic!("no line for {name}:\n{out}"))
            .to_string()
    };
    // The rows that changed, by row.
    assert!(out.contains("close_combat_fumble row 1-6 falter"), "{out}");
    assert!(
        out.contains("close_combat_fumble row 7 drop_weapon"),
        "{out}"
    );
    assert!(out.contains("3 differences: 3 table rows"), "{out}");
    // More falters, fewer dropped weapons: both marked significant.
    assert!(line("close combat fumble: falter").ends_with('*'), "{out}");
    assert!(
        line("close combat fumble: drop weapon").ends_with('*'),
        "{out}"
    );
    assert!(line("close combat fumble: falter").contains('+'), "{out}");
    assert!(out.contains("significant difference"), "{out}");
    // The verdict opens the report, its numbers those of the figures.
    let json: Value = serde_json::from_str(&run_ok(&[&args[..], &["--json"]].concat())).unwrap();
    let comparison = &json.as_array().map_or(&json, |all| &all[0]);
    let verdict = out[..out.find("win rate ").unwrap()].replace('\n', " ");
    let same = format!(
        "{} of 1,000 fights went exactly the same under both rulesets.",
        comparison["same"]
    );
    assert!(verdict.contains(&same), "{same} in: {verdict}");
    let rounds = &comparison["rounds"];
    let mean = format!(
        "(a mean of {:.1} rounds under A, {:.1} under B)",
        rounds["before"].as_f64().unwrap(),
        rounds["after"].as_f64().unwrap()
    );
    assert!(verdict.contains(&mean), "{mean} in: {verdict}");
    let moved = comparison["figures"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["significant"] == true)
        .count();
    assert!(moved >= 2);
    assert!(
        verdict.contains(&format!(
            "{moved} other figures moved beyond chance (marked * below)."
        )),
        "{verdict}"
    );
}

#[test]
fn compare_of_identical_rules_finds_nothing() {
    let copy = legend_copy("compare-same");
    let out = run_ok(&[
        "compare",
        DUEL,
        "--ruleset",
        "rulesets/legend",
        "--ruleset",
        copy.to_str().unwrap(),
        "--fights",
        "300",
        "--seed",
        "1",
        "--all",
    ]);
    assert!(
        out.contains("no significant difference"),
        "identical rules must not differ:\n{out}"
    );
    assert!(!out.contains('*'), "{out}");
    assert!(out.contains("no differences"), "{out}");
    assert!(
        out.replace('\n', " ").contains(
            "B's rules are the same as A's. Every one of the 300 fights went exactly the same under both rulesets."
        ),
        "{out}"
    );
}

#[test]
fn compare_needs_two_rulesets() {
    let output = affray(root(), &["compare", DUEL, "--ruleset", "rulesets/legend"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(text(&output.stderr).contains("needs two ruleset directories"));
}

/// The figures of `odds` against those of sampled single exchanges: every probability
/// within the sampling error of the simulation.
#[test]
fn odds_agree_with_sampled_exchanges() {
    let odds: Value = serde_json::from_str(&run_ok(&["odds", DUEL, "--json"])).unwrap();
    let sampled: Value = serde_json::from_str(&run_ok(&[
        "simulate",
        DUEL,
        "--exchange",
        "--fights",
        "4000",
        "--seed",
        "1",
        "--json",
    ]))
    .unwrap();
    assert_eq!(odds["attacker"], "Brannoc");
    assert_eq!(odds["defender"], "Ysolde");
    // The attack and parry tests are walked (by their levels).
    let enumerated = odds["enumerated"].to_string();
    assert!(enumerated.contains("attack for Brannoc"), "{enumerated}");
    assert!(enumerated.contains("parry for Ysolde"), "{enumerated}");
    let damage: f64 = odds["damage"]
        .as_array()
        .unwrap()
        .iter()
        .map(|pair| pair[1].as_f64().unwrap())
        .sum();
    assert!(
        (damage - 1.0).abs() < 1e-9,
        "probabilities add up to {damage}"
    );

    let figures = sampled["figures"].as_array().unwrap();
    let mut compared = 0;
    for line in odds["figures"].as_array().unwrap() {
        let expected = line["expected"].as_f64().unwrap();
        let Some(sample) = figures
            .iter()
            .find(|f| f["section"] == line["section"] && f["name"] == line["name"])
        else {
            // Too rare to be sampled in 4,000 exchanges.
            assert!(expected < 0.003, "{line} never sampled");
            continue;
        };
        let mean = sample["per_fight"].as_f64().unwrap();
        let half = (sample["interval"]["high"].as_f64().unwrap()
            - sample["interval"]["low"].as_f64().unwrap())
            / 2.0;
        // 2.5 half-widths of a 95% interval is about 5 standard errors (the odds have a
        // sampled part of their own).
        assert!(
            (expected - mean).abs() <= 2.5 * half + 0.002,
            "{}: odds {expected:.4}, sampled {mean:.4} ± {half:.4}",
            line["name"]
        );
        compared += 1;
    }
    assert!(compared > 40, "only {compared} figures compared");
}

/// The expected count of the odds figure `name` (0 when the exchange never gives it).
fn figure(odds: &Value, name: &str) -> f64 {
    odds["figures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|line| line["name"] == name)
        .map_or(0.0, |line| line["expected"].as_f64().unwrap())
}

/// The d100 fixture's exchange is walked to the end: its tests are drawn by their
/// levels, so the whole exchange, effects and wounds included, is exact in about ten
/// thousand branches where face by face it took millions and still sampled a quarter.
/// Its test levels are the arithmetic of the level list (tests/fixtures/d100_duel):
/// fumble on 99-100, critical up to a twentieth of the skill rounded up, success up to
/// the skill and 95.
#[test]
fn d100_odds_are_exact_and_their_levels_are_the_book_arithmetic() {
    let odds: Value = serde_json::from_str(&run_ok(&[
        "odds",
        "tests/fixtures/d100_duel/scenarios/duel.toml",
        "--branches",
        "100000000",
        "--json",
    ]))
    .unwrap();
    assert_eq!(odds["exact"], true, "{}", odds["sampled"]);
    assert!(odds["branches"].as_u64().unwrap() < 50_000);
    let level = |skill: i64, level: &str| {
        let critical = (skill + 19) / 20;
        let faces = (1..=100)
            .filter(|&roll| {
                let found = if roll >= 99 {
                    "fumble"
                } else if roll <= critical {
                    "critical"
                } else if roll <= skill && roll <= 95 {
                    "success"
                } else {
                    "failure"
                };
                found == level
            })
            .count();
        faces as f64 / 100.0
    };
    for name in ["critical", "success", "failure", "fumble"] {
        // Aldric attacks with combat 65; Bryn parries every attack with combat 70.
        for (who, skill) in [("Aldric attack", 65), ("Bryn parry", 70)] {
            let found = figure(&odds, &format!("{who}: {name}"));
            assert!(
                (found - level(skill, name)).abs() < 1e-12,
                "{who}: {name}: {found} against {}",
                level(skill, name)
            );
        }
    }
    let damage: f64 = damage_through(&odds).iter().map(|d| d.1).sum::<f64>()
        + odds["damage"][0][1].as_f64().unwrap();
    assert!((damage - 1.0).abs() < 1e-12, "{damage}");
}

/// The 3d6 attack is drawn by its total (sixteen outcomes, not 216 faces), each
/// weighing its ways: the chance of each margin is the count of three dice that give it,
/// counted here die by die.
#[test]
fn three_d6_margins_weigh_the_ways_of_three_dice() {
    let odds: Value = serde_json::from_str(&run_ok(&[
        "odds",
        "rulesets/3d6-hex/scenarios/duel.toml",
        "--seed",
        "1",
        "--json",
    ]))
    .unwrap();
    let walked = odds["enumerated"].to_string();
    // The duel's plain Attack is combat.toml's: its roll is labelled by its test.
    assert!(walked.contains("Bastard sword for Aldric"), "{walked}");
    // Aldric's Broadsword skill is 14: a roll of r succeeds by 14 - r, or misses by r - 14.
    let mut ways = [0u32; 19];
    for a in 1..=6 {
        for b in 1..=6 {
            for c in 1..=6 {
                ways[a + b + c] += 1;
            }
        }
    }
    let lines = odds["figures"].as_array().unwrap();
    for roll in 3..=18i64 {
        let margin = 14 - roll;
        let label = if margin >= 0 {
            format!(", by {margin}")
        } else {
            format!(", missed by {}", -margin)
        };
        let found: f64 = lines
            .iter()
            .filter(|line| {
                let name = line["name"].as_str().unwrap();
                name.starts_with("Aldric Bastard sword: ") && name.ends_with(&label)
            })
            .map(|line| line["expected"].as_f64().unwrap())
            .sum();
        let expected = f64::from(ways[roll as usize]) / 216.0;
        assert!(
            (found - expected).abs() < 1e-12,
            "a roll of {roll}: {found} against {expected}"
        );
    }
}

#[test]
fn simulate_against_a_record_passes_the_same_rules_and_stops_a_changed_weapon() {
    let dir = scratch("against");
    copy_dir(
        &root().join("tests/fixtures/d20_skirmish"),
        &dir.join("d20"),
    );
    let scenario = "d20/scenarios/skirmish.toml";
    let record = affray(
        &dir,
        &[
            "simulate", scenario, "--fights", "2000", "--seed", "1", "--json",
        ],
    );
    assert!(record.status.success(), "{}", text(&record.stderr));
    fs::write(dir.join("record.json"), &record.stdout).unwrap();

    let against = || {
        let args = ["simulate", scenario, "--fights", "2000", "--seed", "2"];
        affray(&dir, &[&args[..], &["--against", "record.json"]].concat())
    };
    let same = against();
    assert_eq!(same.status.code(), Some(0), "{}", text(&same.stderr));
    assert!(
        text(&same.stdout)
            .contains("record.json (2000 fights, seed 1): no figure differs beyond chance"),
        "{}",
        text(&same.stdout)
    );

    // A house rule: the short blade does three times the dice.
    let equipment = dir.join("d20/equipment.toml");
    let written = fs::read_to_string(&equipment).unwrap();
    fs::write(
        &equipment,
        written.replacen("damage = \"1d6\"", "damage = \"3d6\"", 1),
    )
    .unwrap();
    let changed = against();
    assert_eq!(changed.status.code(), Some(1), "{}", text(&changed.stdout));
    let stderr = text(&changed.stderr);
    assert!(stderr.contains("affray::snapshot::moved"), "{stderr}");
    assert!(stderr.contains("rounds: mean:"), "{stderr}");
}

/// `--until-settled` stops at the first check (1,000 fights) when the copy changes
/// nothing, and says by which rule.
#[test]
fn compare_until_settled_stops_when_every_win_rate_is_settled() {
    let out = run_ok(&[
        "compare",
        DUEL,
        "--ruleset",
        "rulesets/legend",
        "--ruleset",
        "rulesets/legend",
        "--fights",
        "20000",
        "--seed",
        "5",
        "--until-settled",
    ]);
    let words = out.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains(
            "settled after 1000 fights: each side's difference in win rate is either beyond \
             chance (its 95% interval leaves out zero) or within ±1.0 points (no difference \
             that matters)."
        ),
        "{out}"
    );
}

/// An attribute of an SVG element, as a number.
fn attribute(element: &str, name: &str) -> f64 {
    let start = element
        .find(&format!(" {name}=\""))
        .unwrap_or_else(|| panic!("no {name} in {element}"))
        + name.len()
        + 3;
    let end = start + element[start..].find('"').unwrap();
    element[start..end].parse().unwrap()
}

/// The rectangles of an SVG: (element, x, width, height).
fn rectangles(svg: &str) -> Vec<(String, f64, f64, f64)> {
    svg.split("<rect")
        .skip(1)
        .map(|rest| {
            let element = rest[..rest.find('>').unwrap()].to_string();
            let (x, width, height) = (
                attribute(&element, "x"),
                attribute(&element, "width"),
                attribute(&element, "height"),
            );
            (element, x, width, height)
        })
        .collect()
}

/// `odds --plot` of a duel, with the same run's figures as JSON: the bars of the chart
/// (drawn in the odds' colour, the legend's swatch left out), left to right.
fn odds_plot(case: &str, scenario: &str) -> (Value, String, Vec<(f64, f64, f64)>) {
    let svg = scratch(case).join("odds.svg");
    let odds: Value = serde_json::from_str(&run_ok(&[
        "odds",
        scenario,
        "--seed",
        "1",
        "--json",
        "--plot",
        svg.to_str().unwrap(),
    ]))
    .unwrap();
    let drawn = fs::read_to_string(&svg).unwrap();
    let rectangles = rectangles(&drawn);
    // Nothing drawn backwards: the old chart's bars had negative widths.
    for (element, _, width, height) in &rectangles {
        assert!(*width >= 0.0 && *height >= 0.0, "{element}");
    }
    let mut bars: Vec<(f64, f64, f64)> = rectangles
        .into_iter()
        .filter(|(element, ..)| {
            element.contains("fill=\"#D55E00\"") && element.contains("opacity=\"0.85\"")
        })
        .map(|(_, x, width, height)| (x, width, height))
        .collect();
    bars.sort_by(|a, b| a.0.total_cmp(&b.0));
    (odds, drawn, bars)
}

/// The amounts of damage that get through in `odds --json`, with their chances (0 left
/// out: the chart says it rather than draws it).
fn damage_through(odds: &Value) -> Vec<(i64, f64)> {
    odds["damage"]
        .as_array()
        .unwrap()
        .iter()
        .map(|pair| (pair[0].as_i64().unwrap(), pair[1].as_f64().unwrap()))
        .filter(|pair| pair.0 > 0)
        .collect()
}

/// Each bar as tall as its chance: the tallest bar the likeliest, the others in
/// proportion (to a pixel), side by side without overlapping.
fn assert_bars_in_proportion(bars: &[(f64, f64, f64)], chances: &[f64]) {
    assert_eq!(bars.len(), chances.len(), "one bar per value: {bars:?}");
    let tallest = bars.iter().map(|b| b.2).fold(0.0, f64::max);
    let likeliest = chances.iter().copied().fold(0.0, f64::max);
    assert!(
        tallest > 100.0,
        "the tallest bar fills the chart: {tallest}px"
    );
    for ((x, width, height), chance) in bars.iter().zip(chances) {
        assert!(*width >= 5.0, "a bar {width}px wide at {x}");
        let expected = chance / likeliest * tallest;
        assert!(
            (height - expected).abs() <= 1.5,
            "bar at {x}: {height}px for {chance}, expected {expected:.1}px"
        );
    }
    for pair in bars.windows(2) {
        assert!(pair[0].0 + pair[0].1 <= pair[1].0, "{pair:?} overlap");
    }
}

/// The Legend duel's damage chart: one bar for each amount from the least to the most
/// damage that gets through, as tall as its chance; the exchanges without damage said in
/// the caption, not drawn (they would dwarf the rest).
#[test]
fn the_odds_plot_draws_each_amount_of_damage_as_tall_as_its_chance() {
    let (odds, drawn, bars) = odds_plot("odds-plot-legend", DUEL);
    let damage = damage_through(&odds);
    let (least, most) = (damage[0].0, damage[damage.len() - 1].0);
    assert!(least >= 1 && most > least + 5, "{damage:?}");
    let chances: Vec<f64> = (least..=most)
        .map(|amount| damage.iter().find(|d| d.0 == amount).map_or(0.0, |d| d.1))
        .collect();
    assert_bars_in_proportion(&bars, &chances);
    let through = odds["damage_through"].as_f64().unwrap();
    assert!(
        drawn.contains(&format!(
            "damage gets through in {:.1}% of exchanges; none in the other {:.1}% (not drawn)",
            through * 100.0,
            (1.0 - through) * 100.0
        )),
        "the caption says how often no damage gets through"
    );
}

/// OpenD6 records wound levels, not damage: its sword duel's chart and report give the
/// chance of each wound level, and no hit points lost.
#[test]
fn the_opend6_odds_report_wound_levels_as_the_main_figure() {
    let scenario = "rulesets/opend6/scenarios/sword_duel.toml";
    let (odds, drawn, bars) = odds_plot("odds-plot-opend6", scenario);
    assert_eq!(odds["wound_levels_main"], true);
    assert_eq!(odds["damage_through"], 0.0);
    let wounds: Vec<(String, f64)> = odds["wounds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|pair| {
            (
                pair[0].as_str().unwrap().to_string(),
                pair[1].as_f64().unwrap(),
            )
        })
        .collect();
    let levels: Vec<&str> = wounds.iter().map(|w| w.0.as_str()).collect();
    for level in ["stunned", "wounded", "incapacitated"] {
        assert!(levels.contains(&level), "{levels:?}");
    }
    let chances: Vec<f64> = wounds.iter().map(|w| w.1).collect();
    assert_bars_in_proportion(&bars, &chances);
    assert!(drawn.contains("Wounds to Brenna in one exchange with Aldric"));

    // About five exchanges in six wound Brenna: her damage resistance (her chain mail's
    // 2D alone, no Physique) against the sword's damage (3D+2) when the attack gets
    // through. The chance of any wound is at least that of its likeliest level, and at
    // most their sum.
    let wounded = odds["wounded"].as_f64().unwrap();
    assert!((0.80..0.87).contains(&wounded), "wounded {wounded}");
    let sum: f64 = chances.iter().sum();
    assert!(
        chances[0] <= wounded && wounded <= sum + 1e-9,
        "{wounded} {chances:?}"
    );

    // Against sampled single exchanges: the same chance of a wound, and of each level.
    let sampled: Value = serde_json::from_str(&run_ok(&[
        "simulate",
        scenario,
        "--exchange",
        "--fights",
        "4000",
        "--seed",
        "2",
        "--json",
    ]))
    .unwrap();
    let figures = sampled["figures"].as_array().unwrap();
    let per_exchange = |name: &str| {
        let line = figures
            .iter()
            .find(|f| f["section"] == "exchange" && f["name"] == name)
            .unwrap_or_else(|| panic!("no `{name}` in the sampled exchanges"));
        let half = (line["interval"]["high"].as_f64().unwrap()
            - line["interval"]["low"].as_f64().unwrap())
            / 2.0;
        (line["per_fight"].as_f64().unwrap(), half)
    };
    let (mean, half) = per_exchange("Brenna wounded");
    assert!(
        (wounded - mean).abs() <= 2.5 * half + 0.002,
        "wounded: odds {wounded:.4}, sampled {mean:.4} ± {half:.4}"
    );
    for (level, chance) in &wounds {
        if *chance > 0.02 {
            let (mean, half) = per_exchange(&format!("Brenna wounded: {level}"));
            assert!(
                (chance - mean).abs() <= 2.5 * half + 0.002,
                "{level}: odds {chance:.4}, sampled {mean:.4} ± {half:.4}"
            );
        }
    }

    let report = run_ok(&["odds", scenario, "--seed", "1"]);
    assert!(
        report.contains(&format!(
            "Brenna is wounded: {:.2}%  (takes a wound level of the ruleset)",
            wounded * 100.0
        )),
        "{report}"
    );
    assert!(
        report.contains("Brenna loses no hit points in any branch: this ruleset records wound levels, not damage"),
        "{report}"
    );
    assert!(!report.contains("takes damage"), "{report}");
}

/// A long tail of rare damage (the 3d6 great axe's criticals reach past 80) is one last
/// bar, `N+`, as tall as the chance of all of it, so that the likely amounts keep bars
/// wide enough to read.
#[test]
fn the_odds_plot_gathers_a_long_tail_of_damage_into_one_bar() {
    let (odds, drawn, bars) = odds_plot(
        "odds-plot-tail",
        "rulesets/3d6-hex/scenarios/knight_against_great_axe.toml",
    );
    let damage = damage_through(&odds);
    let (least, most) = (damage[0].0, damage[damage.len() - 1].0);
    assert!(most - least > 40, "a long tail: {damage:?}");
    assert!(bars.len() < 40, "{} bars", bars.len());
    let tail = least + bars.len() as i64 - 1;
    assert!(
        drawn.contains(&format!("\n{tail}+\n")),
        "the last bar is named {tail}+"
    );
    let mut chances: Vec<f64> = (least..tail)
        .map(|amount| damage.iter().find(|d| d.0 == amount).map_or(0.0, |d| d.1))
        .collect();
    chances.push(damage.iter().filter(|d| d.0 >= tail).map(|d| d.1).sum());
    assert_bars_in_proportion(&bars, &chances);
}

/// The values written on a chart: (x, y, text) of each `<text>` that ends in `%`.
fn written_values(svg: &str) -> Vec<(f64, f64, String)> {
    svg.split("<text")
        .skip(1)
        .filter_map(|rest| {
            let element = &rest[..rest.find('>').unwrap()];
            let text = rest[rest.find('>').unwrap() + 1..rest.find("</text>").unwrap()].trim();
            (text.ends_with('%') && !text.contains(' ')).then(|| {
                (
                    attribute(element, "x"),
                    attribute(element, "y"),
                    text.to_string(),
                )
            })
        })
        .collect()
}

/// A chart of damage too wide to write every bar's value (the 3d6 duel: 4 to 28+) still
/// writes the value of each bar that stands apart, and never two side by side at about
/// the same height, where they would run into each other.
#[test]
fn a_crowded_odds_plot_writes_the_values_that_have_room() {
    let (_, drawn, bars) = odds_plot("odds-plot-crowded", "rulesets/3d6-hex/scenarios/duel.toml");
    assert!(bars.len() > 24, "{} bars: a crowded chart", bars.len());
    let written = written_values(&drawn);
    let drawn_bars = bars.iter().filter(|bar| bar.2 > 0.0).count();
    assert!(
        written.len() >= 5 && written.len() <= drawn_bars,
        "{} values written for {drawn_bars} bars drawn: {written:?}",
        written.len()
    );
    for (i, a) in written.iter().enumerate() {
        for b in &written[i + 1..] {
            assert!(
                (a.0 - b.0).abs() >= 30.0 || (a.1 - b.1).abs() >= 12.0,
                "{a:?} and {b:?} run into each other"
            );
        }
    }
}

/// Where a rule reads a Legend roll drawn by its level, what it reads is drawn, not the
/// roll: a fumble row's script that never reads the tests leaves the attack's roll
/// undrawn (it was walked face by face, 63 outcomes, before every fumble), and a roll
/// compared with another and read later is drawn alone, never the two as a pair (some
/// two thousand outcomes).
#[test]
fn legend_odds_draw_what_a_rule_reads_of_a_roll_not_the_roll() {
    let odds: Value = serde_json::from_str(&run_ok(&[
        "odds",
        "rulesets/legend/scenarios/sword_and_shield_duel.toml",
        "--branches",
        "100000",
        "--seed",
        "1",
        "--json",
    ]))
    .unwrap();
    let draws = |list: &str| -> Vec<String> {
        odds[list]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d.as_str().unwrap().to_string())
            .collect()
    };
    let (walked, sampled) = (draws("enumerated"), draws("sampled"));
    assert!(
        !walked.contains(&"attack for Brannoc: the roll within its level".to_string()),
        "{walked:?}"
    );
    for draw in walked.iter().chain(&sampled) {
        assert!(
            !draw.contains("within its level and"),
            "a pair drawn: {draw}"
        );
    }
    let sampled_share = odds["sampled_share"].as_f64().unwrap();
    assert!(sampled_share < 0.032, "{sampled_share}");
}
