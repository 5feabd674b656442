//! GM mode (`affray fight --interactive`): scripted sessions at the table through stdin,
//! a killed fight resumed, undo, and a saved fight replayed under a house rule.

mod common;

use common::{affray, affray_with_input, copy_dir, edit, root, scratch, text};

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const DUEL: &str = "rulesets/legend/scenarios/sword_and_shield_duel.toml";

/// Round 1, Ysolde's first action: initiative 9 and 8, attack and parry as the tactics
/// suggest (Enter), her attack 39, his parry 58, damage 1 (the shield takes it).
const FIRST_ACTION: &[&str] = &["9", "8", "", "", "39", "58", "1"];
/// Brannoc's action: `defend` (option 2) instead of the suggested attack.
const SECOND_ACTION: &[&str] = &["2"];
/// Ysolde's critical (5) against a failed parry (90); her first manoeuvre chosen by
/// number (6, choose_location), the rest as suggested; 3 actions without attacking and
/// a failed Resilience (94): Brannoc is out.
const THIRD_ACTION: &[&str] = &["", "", "5", "90", "6", "", "", "3", "94"];

fn snapshot(name: &str, value: String) {
    insta::with_settings!({ snapshot_path => "../snapshots/play", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!(name, value);
    });
}

fn duel() -> String {
    root().join(DUEL).display().to_string()
}

fn answers(parts: &[&[&str]]) -> String {
    parts.concat().iter().map(|a| format!("{a}\n")).collect()
}

fn record(path: &Path) -> serde_json::Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

fn play(dir: &Path, state: &str, input: &str) -> String {
    let duel = duel();
    let output = affray_with_input(
        dir,
        &["fight", &duel, "--interactive", "--state", state],
        input,
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    text(&output.stdout)
}

#[test]
fn a_scripted_session_plays_a_legend_duel_to_the_end() {
    let dir = scratch("play-duel");
    // Help at the first prompt; three impossible attack rolls before the real one; a
    // look at the status before the last action.
    let input = answers(&[
        &["?"],
        &FIRST_ACTION[..4],
        &["0", "101", "abc"],
        &FIRST_ACTION[4..],
        SECOND_ACTION,
        &["status"],
        // The manoeuvre typed as the prose lists it, in words (THIRD_ACTION's option 6).
        &THIRD_ACTION[..4],
        &["choose location"],
        &THIRD_ACTION[5..],
    ]);
    let transcript = play(&dir, "duel.fight.json", &input);
    assert!(transcript.contains("0 cannot be rolled on a 1D100: enter 1 to 100"));
    assert!(transcript.contains("101 cannot be rolled on a 1D100: enter 1 to 100"));
    assert!(transcript.contains("`abc` is not a number"));
    assert!(transcript.contains("Ysolde chooses manoeuvre: choose location"));
    assert!(transcript.contains("Won by blue after 1 round; standing: Ysolde"));
    let saved = record(&dir.join("duel.fight.json"));
    assert_eq!(saved["finished"], true);
    assert!(!dir.join("duel.fight.json.tmp").exists());
    snapshot("legend_duel_at_the_table", transcript);
    let _ = fs::remove_dir_all(&dir);
}

/// The replayed log of a state file, without its first line (which names the file).
fn replayed_log(dir: &Path, state: &str) -> String {
    let legend = root().join("rulesets/legend").display().to_string();
    let output = affray(dir, &["fight", "--replay", state, "--ruleset", &legend]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let log = text(&output.stdout);
    assert!(
        log.contains("The two runs are the same, event for event"),
        "{log}"
    );
    log.split_once('\n').unwrap().1.to_string()
}

#[test]
fn a_killed_fight_resumes_from_its_last_resolved_action() {
    let dir = scratch("play-kill");
    play(
        &dir,
        "whole.json",
        &answers(&[FIRST_ACTION, SECOND_ACTION, THIRD_ACTION]),
    );

    // The same session, killed in the middle of the third action.
    let duel = duel();
    let mut child = Command::new(env!("CARGO_BIN_EXE_affray"))
        .args(["fight", &duel, "--interactive", "--state", "killed.json"])
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let partial = answers(&[FIRST_ACTION, SECOND_ACTION, &THIRD_ACTION[..4]]);
    let mut stdin = child.stdin.take().unwrap();
    std::io::Write::write_all(&mut stdin, partial.as_bytes()).unwrap();
    let started = Instant::now();
    let state = dir.join("killed.json");
    loop {
        let resolved = fs::read_to_string(&state)
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .map_or(0, |r| r["resolved"].as_array().map_or(0, Vec::len));
        if resolved >= 2 {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "no resolved action saved"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // Give it time to take in the answers of the third action, then kill it mid-action.
    std::thread::sleep(Duration::from_millis(200));
    child.kill().unwrap();
    let _ = child.wait();
    drop(stdin);
    let killed = record(&state);
    assert_eq!(killed["resolved"].as_array().unwrap().len(), 2);
    assert_eq!(killed["finished"], false);

    // The action in progress is played again: all of its answers.
    let output = affray_with_input(
        &dir,
        &["fight", "--resume", "killed.json"],
        &answers(&[THIRD_ACTION]),
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(text(&output.stdout).contains("(replayed 8 dice and choices"));

    let whole = record(&dir.join("whole.json"));
    let resumed = record(&state);
    assert_eq!(resumed["finished"], true);
    assert_eq!(resumed["status"], whole["status"]);
    assert_eq!(resumed["inputs"], whole["inputs"]);
    assert_eq!(
        replayed_log(&dir, "killed.json"),
        replayed_log(&dir, "whole.json")
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn undo_takes_back_the_last_action() {
    let dir = scratch("play-undo");
    // Reference: the state saved after the first action, and nothing more.
    play(&dir, "first.json", &answers(&[FIRST_ACTION]));
    let after_first = record(&dir.join("first.json"))["status"].clone();
    assert!(
        after_first
            .as_array()
            .is_some_and(|lines| !lines.is_empty())
    );

    let transcript = play(
        &dir,
        "undone.json",
        &answers(&[FIRST_ACTION, SECOND_ACTION, &["undo"]]),
    );
    let undone = record(&dir.join("undone.json"));
    assert_eq!(undone["status"], after_first);
    assert_eq!(undone["resolved"].as_array().unwrap().len(), 1);
    // The status shown after the undo is the one after the first action.
    let shown: Vec<&str> = transcript
        .split_once("(replayed 7 dice and choices; the fight goes on from here)\n")
        .unwrap()
        .1
        .lines()
        .take(after_first.as_array().unwrap().len())
        .collect();
    let expected: Vec<&str> = after_first
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert_eq!(shown, expected);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn an_existing_state_file_is_not_overwritten() {
    let dir = scratch("play-exists");
    let duel = duel();
    let first = affray_with_input(&dir, &["fight", &duel, "-i"], "quit\n");
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    assert!(dir.join("sword_and_shield_duel.fight.json").exists());
    let second = affray_with_input(&dir, &["fight", &duel, "-i"], "quit\n");
    assert_eq!(second.status.code(), Some(1));
    let message = text(&second.stderr);
    assert!(message.contains("already holds a saved fight"), "{message}");
    assert!(
        message.contains("affray fight --resume sword_and_shield_duel.fight.json"),
        "{message}"
    );

    fs::write(dir.join("notes.json"), "my notes").unwrap();
    let third = affray_with_input(&dir, &["fight", &duel, "-i", "--state", "notes.json"], "");
    assert_eq!(third.status.code(), Some(1));
    assert!(text(&third.stderr).contains("is not an affray state file"));
    assert_eq!(
        fs::read_to_string(dir.join("notes.json")).unwrap(),
        "my notes"
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn recording_a_seeded_fight_leaves_its_log_unchanged() {
    let dir = scratch("play-record");
    let duel = duel();
    let plain = affray(&dir, &["fight", &duel, "--seed", "1"]);
    let recorded = affray(&dir, &["fight", &duel, "--seed", "1", "--record", "r.json"]);
    assert_eq!(
        recorded.status.code(),
        Some(0),
        "{}",
        text(&recorded.stderr)
    );
    assert_eq!(plain.stdout, recorded.stdout);
    assert_eq!(record(&dir.join("r.json"))["finished"], true);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_saved_fight_replayed_under_a_house_rule_shows_the_first_divergence() {
    let dir = scratch("play-replay");
    let duel = duel();
    let output = affray(&dir, &["fight", &duel, "--seed", "1", "--record", "r.json"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    // The seeded duel's first hit location is a 16: the left arm, which the house rule
    // gives to the right arm.
    let house = dir.join("house");
    copy_dir(&root().join("rulesets/legend"), &house);
    let table = house.join("tables/hit_locations.tables");
    edit(&table, "13–15  right_arm", "13–16  right_arm");
    edit(&table, "16–18  left_arm", "17–18  left_arm");
    let output = affray(&dir, &["fight", "--replay", "r.json", "--ruleset", "house"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let report = text(&output.stdout);
    let (_, difference) = report.split_once("── original").unwrap();
    assert!(difference.contains("humanoid hit location for Brannoc: 16 → Left Arm"));
    assert!(
        difference.contains(
            "── house rule (house):\n    humanoid hit location for Brannoc: 16 → Right Arm"
        )
    );
    let root = root().display().to_string();
    snapshot(
        "legend_duel_replayed_under_a_house_rule",
        report.replace(&root, "[root]"),
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn with_every_step_on_auto_no_one_is_asked_and_the_seeded_fight_is_played() {
    let dir = scratch("play-auto");
    let duel = duel();
    let recorded = affray(&dir, &["fight", &duel, "--seed", "1", "--record", "r.json"]);
    assert_eq!(
        recorded.status.code(),
        Some(0),
        "{}",
        text(&recorded.stderr)
    );
    let output = affray_with_input(
        &dir,
        &[
            "fight",
            &duel,
            "-i",
            "--seed",
            "1",
            "--state",
            "i.json",
            "--dial",
            "dice=auto",
            "--dial",
            "choices=auto",
        ],
        "",
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let transcript = text(&output.stdout);
    assert!(!transcript.contains("Enter for"), "{transcript}");
    // The status after every round.
    assert!(transcript.contains("status, round 1\n"));
    let (auto, seeded) = (record(&dir.join("i.json")), record(&dir.join("r.json")));
    assert_eq!(auto["finished"], true);
    assert_eq!(auto["inputs"], seeded["inputs"]);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn the_dial_is_set_per_combatant_and_changed_mid_fight() {
    let dir = scratch("play-dial");
    let duel = duel();
    // Initiative suggested (Enter takes affray's roll); Brannoc's choices on auto; at
    // the first attack roll the GM hands every die to affray; the rest is Enter.
    let mut input = String::from("\n\n\n");
    input.push_str("dial dice=auto\n");
    input.push_str(&"\n".repeat(200));
    let output = affray_with_input(
        &dir,
        &[
            "fight",
            &duel,
            "-i",
            "--state",
            "d.json",
            "--dial",
            "dice:initiative=suggest",
            "--dial",
            "Brannoc:choices=auto",
        ],
        &input,
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let transcript = text(&output.stdout);
    assert!(transcript.contains(
        "1D10 initiative for Brannoc — Enter for 9 (rolled by affray), or enter 1-10 (0 for 10):"
    ));
    assert!(transcript.contains("  dial: dice=auto\n"));
    // One die asked after the initiative (the attack, where the dial was turned and
    // which affray then rolled), none after it; no choice of Brannoc's asked.
    assert_eq!(
        transcript.matches("or r to roll:").count(),
        1,
        "{transcript}"
    );
    assert!(transcript.contains("  dial: dice=auto\n    1D100 attack for Ysolde → "));
    assert!(!transcript.contains("Brannoc's reaction —"));
    assert!(transcript.contains("Brannoc chooses reaction: parry (of parry, none; tactics)"));
    let saved = record(&dir.join("d.json"));
    assert_eq!(saved["finished"], true);
    assert_eq!(
        saved["dials"],
        serde_json::json!([
            "dice:initiative=suggest",
            "Brannoc:choices=auto",
            "dice=auto"
        ])
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_resume_against_a_changed_ruleset_is_refused_and_the_file_kept() {
    let dir = scratch("play-changed");
    let house = dir.join("house");
    copy_dir(&root().join("rulesets/legend"), &house);
    let duel = duel();
    let output = affray_with_input(
        &dir,
        &[
            "fight",
            &duel,
            "-i",
            "--ruleset",
            "house",
            "--state",
            "m.json",
        ],
        &answers(&[FIRST_ACTION, &["quit"]]),
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let saved = fs::read_to_string(dir.join("m.json")).unwrap();
    edit(
        &house.join("combat.toml"),
        r#"initiative = "1d10 + "#,
        r#"initiative = "1d12 + "#,
    );
    let output = affray_with_input(&dir, &["fight", "--resume", "m.json"], "");
    assert_eq!(output.status.code(), Some(1));
    let message = text(&output.stderr);
    assert!(
        message.contains("1D10 initiative for Brannoc → 9"),
        "{message}"
    );
    assert!(message.contains("1D12 initiative for Brannoc"), "{message}");
    assert_eq!(fs::read_to_string(dir.join("m.json")).unwrap(), saved);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn dice_are_typed_as_they_read_0_on_a_d10_and_00_on_percentile_dice() {
    let dir = scratch("play-zeros");
    // Brannoc's 1D10 initiative shows 0 (ten); Ysolde's shows 3; then at the first
    // percentile roll, 00 (a hundred).
    let duel = duel();
    let output = affray_with_input(
        &dir,
        &["fight", &duel, "--interactive", "--state", "zeros.json"],
        "0\n3\n\n\n\n00\nquit\n",
    );
    let transcript = text(&output.stdout);
    let _ = fs::remove_dir_all(&dir);
    assert!(transcript.contains("enter 1-10 (0 for 10)"), "{transcript}");
    assert!(
        transcript.contains("1D10 initiative for Brannoc → 10"),
        "{transcript}"
    );
    assert!(
        transcript.contains("enter 1-100 (00 for 100)"),
        "{transcript}"
    );
    assert!(transcript.contains("→ 100\n"), "{transcript}");
}

/// `undo` says which action it took back; the fight shown again after it (and after a
/// resume) starts with the last lines of its log; `status` lists the turns in the order
/// the log gives them (initiative, then the tie-break).
#[test]
fn undo_names_what_it_took_back_and_a_resume_shows_where_the_fight_stands() {
    let dir = scratch("play-undo-said");
    let transcript = play(
        &dir,
        "said.json",
        &answers(&[FIRST_ACTION, SECOND_ACTION, &["undo"]]),
    );
    let _ = fs::remove_dir_all(&dir);
    assert!(
        transcript.contains("(undone: Brannoc's action: defend (of attack, defend))"),
        "{transcript}"
    );
    let (before, shown) = transcript
        .split_once("(the log so far ends with:)\n")
        .expect("the last lines of the log before the fight goes on");
    // The last line of the log shown again is one the GM saw before the undo.
    let last = shown
        .lines()
        .take_while(|l| !l.starts_with("(replayed"))
        .last()
        .expect("a line of the log");
    assert!(
        before.contains(last),
        "`{last}` was not in the log:\n{transcript}"
    );
    // Each status's order is the order of the round the log announced last.
    // `Ysolde (20, 3 actions), Brannoc (18, 3 actions)` in the log, `Ysolde 20 (2 actions
    // left), Brannoc 18 (2 actions left)` in the status: the names, in order.
    let names = |list: &str| -> Vec<String> {
        list.split("), ")
            .map(|entry| {
                let head = entry.split(" (").next().unwrap_or_default();
                match head.rsplit_once(' ') {
                    Some((name, number)) if number.parse::<i64>().is_ok() => name.to_string(),
                    _ => head.to_string(),
                }
            })
            .collect()
    };
    let mut announced: Option<Vec<String>> = None;
    let mut compared = 0;
    for line in transcript.lines() {
        let Some(list) = line.trim_start().strip_prefix("order: ") else {
            continue;
        };
        if list.contains(" actions)") || list.contains(" action)") {
            announced = Some(names(list));
        } else if let Some(order) = &announced {
            assert_eq!(&names(list), order, "{line}");
            compared += 1;
        }
    }
    assert!(compared > 0, "no status order shown:\n{transcript}");
}

/// A weapon an impaling blow left in the wound is where the log says: the status lists
/// it as stuck in the foe, not merely dropped (seed 2: Brannoc's long sword stays in
/// Ysolde's head, and the round ends with it there).
#[test]
fn the_status_says_where_an_impaling_weapon_is() {
    let dir = scratch("play-stuck");
    let duel = duel();
    let output = affray_with_input(
        &dir,
        &[
            "fight",
            &duel,
            "-i",
            "--seed",
            "2",
            "--dial",
            "dice=auto",
            "--dial",
            "choices=auto",
            "--state",
            "stuck.json",
        ],
        "",
    );
    let _ = fs::remove_dir_all(&dir);
    let transcript = text(&output.stdout);
    assert!(
        transcript.contains("Long Sword stays in Ysolde's head"),
        "{transcript}"
    );
    assert!(
        transcript.contains("dropped: Long Sword (12 HP, stuck in Ysolde)"),
        "{transcript}"
    );
}

/// A state file saved after the first action, then edited by `tamper`: the resume is
/// refused with a message (exit 1, no panic) and the file kept as it was.
fn resume_tampered(case: &str, tamper: impl Fn(&mut serde_json::Value)) -> String {
    let dir = scratch(case);
    let duel = duel();
    let output = affray_with_input(
        &dir,
        &["fight", &duel, "-i", "--state", "t.json"],
        &answers(&[FIRST_ACTION, &["quit"]]),
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let mut state = record(&dir.join("t.json"));
    tamper(&mut state);
    let edited = serde_json::to_string_pretty(&state).unwrap();
    fs::write(dir.join("t.json"), &edited).unwrap();
    let output = affray_with_input(&dir, &["fight", "--resume", "t.json"], "");
    let message = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{message}");
    assert!(!message.contains("panicked"), "{message}");
    assert_eq!(fs::read_to_string(dir.join("t.json")).unwrap(), edited);
    let _ = fs::remove_dir_all(&dir);
    message
}

#[test]
fn a_state_file_whose_turns_end_past_its_inputs_is_refused() {
    let message = resume_tampered("play-resolved", |state| {
        state["resolved"] = serde_json::json!([1000]);
    });
    assert!(
        message.contains("is not a consistent affray state file")
            && message.contains("a turn ended after input 1000"),
        "{message}"
    );
}

#[test]
fn a_recorded_choice_that_is_not_among_its_options_is_refused() {
    let message = resume_tampered("play-choice", |state| {
        let inputs = state["inputs"].as_array_mut().unwrap();
        let choice = inputs.iter_mut().find(|i| i["input"] == "choice").unwrap();
        choice["chosen"] = "fly_away".into();
    });
    assert!(
        message.contains("fly_away") && message.contains("but the fight now asks for"),
        "{message}"
    );
}

#[test]
fn a_recorded_die_that_its_die_cannot_show_is_refused() {
    let message = resume_tampered("play-die", |state| {
        state["inputs"][0]["value"] = 11.into();
    });
    assert!(
        message.contains("1D10 initiative for Brannoc → 11")
            && message.contains("but the fight now asks for"),
        "{message}"
    );
}
