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

/// Take the turn's action list out of a copy's tactics.toml: its tactics script's
/// `choose_action` then chooses every turn's action, as a script run at every turn.
fn actions_by_script(copy: &Path) {
    let tactics = copy.join("tactics.toml");
    let text = fs::read_to_string(&tactics).unwrap();
    let kept: Vec<&str> = text
        .split("\n\n")
        .filter(|block| !block.lines().any(|line| line.starts_with("[[action]]")))
        .collect();
    assert!(
        kept.len() < text.split("\n\n").count(),
        "no [[action]] list"
    );
    fs::write(&tactics, kept.join("\n\n")).unwrap();
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
    actions_by_script(&copy);
    // About 300,000 operations a call of the tactics function that chooses every
    // turn's action: under rhai's 1,000,000 a call, so only the fight's own budget
    // stops it.
    edit(
        &copy.join("scripts/tactics.rhai"),
        "fn choose_action(fight, who, options) {",
        "fn choose_action(fight, who, options) {\n    let n = 0;\n    for i in 0..100000 { n += i; }",
    );
    // The duel of seed 1 has four turns (one round): the third call is over.
    append_settings(&copy, "[limits]\nscript_operations = 700000");
    let (code, stdout, stderr) = fight(&dir, "runequest-srd/scenarios/sword_and_shield_duel.toml");
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("affray::fight::limit")
            && stderr.contains("it reached its limit of 700000 script operations")
            && stderr.contains("raise `script_operations` under [limits]"),
        "{stderr}"
    );
    // Stopped early: the fight so far is printed, and it did not end.
    assert!(stdout.contains("Round 1"), "{stdout}");
    assert!(!stdout.contains("wins"), "{stdout}");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn the_budget_of_script_operations_is_each_fights_own_on_any_number_of_threads() {
    // The largest of these fights runs under 300,000 operations, and 200 of them over
    // 30 million: a count shared between fights or threads would stop the run.
    let (dir, copy) = copy_of("script-budget-threads", "runequest-srd");
    append_settings(&copy, "[limits]\nscript_operations = 600000");
    let output = affray(
        &dir,
        &[
            "simulate",
            "runequest-srd/scenarios/sword_and_shield_duel.toml",
            "--fights",
            "200",
            "--seed",
            "1",
            "--threads",
            "2",
        ],
    );
    let _ = fs::remove_dir_all(&dir);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
}

#[test]
fn a_script_logging_long_notes_stops_at_the_logs_budget_of_text() {
    let (dir, copy) = copy_of("log-bytes", "runequest-srd");
    actions_by_script(&copy);
    let note = "x".repeat(5_000);
    // Four notes each time the tactics choose a turn's action.
    edit(
        &copy.join("scripts/tactics.rhai"),
        "fn choose_action(fight, who, options) {",
        &format!(
            "fn choose_action(fight, who, options) {{\n    for i in 0..4 {{ fight.log(\"{note}\"); }}"
        ),
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
    // The log keeps what fits: fewer than 50,000 bytes of notes (the whole fight logs 16: four a turn).
    let kept = stdout.matches(&note).count();
    assert!((1..10).contains(&kept), "{kept} notes kept");
    let _ = fs::remove_dir_all(&dir);
}

/// Fight a copy of runequest-srd's duel whose `hook` is `wrong::FUNCTION`, written in
/// `scripts/wrong.rhai` as `script`; the error printed. A step its combat.toml says
/// (`[turn] actions`) is taken out of it and given to the hook.
fn fight_with_hook(case: &str, hook: &str, script: &str) -> String {
    fight_with_hook_in(case, hook, script, "sword_and_shield_duel")
}

/// The same with the scenario `scenario` of runequest-srd.
fn fight_with_hook_in(case: &str, hook: &str, script: &str, scenario: &str) -> String {
    let (dir, copy) = copy_of(case, "runequest-srd");
    fs::write(copy.join("scripts/wrong.rhai"), script).unwrap();
    let settings = copy.join("ruleset.toml");
    let wrong = format!("{hook} = \"wrong::{hook}\"");
    let script_hook = format!("{hook} = \"combat::{hook}\"");
    if fs::read_to_string(&settings)
        .unwrap()
        .contains(&script_hook)
    {
        edit(&settings, &script_hook, &wrong);
    } else {
        let combat = copy.join("combat.toml");
        let text = fs::read_to_string(&combat).unwrap();
        let native = text
            .lines()
            .find(|line| line.starts_with(&format!("{hook} = ")))
            .unwrap_or_else(|| panic!("neither [hooks] nor combat.toml says `{hook}`"));
        edit(&combat, native, "");
        edit(&settings, "[hooks]\n", &format!("[hooks]\n{wrong}\n"));
    }
    let (code, _, stderr) = fight(&dir, &format!("runequest-srd/scenarios/{scenario}.toml"));
    let _ = fs::remove_dir_all(&dir);
    assert_eq!(code, Some(1), "{stderr}");
    stderr
}

/// The diagnostic's first line, as one line however the report wrapped it.
fn message(stderr: &str) -> String {
    let first = stderr
        .split("\n\n")
        .nth(1)
        .unwrap_or_default()
        .split(" ╭─[")
        .next()
        .unwrap_or_default()
        .trim_start_matches("  × ");
    first
        .lines()
        .map(|line| line.trim_start_matches(['│', ' ']))
        .collect::<Vec<_>>()
        .join(" ")
        .trim()
        .to_string()
}

#[test]
fn an_actions_hook_returning_a_map_stops_the_fight_naming_the_hook_and_the_function() {
    let stderr = fight_with_hook(
        "hook-actions",
        "actions",
        "// How many actions: a map by mistake.\nfn actions(fight, who) {\n    #{ actions: 2 }\n}\n",
    );
    insta::with_settings!({ snapshot_path => "../snapshots/hardening", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!("hook_actions_returns_a_map", stderr);
    });
}

#[test]
fn an_out_of_fight_hook_returning_nothing_or_a_text_stops_the_fight() {
    let stderr = fight_with_hook(
        "hook-out-nothing",
        "out_of_fight",
        "fn out_of_fight(fight, who) {\n    if fight.is_out(who) { true }\n}\n",
    );
    assert_eq!(
        message(&stderr),
        "runequest-srd/scripts/wrong.rhai (line 1): the hook `out_of_fight` returned nothing (`()`), but it should return `true` or `false`",
        "{stderr}"
    );
    let stderr = fight_with_hook(
        "hook-out-text",
        "out_of_fight",
        "fn out_of_fight(fight, who) {\n    \"no\"\n}\n",
    );
    assert_eq!(
        message(&stderr),
        "runequest-srd/scripts/wrong.rhai (line 1): the hook `out_of_fight` returned a text (`\"no\"`), but it should return `true` or `false`",
        "{stderr}"
    );
}

#[test]
fn a_choices_hook_returning_a_text_or_a_list_of_numbers_stops_the_fight() {
    // The archer, 60 m from the axeman, plays his first turn by the hooks (combat.toml's
    // `[turn] hooks_if`; in the duel, combat.toml offers the actions).
    let stderr = fight_with_hook_in(
        "hook-choices-text",
        "choices",
        "fn choices(fight, who) {\n    \"attack\"\n}\n",
        "archer_against_charging_axeman",
    );
    assert_eq!(
        message(&stderr),
        "runequest-srd/scripts/wrong.rhai (line 1): the hook `choices` returned a text (`\"attack\"`), but it should return a list of names, such as [\"attack\", \"parry\"]",
        "{stderr}"
    );
    let stderr = fight_with_hook_in(
        "hook-choices-numbers",
        "choices",
        "fn choices(fight, who) {\n    [\"attack\", 2]\n}\n",
        "archer_against_charging_axeman",
    );
    assert_eq!(
        message(&stderr),
        "runequest-srd/scripts/wrong.rhai (line 1): the hook `choices` returned a list holding a whole number (`2`), but it should return a list of names, such as [\"attack\", \"parry\"]",
        "{stderr}"
    );
}

#[test]
fn an_initiative_hook_returning_a_decimal_number_stops_the_fight() {
    let stderr = fight_with_hook(
        "hook-initiative",
        "initiative",
        "\n\nfn initiative(fight, who) {\n    12.5\n}\n",
    );
    assert_eq!(
        message(&stderr),
        "runequest-srd/scripts/wrong.rhai (line 3): the hook `initiative` returned a decimal number (`12.5`), but it should return a whole number",
        "{stderr}"
    );
}

#[test]
fn a_tactics_function_returning_a_number_stops_the_fight() {
    let (dir, copy) = copy_of("tactics-number", "runequest-srd");
    actions_by_script(&copy);
    edit(
        &copy.join("scripts/tactics.rhai"),
        "fn choose_action(fight, who, options) {",
        "fn choose_action(fight, who, options) {\n    return 0;",
    );
    let (code, _, stderr) = fight(&dir, "runequest-srd/scenarios/sword_and_shield_duel.toml");
    let _ = fs::remove_dir_all(&dir);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        message(&stderr).ends_with(
            "the hook `tactics: action` returned a whole number (`0`), but it should return a text: the name of one of the options"
        ),
        "{stderr}"
    );
}

/// Fight a copy of runequest-srd with a `setup` hook (`scripts/probe.rhai`) that runs
/// `code` (with `fight` and `who`) on line 2; exit code, log and error.
fn fight_with_setup(case: &str, code: &str) -> (Option<i32>, String, String) {
    let (dir, copy) = copy_of(case, "runequest-srd");
    fs::write(
        copy.join("scripts/probe.rhai"),
        format!("fn setup(fight, who) {{\n    if who == 0 {{ {code} }}\n}}\n"),
    )
    .unwrap();
    edit(
        &copy.join("ruleset.toml"),
        "[hooks]\n",
        "[hooks]\nsetup = \"probe::setup\"\n",
    );
    let result = fight(&dir, "runequest-srd/scenarios/sword_and_shield_duel.toml");
    let _ = fs::remove_dir_all(&dir);
    result
}

#[test]
fn damage_as_large_as_a_number_goes_twice_leaves_the_fewest_hit_points_not_a_wrap() {
    let (code, stdout, stderr) = fight_with_setup(
        "damage-max",
        r#"fight.damage(0, "head", 9223372036854775807);
           fight.log("head: " + fight.damage(0, "head", 9223372036854775807));"#,
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("head: -9223372036854775808"), "{stdout}");
}

#[test]
fn negative_damage_lost_actions_and_hit_points_are_script_errors_naming_the_function() {
    let cases = [
        (
            r#"fight.damage(0, "head", -1000000000);"#,
            "fight.damage: the amount of damage must be 0 or more, not -1000000000",
        ),
        (
            "fight.lose_actions(0, -1000);",
            "fight.lose_actions: the actions lost must be 0 or more, not -1000",
        ),
        (
            r#"fight.set_max_hit_points(0, "head", -5);"#,
            "fight.set_max_hit_points: the hit points must be 0 or more, not -5",
        ),
        (
            r#"fight.set_condition(0, "prone", -3, "rounds");"#,
            "fight.set_condition: a duration must be 0 or more, not -3",
        ),
        (
            r#"fight.roll_maximised(0, "2D8", -1, "damage");"#,
            "fight.roll_maximised: the dice maximised must be 0 or more, not -1",
        ),
        (
            r#"fight.heal(0, "head", -2);"#,
            "fight.heal: the amount healed must be 0 or more, not -2",
        ),
    ];
    for (call, expected) in cases {
        let (code, _, stderr) = fight_with_setup("negative", call);
        assert_eq!(code, Some(1), "{call}: {stderr}");
        assert_eq!(
            message(&stderr),
            format!("runequest-srd/scripts/probe.rhai (line 2): {expected}"),
            "{stderr}"
        );
    }
}

#[test]
fn a_roll_table_adjustment_as_large_as_a_number_goes_reads_the_last_row() {
    let (code, stdout, stderr) = fight_with_setup(
        "adjustment-max",
        r#"let high = fight.roll_table(0, "humanoid_hit_location", 9223372036854775807);
           let low = fight.roll_table(0, "humanoid_hit_location", -9223372036854775807 - 1);
           fight.log("rows: " + high.row + " " + high.result + ", " + low.row + " " + low.result);"#,
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        // The lowest adjustment plus the die: still far below the first row.
        stdout.contains("rows: head 9223372036854775807, right_leg -92233720368547757"),
        "{stdout}"
    );
}

/// A ruleset of one table file, `tables`, in a scratch folder; `affray check` on it: the
/// exit code and the report.
fn check_table_file(case: &str, tables: &str) -> (Option<i32>, String) {
    let dir = scratch(case);
    let ruleset = dir.join("generated");
    fs::create_dir_all(ruleset.join("tables")).unwrap();
    fs::write(
        ruleset.join("ruleset.toml"),
        "name = \"generated\"\ntitle = \"A generated table\"\nsuccess_levels = [\"success\", \"failure\"]\n",
    )
    .unwrap();
    fs::write(ruleset.join("tables/big.tables"), tables).unwrap();
    let output = affray(&dir, &["check", "generated"]);
    let _ = fs::remove_dir_all(&dir);
    (output.status.code(), text(&output.stderr))
}

#[test]
fn a_mistake_at_the_end_of_a_line_of_megabytes_gives_a_short_report() {
    // Before: the whole line was printed, and past column 65,535 miette panicked.
    let long = "a".repeat(3_000_000);
    let (code, stderr) =
        check_table_file("long-line", &format!("table x roll 1d6 {{ 1 {long}! }}"));
    assert_eq!(code, Some(1), "{}", &stderr[..stderr.len().min(2000)]);
    assert!(stderr.len() < 2_000, "{} bytes", stderr.len());
    assert!(!stderr.contains("panicked"), "{stderr}");
    // The real line and column, the caret under the `!`, a window of the line round it.
    assert!(
        stderr.contains("[generated/tables/big.tables:1:3000022]"),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!(" 1 │ {}! }}\n", "a".repeat(80))),
        "{stderr}"
    );
}

#[test]
fn a_token_of_megabytes_is_echoed_cut_short() {
    // Before: the token was echoed whole, in the message and in the line: twice the file.
    let long = "a".repeat(3_000_000);
    let (code, stderr) = check_table_file("long-token", &format!("table x roll 1d6 {{ {long} }}"));
    assert_eq!(code, Some(1), "{}", &stderr[..stderr.len().min(2000)]);
    assert!(stderr.len() < 2_000, "{} bytes", stderr.len());
    assert!(
        stderr.contains(&format!(
            "expected a whole number, found `{}…`",
            "a".repeat(60)
        )),
        "{stderr}"
    );
}

#[test]
fn a_misspelt_name_of_megabytes_is_echoed_cut_short() {
    let long = "b".repeat(1_000_000);
    let (code, stderr) = check_table_file(
        "long-name",
        &format!(
            "table hit_location roll 1d6 {{ 1-6 body }}\ntable x roll 1d6 {{ 1-6 a => roll {long} }}\n"
        ),
    );
    assert_eq!(code, Some(1), "{}", &stderr[..stderr.len().min(2000)]);
    assert!(stderr.len() < 2_000, "{} bytes", stderr.len());
    assert!(
        stderr.contains(&format!("unknown table `{}…`", "b".repeat(60))),
        "{stderr}"
    );
}

#[test]
fn a_game_masters_answer_of_megabytes_is_echoed_cut_short() {
    let dir = scratch("long-answer");
    let duel = root().join("rulesets/legend/scenarios/sword_and_shield_duel.toml");
    let answer = "7".repeat(5_000_000);
    let output = common::affray_with_input(
        &dir,
        &[
            "fight",
            duel.to_str().unwrap(),
            "--interactive",
            "--state",
            "duel.fight.json",
        ],
        &format!("{answer}\nquit\n"),
    );
    let _ = fs::remove_dir_all(&dir);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    // Before: the answer was printed twice, 10 MB.
    assert!(stdout.len() < 10_000, "{} bytes", stdout.len());
    assert!(
        stdout.contains(&format!("`{}…` is not a number", "7".repeat(60))),
        "{}",
        &stdout[..stdout.len().min(3000)]
    );
}

#[test]
fn a_hook_that_loops_or_recurses_forever_names_the_limit_the_hook_and_its_function() {
    // Before: "combat.rhai: Too many operations", with no line, no limit, no function.
    let stderr = fight_with_hook(
        "hook-loops",
        "actions",
        "fn actions(fight, who) {\n    let n = 0;\n    loop { n += 1; }\n}\n",
    );
    assert!(stderr.starts_with("affray::script::runaway"), "{stderr}");
    assert_eq!(
        message(&stderr),
        "runequest-srd/scripts/wrong.rhai (line 1): `wrong::actions`, called for `actions`, ran more than 1000000 operations in one call (the most one call may run): does it loop forever?",
        "{stderr}"
    );
    // Before: "Stack overflow".
    let stderr = fight_with_hook(
        "hook-recurses",
        "actions",
        "fn deeper(n) { deeper(n + 1) }\n\nfn actions(fight, who) {\n    deeper(0)\n}\n",
    );
    assert_eq!(
        message(&stderr),
        "runequest-srd/scripts/wrong.rhai (line 3): `wrong::actions`, called for `actions`, nested its calls more than 64 deep (the most calls may nest): does a function call itself without end?",
        "{stderr}"
    );
}

#[test]
fn reading_a_dice_statistic_as_a_number_names_the_functions_that_roll_it() {
    // Before, the message named `fight.roll_statistic`, which does not exist.
    let (code, _, stderr) = fight_with_setup(
        "dice-statistic",
        r#"fight.statistic(0, "damage_modifier");"#,
    );
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(
        message(&stderr),
        "runequest-srd/scripts/probe.rhai (line 2): the statistic `damage_modifier` is dice (1D2): roll it with fight.roll(who, fight.statistic_dice(who, \"damage_modifier\"), purpose)",
        "{stderr}"
    );
}

/// `affray fight DUEL --interactive` with `args` after it and `input` typed in: exit
/// code, stdout, stderr.
fn play(case: &str, args: &[&str], input: &str) -> (Option<i32>, String, String) {
    let dir = scratch(case);
    let duel = root().join("rulesets/legend/scenarios/sword_and_shield_duel.toml");
    let duel = duel.to_str().unwrap();
    let mut all = vec!["fight", duel, "--interactive", "--state", "duel.fight.json"];
    all.extend(args);
    let output = common::affray_with_input(&dir, &all, input);
    let _ = fs::remove_dir_all(&dir);
    (
        output.status.code(),
        text(&output.stdout),
        text(&output.stderr),
    )
}

#[test]
fn a_misspelt_combatant_or_step_in_a_dial_is_refused_with_the_name_meant() {
    // Before: accepted, and it dialled nothing.
    let (code, _, stderr) = play("dial-combatant", &["--dial", "Brannok:dice=auto"], "quit\n");
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("--dial Brannok:dice=auto: `Brannok` is no combatant of this fight")
            && stderr.contains("help: did you mean `Brannoc`? The combatants: Brannoc, Ysolde"),
        "{stderr}"
    );
    let (code, _, stderr) = play("dial-step", &["--dial", "manouvre=auto"], "quit\n");
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("--dial manouvre=auto: `manouvre` is no step of this fight")
            && stderr.contains("did you mean `manoeuvre`?"),
        "{stderr}"
    );
    // A step no list holds, far from every known one, is kept: a script may ask a
    // decision by a name it works out.
    let (code, _, stderr) = play("dial-other", &["--dial", "haggle=auto"], "quit\n");
    assert_eq!(code, Some(0), "{stderr}");
    // At the table too.
    let (code, stdout, stderr) = play("dial-typed", &[], "dial Ysolde:manouvre=auto\nquit\n");
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stdout.contains("`manouvre` is no step of this fight; did you mean `manoeuvre`?"),
        "{stdout}"
    );
}
