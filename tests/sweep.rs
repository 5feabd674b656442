//! `sweep` on a shipped scenario: more goblins, fewer wins for the adventurers (the curve
//! is monotone, and says where the fight becomes even), the same report for any number
//! of threads, the HTML reports of `simulate`, `compare` and `sweep` with their verdicts
//! and labelled charts, and a wrong `--vary` as a usage diagnostic, never a panic.

mod common;

use common::{affray, root, run_ok, scratch, text};
use serde_json::Value;

const GOBLINS: &str = "rulesets/legend/scenarios/goblin_fight.toml";
const DUEL: &str = "rulesets/legend/scenarios/sword_and_shield_duel.toml";

#[test]
fn more_goblins_win_more_often_and_the_report_says_where_the_fight_is_even() {
    let dir = scratch("sweep-goblins");
    let html = dir.join("goblins.html");
    let args = [
        "sweep",
        GOBLINS,
        "--vary",
        "Goblin.count=2..5",
        "--fights",
        "200",
        "--seed",
        "1",
        "--json",
        "--report",
        html.to_str().unwrap(),
    ];
    let json: Value = serde_json::from_str(&run_ok(&args)).unwrap();
    assert_eq!(json["vary"], "Goblin.count");
    assert_eq!(json["fights"], 200);
    let points = json["points"].as_array().unwrap();
    let values: Vec<i64> = points
        .iter()
        .map(|p| p["value"].as_i64().unwrap())
        .collect();
    assert_eq!(values, [2, 3, 4, 5]);
    let adventurers: Vec<f64> = points
        .iter()
        .map(|p| {
            assert_eq!(p["wins"][0]["side"], "adventurers");
            p["wins"][0]["rate"].as_f64().unwrap()
        })
        .collect();
    // The same seeds at every value: one more goblin can only add to their side, so the
    // adventurers' rate falls (the tolerance of one fight in fifty leaves room for a
    // goblin that changes the order of turns, never for a curve that turns round).
    for pair in adventurers.windows(2) {
        assert!(pair[1] <= pair[0] + 0.02, "{adventurers:?}");
    }
    assert!(
        adventurers[0] > 0.9 && adventurers[3] < 0.5,
        "{adventurers:?}"
    );
    let even = &json["even"][0];
    assert_eq!(even["side"], "adventurers");
    let crossing = &even["crossings"][0];
    let estimate = crossing["estimate"].as_f64().unwrap();
    assert!(
        crossing["from"].as_i64().unwrap() as f64 <= estimate
            && estimate <= crossing["to"].as_i64().unwrap() as f64,
        "{crossing}"
    );

    // The words say the same: the report opens with them.
    let page = std::fs::read_to_string(&html).unwrap();
    let expected = format!(
        "The win rate of adventurers crosses 50% between Goblin.count {} (",
        crossing["from"]
    );
    assert!(page.contains(&expected), "{page}");
    assert!(
        page.contains(&format!(
            "the fight is even at about Goblin.count {estimate:.1}."
        )),
        "{page}"
    );

    // The HTML report holds the verdict and the chart with its title, axes and legend.
    assert!(page.starts_with("<!DOCTYPE html>"), "{page}");
    assert!(page.contains("<h2>Verdict</h2>"), "{page}");
    for label in [
        "who wins as Goblin.count goes from 2 to 5",
        "fights won (%)",
        "adventurers wins",
        "goblins wins",
        "even: 50%",
        "95% interval",
        "200 fights, seed 1",
        "affray sweep rulesets/legend/scenarios/goblin_fight.toml --vary Goblin.count=2..5",
    ] {
        assert!(page.contains(label), "{label} is not in the page");
    }
    // Self-contained: nothing fetched, no script.
    for outside in ["<script", "http://", "https://", "<link", "src="] {
        let allowed = page.matches(outside).count()
            - page.matches("http://www.w3.org/2000/svg").count()
                * usize::from(outside == "http://");
        assert_eq!(allowed, 0, "{outside} in the page");
    }
}

#[test]
fn a_sweep_is_the_same_on_one_thread_and_two() {
    let args = |threads: &'static str| {
        [
            "sweep",
            GOBLINS,
            "--vary",
            "Goblin.count=3..4",
            "--fights",
            "60",
            "--seed",
            "7",
            "--threads",
            threads,
        ]
    };
    assert_eq!(run_ok(&args("1")), run_ok(&args("2")));
}

#[test]
fn a_wrong_vary_is_a_usage_error_with_a_suggestion() {
    for (vary, says) in [
        ("Gobln.count=1..3", "the scenario has no combatant `Gobln`"),
        ("Gobln.count=1..3", "did you mean `Goblin`?"),
        (
            "Goblin.skills.sword_and_shild=40..60",
            "did you mean `Goblin.skills.sword_and_shield`?",
        ),
        ("Goblin.cuont=1..3", "did you mean `Goblin.count`?"),
        ("Goblin.count=3..1", "FROM must not be above TO"),
        ("Goblin.count=1..4:0", "STEP must be a whole number above 0"),
        ("Goblin.count=one..4", "FROM and TO must be whole numbers"),
        ("Goblin.count=0..2", "Goblin.count must be at least 1"),
        (
            "Goblin.count",
            "says what to vary but not over which values",
        ),
    ] {
        let output = affray(root(), &["sweep", GOBLINS, "--vary", vary, "--fights", "1"]);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{vary}: {stderr}");
        assert!(stderr.contains("affray::usage::vary"), "{vary}: {stderr}");
        assert!(
            stderr
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .contains(says),
            "{vary}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{vary}: {stderr}");
    }
}

#[test]
fn simulate_and_compare_write_html_reports_with_their_verdicts_and_charts() {
    let dir = scratch("html-reports");
    let simulated = dir.join("duel.html");
    run_ok(&[
        "simulate",
        DUEL,
        "--fights",
        "200",
        "--seed",
        "3",
        "--report",
        simulated.to_str().unwrap(),
    ]);
    let page = std::fs::read_to_string(&simulated).unwrap();
    for label in [
        "<h2>Verdict</h2>",
        "Red wins",
        "who wins, and how long it takes",
        "Who wins",
        "How long fights last",
        "fights won (%)",
        "rounds to the end",
        "bar: 95% interval",
        "Sword-and-shield duel (Legend): 200 fights, seed 3",
        "<h2>Every figure</h2>",
        "--seed 3",
    ] {
        assert!(page.contains(label), "{label} is not in the simulate page");
    }
    let compared = dir.join("compare.html");
    run_ok(&[
        "compare",
        DUEL,
        "--ruleset",
        "rulesets/legend",
        "--ruleset",
        "rulesets/legend",
        "--fights",
        "100",
        "--seed",
        "3",
        "--report",
        compared.to_str().unwrap(),
    ]);
    let page = std::fs::read_to_string(&compared).unwrap();
    for label in [
        "<h2>Verdict</h2>",
        "B&#39;s rules are the same as A&#39;s.",
        "who wins under each ruleset",
        "A = rulesets/legend",
        "B = rulesets/legend",
        "fights won (%)",
        "95% interval of B − A",
    ] {
        assert!(page.contains(label), "{label} is not in the compare page");
    }
}
