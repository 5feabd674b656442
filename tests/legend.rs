//! The shipped Legend ruleset: it checks clean, rolls reproducibly, dumps stably, and a GM
//! who breaks one of its tables gets a diagnostic naming file, line and column.

mod common;

use common::{affray, copy_dir, edit, root, scratch, text};

use std::process::Output;

#[test]
fn legend_checks_clean() {
    let output = affray(root(), &["check", "rulesets/legend"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    // The number of script functions changes with every helper a script gains; the
    // rest of the summary is what the Legend text prescribes.
    let summary = text(&output.stdout);
    let (tables, rest) = summary.split_once(", 3 scripts (").expect("three scripts");
    assert_eq!(
        tables,
        "rulesets/legend: Legend is valid: 16 tables (4 lookup, 6 roll, 1 effects, 4 modifiers, 1 matrix)"
    );
    assert_eq!(
        rest.split_once("), ").map(|(_, tail)| tail),
        Some(
            "7 formulas, 12 tactics lists, combat.toml (12 tests, 1 exchange, 13 actions), 20 weapons, 3 shields, 6 armours, 10 scenarios\n"
        )
    );
}

#[test]
fn a_seeded_roll_is_the_same_every_time() {
    let args = [
        "roll",
        "rulesets/legend",
        "close_combat_fumble",
        "--seed",
        "7",
    ];
    let first = affray(root(), &args);
    let second = affray(root(), &args);
    assert_eq!(first.status.code(), Some(0));
    assert_eq!(first.stdout, second.stdout);
    insta::with_settings!({ snapshot_path => "../snapshots/legend", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!("roll_close_combat_fumble_seed_7", text(&first.stdout));
    });
}

#[test]
fn rerolls_are_shown() {
    // Seed 1 rolls a 19 (Unlucky) first: two rerolls, one of them ignoring a 19.
    let output = affray(
        root(),
        &[
            "roll",
            "rulesets/legend",
            "close_combat_fumble",
            "--seed",
            "1",
        ],
    );
    insta::with_settings!({ snapshot_path => "../snapshots/legend", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!("roll_close_combat_fumble_seed_1", text(&output.stdout));
    });
}

#[test]
fn dump_is_stable() {
    let output = affray(root(), &["dump", "rulesets/legend"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("dump is JSON");
    insta::with_settings!({ snapshot_path => "../snapshots/legend", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!("dump", serde_json::to_string_pretty(&json).unwrap());
    });
}

/// A copy of the Legend ruleset in a fresh folder, with one file edited, checked from that
/// folder so that the output holds no absolute path.
fn check_broken_copy(case: &str, file: &str, from: &str, to: &str) -> Output {
    let dir = scratch(case);
    copy_dir(&root().join("rulesets/legend"), &dir.join("legend"));
    edit(&dir.join("legend").join(file), from, to);
    let output = affray(&dir, &["check", "legend"]);
    let _ = std::fs::remove_dir_all(&dir);
    output
}

fn assert_broken(case: &str, output: &Output) {
    assert_eq!(output.status.code(), Some(1));
    let stderr = text(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    insta::with_settings!({ snapshot_path => "../snapshots/legend", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!(case, stderr);
    });
}

#[test]
fn a_gap_in_a_fumble_range_is_named() {
    let output = check_broken_copy(
        "gap",
        "tables/fumbles.tables",
        "07–09  lose_balance",
        "07–08  lose_balance",
    );
    assert_broken("broken_gap_in_close_combat_fumble", &output);
}

#[test]
fn a_misspelt_modifier_value_is_named() {
    let output = check_broken_copy(
        "modifier",
        "tables/modifiers.tables",
        "auto critical",
        "auto critcal",
    );
    assert_broken("broken_misspelt_auto_critical", &output);
}

#[test]
fn an_unknown_script_is_named() {
    let output = check_broken_copy(
        "script",
        "tables/fumbles.tables",
        "script fumbles::lose_armour",
        "script fumbles::loose_armour",
    );
    assert_broken("broken_unknown_script_function", &output);
}

#[test]
fn a_percent_sign_forgotten_is_a_syntax_error() {
    let output = check_broken_copy("percent", "tables/modifiers.tables", "+20%", "+20 %");
    assert_broken("broken_modifier_value_syntax", &output);
}

/// Surprise: "an immediate –10 to his Initiative for this round of combat. For the
/// following round Initiative is determined as normal." Initiative is rolled once and
/// kept, so round 2 shows the same roll without the −10.
#[test]
fn surprise_costs_ten_initiative_in_the_first_round_only() {
    let dir = common::scratch("surprise");
    common::copy_dir(&root().join("rulesets/legend"), &dir.join("legend"));
    let duel = dir.join("legend/scenarios/sword_and_shield_duel.toml");
    let written = std::fs::read_to_string(&duel).unwrap();
    let surprised = written.replacen(
        "statistics = { combat_style = \"sword_and_shield\", strike_rank = 12",
        "modifiers = [\"target_surprised\"]\nstatistics = { combat_style = \"sword_and_shield\", strike_rank = 12",
        1,
    );
    assert_ne!(written, surprised, "Brannoc's line moved");
    std::fs::write(&duel, surprised).unwrap();
    let mut checked = 0;
    for seed in ["1", "2", "3", "4"] {
        let output = common::affray(
            &dir,
            &[
                "fight",
                "legend/scenarios/sword_and_shield_duel.toml",
                "--seed",
                seed,
                "--json",
            ],
        );
        assert!(output.status.success(), "{}", text(&output.stderr));
        let values: Vec<i64> = text(&output.stdout)
            .lines()
            .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
            .filter(|e| e["event"] == "initiative" && e["who"] == "Brannoc")
            .map(|e| e["value"].as_i64().unwrap())
            .collect();
        // 1D10 + Strike Rank 12 − armour penalty (soft leather and helm: 1) − 10.
        let first = values[0];
        assert!(
            (1 + 12 - 1 - 10..=10 + 12 - 1 - 10).contains(&first),
            "{values:?}"
        );
        if let Some(second) = values.get(1) {
            assert_eq!(*second, first + 10, "seed {seed}: {values:?}");
            checked += 1;
        }
    }
    assert!(checked >= 2, "too few fights lasted two rounds");
}
