//! Tools a ruleset author writes tests with: scripted choices that name their combatant
//! (and round) and are reported when never used; given-dice files whose values say what
//! each die is for, written by `--emit-dice` and replayed byte for byte.

mod common;

use common::{affray, root, scratch, text};

use std::fs;
use std::path::PathBuf;

/// A scratch copy of the d100 fixture's duel scenario with `choices` appended, and the
/// dice file `dice`: the folder.
fn duel_dir(case: &str, dice: &str, choices: &str) -> PathBuf {
    let dir = scratch(case);
    let fixture = root().join("tests/fixtures/d100_duel");
    let scenario = fs::read_to_string(fixture.join("scenarios/duel.toml")).unwrap();
    let scenario = scenario.replace(
        "ruleset = \"d100_duel\"",
        &format!("ruleset = {:?}", fixture.to_string_lossy()),
    );
    fs::write(dir.join("duel.toml"), format!("{scenario}\n{choices}")).unwrap();
    fs::write(dir.join("dice.txt"), dice).unwrap();
    dir
}

fn snapshot(name: &str, value: &str) {
    insta::with_settings!({ snapshot_path => "../snapshots/broken", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!(name, value);
    });
}

const DODGE: &str = "[[choices]]\ndecision = \"reaction\"\nwho = \"Aldric\"\nchoose = \"dodge\"\n";

#[test]
fn a_choice_with_who_waits_for_its_combatant() {
    // Bryn attacks first (initiative 1 1: the tie goes to the higher DEX); the queue's
    // head waits for a weapon Bryn never has to ready, but an entry with `who` is matched
    // wherever Aldric's reaction comes.
    let choices = format!(
        "[[choices]]\ndecision = \"weapon_to_ready\"\nby = \"Bryn\"\nchoose = \"dagger\"\n\n{DODGE}"
    );
    let dir = duel_dir("who", "1 1\n90 2 40\n", &choices);
    let output = affray(
        &dir,
        &["fight", "duel.toml", "--dice", "dice.txt", "--seed", "1"],
    );
    let log = text(&output.stdout);
    assert!(
        log.contains("Aldric chooses reaction: dodge (of parry, dodge, none; scenario)"),
        "{log}"
    );
    // The queue entry was never used: with given dice, that fails the test.
    assert_eq!(output.status.code(), Some(1), "{log}");
    snapshot("scenario_unused_choice", &text(&output.stderr));
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn an_unused_choice_is_a_warning_in_a_seeded_fight() {
    let choices =
        "[[choices]]\ndecision = \"reaction\"\nwho = \"Aldric\"\nround = 999\nchoose = \"dodge\"\n";
    let dir = duel_dir("unused-seeded", "", choices);
    let output = affray(&dir, &["fight", "duel.toml", "--seed", "1"]);
    assert_eq!(output.status.code(), Some(0));
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("affray::fight::unused_choice") && stderr.ends_with("1 warning found\n"),
        "{stderr}"
    );
    let _ = fs::remove_dir_all(&dir);
}

/// The fixture duel fought with `args` in `dir`: its log, its errors and its exit code.
fn fight(dir: &std::path::Path, args: &[&str]) -> (String, String, Option<i32>) {
    let mut all = vec!["fight", "duel.toml"];
    all.extend(args);
    let output = affray(dir, &all);
    (
        text(&output.stdout),
        text(&output.stderr),
        output.status.code(),
    )
}

#[test]
fn emitted_dice_replay_the_same_log_byte_for_byte() {
    let dir = duel_dir("emit", "", "");
    let (seeded, errors, code) = fight(&dir, &["--seed", "5", "--emit-dice", "emitted.txt"]);
    assert_eq!(code, Some(0), "{errors}");
    let emitted = fs::read_to_string(dir.join("emitted.txt")).unwrap();
    assert!(
        emitted.lines().nth(1).unwrap().starts_with("initiative "),
        "{emitted}"
    );
    // The file alone: the same log, without the seed's line.
    let (replayed, errors, code) = fight(&dir, &["--dice", "emitted.txt"]);
    assert_eq!(code, Some(0), "{errors}");
    assert_eq!(seeded.split_once('\n').unwrap().1, replayed);
    // Emitted again from the replay: the same file.
    let (_, errors, _) = fight(&dir, &["--dice", "emitted.txt", "--emit-dice", "again.txt"]);
    assert_eq!(errors, "");
    assert_eq!(fs::read_to_string(dir.join("again.txt")).unwrap(), emitted);
    // The first five dice, then the seed: the seeded fight again, byte for byte.
    let head: String = emitted.lines().take(6).map(|l| format!("{l}\n")).collect();
    fs::write(dir.join("head.txt"), head).unwrap();
    let (continued, errors, code) = fight(&dir, &["--dice", "head.txt", "--seed", "5"]);
    assert_eq!(code, Some(0), "{errors}");
    assert_eq!(continued, seeded);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_labelled_dice_file_replays() {
    // Initiative 1 1; Bryn's attack 90 misses, Aldric's dodge... as in combat_toml's
    // `dodge` case, labelled, the rest seeded.
    let dice = "initiative 1, initiative 1\nattack 90  # Bryn misses\nDODGE 2 dodge 40  # Bryn resists the trip\n";
    let dir = duel_dir("labelled", dice, DODGE);
    let (log, errors, code) = fight(&dir, &["--dice", "dice.txt", "--seed", "1"]);
    assert_eq!(code, Some(0), "{errors}");
    let (bare, _, _) = {
        fs::write(dir.join("dice.txt"), "1 1\n90 2 40\n").unwrap();
        fight(&dir, &["--dice", "dice.txt", "--seed", "1"])
    };
    assert_eq!(log, bare);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_die_labelled_for_another_roll_stops_with_both_purposes() {
    let dice = "initiative 1 1\nattack 90\nlocation 2\n";
    let dir = duel_dir("mislabelled", dice, DODGE);
    let (_, errors, code) = fight(&dir, &["--dice", "dice.txt"]);
    assert_eq!(code, Some(1), "{errors}");
    snapshot("dice_wrong_purpose", &errors);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn hit_points_all_covers_every_location_not_named() {
    // Aldric with `all = 5` beside three locations fights as with every one written out.
    let all = "hit_points = { all = 5, body = 7, right_arm = 4, left_arm = 4 }";
    let written = "hit_points = { right_leg = 5, left_leg = 5, body = 7, right_arm = 4, left_arm = 4, head = 5 }";
    let dir = duel_dir("hit-points-all", "", "");
    let (expected, errors, code) = fight(&dir, &["--seed", "3"]);
    assert_eq!(code, Some(0), "{errors}");
    let scenario = fs::read_to_string(dir.join("duel.toml")).unwrap();
    assert!(scenario.contains(written));
    fs::write(dir.join("duel.toml"), scenario.replacen(written, all, 1)).unwrap();
    let (log, errors, code) = fight(&dir, &["--seed", "3"]);
    assert_eq!(code, Some(0), "{errors}");
    assert_eq!(log, expected);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_combatant_starts_prone_wounded_disarmed_with_an_action_spent() {
    let dir = duel_dir("start-state", "", "");
    let scenario = fs::read_to_string(dir.join("duel.toml")).unwrap();
    let aldric = "statistics = { damage_modifier = \"+1D4\" }";
    assert!(scenario.contains(aldric));
    let started = scenario.replacen(
        aldric,
        &format!(
            "{aldric}\nconditions = [\"prone\"]\nactions_spent = 1\ndamage_taken = {{ head = 2 }}\ndropped = [\"round_shield\"]"
        ),
        1,
    );
    fs::write(dir.join("duel.toml"), started).unwrap();
    let (log, errors, code) = fight(&dir, &["--seed", "1"]);
    assert_eq!(code, Some(0), "{errors}");
    assert!(
        log.contains(
            "    Aldric drops the Round shield\n    Aldric takes 2 to head, 3 HP left there\n    Aldric: prone\n\nRound 1\n"
        ),
        "{log}"
    );
    assert!(
        log.contains("order: Bryn (24, 2 actions), Aldric (20, 1 action)"),
        "{log}"
    );
    // A condition the ruleset does not declare is refused by check.
    let misspelt = fs::read_to_string(dir.join("duel.toml"))
        .unwrap()
        .replace("\"prone\"", "\"prnoe\"");
    fs::write(dir.join("duel.toml"), misspelt).unwrap();
    let (_, errors, code) = fight(&dir, &["--seed", "1"]);
    assert_eq!(code, Some(1));
    assert!(
        errors.contains("affray::scenario::unknown_condition")
            && errors.contains("did you mean `prone`?"),
        "{errors}"
    );
    let _ = fs::remove_dir_all(&dir);
}

/// A scratch copy of the shipped scenario `scenario` of `ruleset`, naming its ruleset by
/// path, with `extra` written after the first line that is `after`: the folder, the
/// scenario being `duel.toml` in it.
fn shipped_with(case: &str, ruleset: &str, scenario: &str, after: &str, extra: &str) -> PathBuf {
    let dir = scratch(case);
    let home = root().join("rulesets").join(ruleset);
    let text = fs::read_to_string(home.join("scenarios").join(scenario)).unwrap();
    let named = format!("ruleset = {ruleset:?}");
    assert!(text.contains(&named) && text.contains(after), "{text}");
    let text = text
        .replacen(
            &named,
            &format!("ruleset = {:?}", home.to_string_lossy()),
            1,
        )
        .replacen(after, &format!("{after}\n{extra}"), 1);
    fs::write(dir.join("duel.toml"), text).unwrap();
    dir
}

/// The part of `log` from `from` to the next `to` after it.
fn between<'l>(log: &'l str, from: &str, to: &str) -> &'l str {
    let start = log
        .find(from)
        .unwrap_or_else(|| panic!("no {from:?} in\n{log}"));
    let rest = &log[start..];
    let end = rest[from.len()..]
        .find(to)
        .map_or(rest.len(), |at| at + from.len());
    &rest[..end]
}

#[test]
fn a_set_initiative_replaces_the_first_rounds_roll() {
    // The d100 fixture rolls `self.DEX + 1d10` every round: Aldric's first is set (no
    // die), his second rolled again.
    let dir = duel_dir("initiative", "", "");
    let scenario = fs::read_to_string(dir.join("duel.toml")).unwrap();
    let aldric = "statistics = { damage_modifier = \"+1D4\" }";
    assert!(scenario.contains(aldric));
    fs::write(
        dir.join("duel.toml"),
        scenario.replacen(aldric, &format!("{aldric}\ninitiative = 3"), 1),
    )
    .unwrap();
    let (log, errors, code) = fight(&dir, &["--seed", "4", "--emit-dice", "dice.txt"]);
    assert_eq!(code, Some(0), "{errors}");
    let first = between(&log, "Round 1\n", "acts");
    assert!(
        first.starts_with("Round 1\n  initiative Aldric: 3\n    1D10 initiative for Bryn → "),
        "{first}"
    );
    assert!(first.contains("Aldric (3, 2 actions)\n"), "{first}");
    assert!(
        between(&log, "Round 2\n", "acts")
            .starts_with("Round 2\n    1D10 initiative for Aldric → "),
        "{log}"
    );
    // The dice the fight rolled begin with Bryn's initiative alone.
    let dice = fs::read_to_string(dir.join("dice.txt")).unwrap();
    let labels: Vec<&str> = dice
        .lines()
        .skip(1)
        .take(2)
        .map(|line| line.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(labels, ["initiative", "attack"], "{dice}");
    assert!(dice.lines().nth(1).unwrap().ends_with("for Bryn"), "{dice}");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_set_initiative_is_kept_where_the_ruleset_keeps_the_one_rolled() {
    // Legend keeps round 1's initiative (`keep_initiative`): Brannoc's is never rolled.
    let dir = shipped_with(
        "initiative-kept",
        "legend",
        "sword_and_shield_duel.toml",
        "name = \"Brannoc\"",
        "initiative = 30",
    );
    let (log, errors, code) = fight(&dir, &["--seed", "1"]);
    assert_eq!(code, Some(0), "{errors}");
    assert!(
        between(&log, "Round 1\n", "acts")
            .starts_with("Round 1\n  initiative Brannoc: 30\n    1D10 initiative for Ysolde → "),
        "{log}"
    );
    assert!(log.contains("Round 2\n  initiative Brannoc: 30\n"), "{log}");
    assert!(!log.contains("initiative for Brannoc"), "{log}");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_set_initiative_sets_a_scripts_answer_aside() {
    // Classic Fantasy works initiative out in a script, which rolls everyone's at once:
    // the script still runs (its dice are rolled), its answer is set aside.
    let dir = shipped_with(
        "initiative-hook",
        "classic-fantasy",
        "sword_and_shield_duel.toml",
        "name = \"Sir Aldric\"",
        "initiative = 1",
    );
    let (log, errors, code) = fight(&dir, &["--seed", "1"]);
    assert_eq!(code, Some(0), "{errors}");
    let first = between(&log, "Round 1\n", "acts");
    assert!(
        first.contains("1D10 initiative for Sir Aldric → ")
            && first.contains("initiative Sir Aldric: 1\n"),
        "{first}"
    );
    assert!(
        first.contains("order: Brigand Captain (20, 3 actions), Sir Aldric (1, 2 actions)"),
        "{first}"
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn check_warns_of_a_scripted_choice_none_of_its_fights_used() {
    // Aldric's dodge is used in the fights of check (seeds 1, 2 and 3); a parry in round
    // 99 never comes (the fight ends long before).
    let late =
        "[[choices]]\ndecision = \"reaction\"\nwho = \"Aldric\"\nround = 99\nchoose = \"parry\"\n";
    let dir = duel_dir("check-unused", "", &format!("{DODGE}\n{late}"));
    let output = affray(&dir, &["check", "duel.toml"]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(text(&output.stdout).starts_with("duel.toml is valid;"));
    assert!(stderr.ends_with("1 warning found\n"), "{stderr}");
    snapshot("scenario_choice_unused_in_check", &stderr);
    // Without the fights, nothing to say.
    let output = affray(&dir, &["check", "--no-fights", "duel.toml"]);
    assert_eq!(text(&output.stderr), "");
    let _ = fs::remove_dir_all(&dir);
}
