//! Issue 23, "every fight ends, nothing wraps, nothing panics": fights that a ruleset or a
//! scenario makes run away, hooks that return the wrong type, numbers that would wrap,
//! hostile text. Each case is a shipped ruleset copied to a scratch folder and broken
//! there, or a file generated in the test.

mod common;

use common::{affray, copy_dir, edit, root, scratch, text};

use std::fs;
use std::path::{Path, PathBuf};

/// A copy of a shipped ruleset in a fresh scratch folder: the folder and the copy.
fn copy_of(case: &str, ruleset: &str) -> (PathBuf, PathBuf) {
    let dir = scratch(case);
    let copy = dir.join(ruleset);
    copy_dir(&root().join("rulesets").join(ruleset), &copy);
    (dir, copy)
}

/// Add `lines` to a ruleset's ruleset.toml (a table of its own, such as `[limits]`).
fn append_settings(copy: &Path, lines: &str) {
    let settings = copy.join("ruleset.toml");
    let before = fs::read_to_string(&settings).unwrap();
    fs::write(&settings, format!("{before}\n{lines}\n")).unwrap();
}

/// `affray fight SCENARIO --seed 1` from `dir`: exit code, stdout, stderr.
fn fight(dir: &Path, scenario: &str) -> (Option<i32>, String, String) {
    let output = affray(dir, &["fight", scenario, "--seed", "1"]);
    (
        output.status.code(),
        text(&output.stdout),
        text(&output.stderr),
    )
}

#[test]
fn a_hook_running_just_under_its_own_limit_every_turn_stops_at_the_fights_budget() {
    let (dir, copy) = copy_of("script-budget", "runequest-srd");
    // About 300,000 operations a call: under rhai's 1,000,000 a call, so only the
    // fight's own budget stops it.
    edit(
        &copy.join("scripts/combat.rhai"),
        "fn out_of_fight(fight, who) {",
        "fn out_of_fight(fight, who) {\n    let n = 0;\n    for i in 0..100000 { n += i; }",
    );
    append_settings(&copy, "[limits]\nscript_operations = 2000000");
    let (code, stdout, stderr) = fight(&dir, "runequest-srd/scenarios/sword_and_shield_duel.toml");
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("affray::fight::limit")
            && stderr.contains("it reached its limit of 2000000 script operations")
            && stderr.contains("raise `script_operations` under [limits]"),
        "{stderr}"
    );
    // Stopped early: the fight so far is printed, and it did not end.
    assert!(stdout.contains("Round 1"), "{stdout}");
    assert!(!stdout.contains("wins"), "{stdout}");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_script_logging_long_notes_stops_at_the_logs_budget_of_text() {
    let (dir, copy) = copy_of("log-bytes", "runequest-srd");
    let note = "x".repeat(5_000);
    edit(
        &copy.join("scripts/combat.rhai"),
        "fn out_of_fight(fight, who) {",
        &format!("fn out_of_fight(fight, who) {{\n    fight.log(\"{note}\");"),
    );
    append_settings(&copy, "[limits]\nlog_bytes = 50000");
    let (code, stdout, stderr) = fight(&dir, "runequest-srd/scenarios/sword_and_shield_duel.toml");
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("affray::fight::limit")
            && stderr.contains("it reached its limit of 50000 bytes of text in its log")
            && stderr.contains("raise `log_bytes` under [limits]"),
        "{stderr}"
    );
    // The log keeps what fits: fewer than 50,000 bytes of notes (the whole fight logs 18).
    let kept = stdout.matches(&note).count();
    assert!((1..10).contains(&kept), "{kept} notes kept");
    let _ = fs::remove_dir_all(&dir);
}
