//! `odds --fight`: whole fights walked exactly, held to chances worked out here without
//! the engine, and to `simulate`.

mod common;

use std::collections::BTreeMap;
use std::sync::Arc;

use affray::analysis::fight_odds::{FightOdds, FightOddsPlan, fight_odds};
use affray::analysis::run::Plan;
use common::{affray, root, text};

const FIXTURE: &str = "tests/fixtures/d20_duel/scenarios";

fn walked(scenario: &str, max_states: u64) -> FightOdds {
    let path = root().join(FIXTURE).join(scenario);
    let (ruleset, scenario) = affray::scenario::load(&path, None).expect("the fixture loads");
    let plan = FightOddsPlan {
        max_states,
        fallback: Plan {
            fights: 2_000,
            seed: 1,
            threads: 2,
        },
    };
    fight_odds(&Arc::new(ruleset), &scenario, plan).expect("the fight is walked")
}

/// The d20 duel worked out by hand: Asha (DEX 14) strikes first every round, at d20 + 2
/// against defence 12, for 1D4; Birk at d20 + 4 against 14, for 1D6; a blow to 0 hit
/// points ends the fight at once; after 20 rounds nobody has won. The chances of
/// (east, west, nobody), walked round by round over the hit points left.
fn by_hand(asha: i64, birk: i64) -> (f64, f64, f64) {
    // A roll of 10 or more hits, for both: 11 faces of 20.
    let (hit_a, hit_b) = (11.0 / 20.0, 11.0 / 20.0);
    let blow = |state: &BTreeMap<(i64, i64), f64>, hit: f64, sides: i64, first: bool| {
        let mut next = BTreeMap::new();
        let mut won = 0.0;
        for (&(a, b), &p) in state {
            *next.entry((a, b)).or_insert(0.0) += p * (1.0 - hit);
            for damage in 1..=sides {
                let chance = p * hit / sides as f64;
                let (a, b) = if first {
                    (a, b - damage)
                } else {
                    (a - damage, b)
                };
                if a <= 0 || b <= 0 {
                    won += chance;
                } else {
                    *next.entry((a, b)).or_insert(0.0) += chance;
                }
            }
        }
        (next, won)
    };
    let mut state = BTreeMap::from([((asha, birk), 1.0)]);
    let (mut east, mut west) = (0.0, 0.0);
    for _round in 0..20 {
        let (after_a, won) = blow(&state, hit_a, 4, true);
        east += won;
        let (after_b, won) = blow(&after_a, hit_b, 6, false);
        west += won;
        state = after_b;
    }
    (east, west, state.values().sum())
}

fn assert_close(found: f64, expected: f64, what: &str) {
    assert!(
        (found - expected).abs() < 1e-12,
        "{what}: walked {found}, worked out {expected}"
    );
}

#[test]
fn one_blow_each_is_a_geometric_series() {
    let odds = walked("one_blow.toml", 10_000);
    assert!(odds.exact, "{}", odds.render());
    // Each round Asha hits first with 11/20; failing that Birk hits with 11/20.
    let (p, q) = (0.55, 0.55);
    let miss_both: f64 = (1.0 - p) * (1.0 - q);
    let rounds: f64 = (0..20).map(|k| miss_both.powi(k)).sum();
    assert_close(odds.chance("east"), p * rounds, "east");
    assert_close(odds.chance("west"), (1.0 - p) * q * rounds, "west");
    assert_close(odds.chance("nobody"), miss_both.powi(20), "nobody");
    let (east, west, nobody) = by_hand(1, 1);
    assert_close(odds.chance("east"), east, "east by hand");
    assert_close(odds.chance("west"), west, "west by hand");
    assert_close(odds.chance("nobody"), nobody, "nobody by hand");
}

#[test]
fn a_few_blows_each_agree_with_the_chances_worked_out_by_hand() {
    let odds = walked("two_blows.toml", 100_000);
    assert!(odds.exact, "{}", odds.render());
    let (east, west, nobody) = by_hand(3, 4);
    assert_close(odds.chance("east"), east, "east");
    assert_close(odds.chance("west"), west, "west");
    assert_close(odds.chance("nobody"), nobody, "nobody");
}

#[test]
fn past_the_state_limit_the_fight_is_simulated_and_says_so() {
    let odds = walked("two_blows.toml", 10);
    assert!(!odds.exact);
    assert!(odds.render().contains("too large, simulated instead"));
    assert_eq!(odds.fights, Some(2_000));
    let (east, _, _) = by_hand(3, 4);
    let line = odds.wins.iter().find(|l| l.side == "east").unwrap();
    let interval = line.interval.expect("a simulated rate has an interval");
    assert!(
        interval.low <= east && east <= interval.high,
        "{interval:?} {east}"
    );
}

/// The whole duel (7 and 9 hit points): exact, and within the 95% interval of 100,000
/// simulated fights. About 2 s in a release build, 25 s and more in a debug one: run
/// with `cargo test --release --test fight_odds -- --ignored`.
#[test]
#[ignore]
fn the_duel_agrees_with_the_hand_and_with_100000_simulated_fights() {
    let odds = walked("duel.toml", 100_000);
    assert!(odds.exact, "{}", odds.render());
    let (east, west, nobody) = by_hand(7, 9);
    assert_close(odds.chance("east"), east, "east");
    assert_close(odds.chance("west"), west, "west");
    assert_close(odds.chance("nobody"), nobody, "nobody");
    let output = affray(
        root(),
        &[
            "simulate",
            &format!("{FIXTURE}/duel.toml"),
            "--fights",
            "100000",
            "--seed",
            "1",
            "--json",
        ],
    );
    assert!(output.status.success(), "{}", text(&output.stderr));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    for line in report["wins"].as_array().unwrap() {
        let side = line["side"].as_str().unwrap();
        let (low, high) = (
            line["interval"]["low"].as_f64().unwrap(),
            line["interval"]["high"].as_f64().unwrap(),
        );
        let exact = odds.chance(side);
        assert!(
            low <= exact && exact <= high,
            "{side}: {exact} outside {low}–{high}"
        );
    }
}

#[test]
fn the_command_line_prints_the_chances_and_how_they_were_had() {
    let scenario = format!("{FIXTURE}/one_blow.toml");
    let output = affray(root(), &["odds", &scenario, "--fight"]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let out = text(&output.stdout);
    assert!(out.contains("exact:"), "{out}");
    assert!(out.contains("68.96552%"), "{out}");
    assert!(out.contains("merged states"), "{out}");
    let json = affray(root(), &["odds", &scenario, "--fight", "--json"]);
    let odds: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(odds["exact"], true);
    assert_eq!(odds["wins"][0]["side"], "east");
    let small = affray(
        root(),
        &[
            "odds", &scenario, "--fight", "--states", "5", "--fights", "500", "--seed", "3",
        ],
    );
    assert!(small.status.success(), "{}", text(&small.stderr));
    assert!(text(&small.stdout).contains("too large, simulated instead"));
    // An exchange's options do not go with --fight.
    let both = affray(
        root(),
        &["odds", &scenario, "--fight", "--attacker", "Asha"],
    );
    assert_eq!(both.status.code(), Some(2));
}
