//! Legend's worked example, "Alaric's Tale – The Goblin Fight", replayed from the dice
//! and choices the text prints (tests/fixtures/replays/), asserting the book's outcomes
//! for the first Combat Round: who acts when, where each blow lands, for how much, the
//! wounds, and what becomes of each goblin. The text "picks up after Initiative and
//! Combat Actions have been determined": the scenario starts each combatant at the Strike
//! Rank the text gives (`initiative = 20`), so that the replay rolls no initiative die the
//! text does not print.
//!
//! The second round turns on spells (Bladesharp, Dragon Breath) and a charge declared
//! at the start of a round, which the ruleset does not simulate; the replay stops after
//! the first round. In the first round the text lets Alaric pin a weapon with an
//! ordinary parry, where its own table makes Pin Weapon critical-only: the replay runs on
//! a copy of the ruleset with that restriction lifted, as the example plays it.

mod common;

use common::{copy_dir, root};

use std::fs;
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;

/// rulesets/legend, with Pin Weapon open to any win and a one-round limit.
fn ruleset_as_the_example_plays_it() -> PathBuf {
    // One copy per call: the tests of this file run in parallel.
    static COPIES: AtomicUsize = AtomicUsize::new(0);
    let copy = COPIES.fetch_add(1, Ordering::SeqCst);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("affray-goblin-fight-{}-{copy}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    copy_dir(&root().join("rulesets/legend"), &dir);
    let manoeuvres = dir.join("tables/manoeuvres.tables");
    let text = fs::read_to_string(&manoeuvres).unwrap();
    let pin = text
        .find("pin_weapon \"Pin Weapon\"")
        .expect("Pin Weapon is in the table");
    let restriction = pin + text[pin..].find("defensive requires critical").unwrap();
    let text = format!(
        "{}defensive{}",
        &text[..restriction],
        &text[restriction + "defensive requires critical".len()..]
    );
    fs::write(&manoeuvres, text).unwrap();
    let settings = dir.join("ruleset.toml");
    let text = fs::read_to_string(&settings).unwrap();
    assert!(text.contains("max_rounds = 50"));
    fs::write(&settings, text.replace("max_rounds = 50", "max_rounds = 1")).unwrap();
    dir
}

fn replay(json: bool) -> String {
    let ruleset = ruleset_as_the_example_plays_it();
    let mut args = vec![
        "fight".to_string(),
        "tests/fixtures/replays/goblin_fight.toml".into(),
        "--dice".into(),
        "tests/fixtures/replays/goblin_fight.dice".into(),
        "--ruleset".into(),
        ruleset.to_string_lossy().into_owned(),
    ];
    if json {
        args.push("--json".into());
    }
    let output = Command::new(env!("CARGO_BIN_EXE_affray"))
        .args(&args)
        .current_dir(root())
        .output()
        .unwrap();
    let _ = fs::remove_dir_all(&ruleset);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    String::from_utf8(output.stdout).unwrap()
}

fn events() -> Vec<Value> {
    replay(true)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

fn of_kind<'e>(events: &'e [Value], kind: &str) -> Vec<&'e Value> {
    events.iter().filter(|e| e["event"] == kind).collect()
}

#[test]
fn the_order_of_action_is_the_books() {
    let events = events();
    let order = of_kind(&events, "turn_order");
    let first: Vec<(String, i64, i64)> = order[0]["order"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["who"].as_str().unwrap().to_string(),
                e["initiative"].as_i64().unwrap(),
                e["actions"].as_i64().unwrap(),
            )
        })
        .collect();
    // "Strike Rank 20 Lilana, Strike Rank 19 Alaric, Strike Rank 14 Goblins (three of
    // them), Strike Rank 11 Thrace"; Combat Actions: "bringing her total to 3", "his CA
    // total to 4", the goblins' "CA total to 3", Thrace's "remains at 2".
    assert_eq!(
        first,
        [
            ("Lilina".to_string(), 20, 3),
            ("Alaric".into(), 19, 4),
            ("Goblin 1".into(), 14, 3),
            ("Goblin 2".into(), 14, 3),
            ("Goblin 3".into(), 14, 3),
            ("Thrace".into(), 11, 2)
        ]
    );
    // The initiatives are the scenario's: no die is rolled for them.
    assert!(
        !events.iter().any(|e| e["event"] == "roll"
            && e["purpose"]
                .as_str()
                .is_some_and(|p| p.contains("initiative"))),
        "an initiative die was rolled"
    );
}

#[test]
fn every_blow_lands_where_and_for_what_the_book_says() {
    let events = events();
    let damage: Vec<(String, String, i64, i64)> = of_kind(&events, "damage")
        .iter()
        .map(|e| {
            (
                e["who"].as_str().unwrap().to_string(),
                e["location"].as_str().unwrap().to_string(),
                e["amount"].as_i64().unwrap(),
                e["hit_points"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        damage,
        [
            // "She therefore takes 4 points of damage to her right arm ... her right arm
            // HP are now –1"; the yank: "a further 1D6 damage ... 1, taking Lilina's right
            // arm down to –2 HP".
            ("Lilina".to_string(), "right_arm".to_string(), 4, -1),
            ("Lilina".into(), "right_arm".into(), 1, -2),
            // Thrace: "a total of 13 damage. The Hit Location he rolls is 11 – Chest."
            ("Goblin 1".into(), "chest".into(), 13, -7),
            // Alaric: "the goblin is reduced to –3 HP: a Serious Wound".
            ("Goblin 2".into(), "abdomen".into(), 8, -3),
            // "taking 2 HP damage to his shield arm from the goblin's claws"
            ("Alaric".into(), "left_arm".into(), 2, 2),
        ]
    );
}

#[test]
fn wounds_and_fates_are_the_books() {
    let events = events();
    let conditions: Vec<(String, String)> = of_kind(&events, "condition_set")
        .iter()
        .map(|e| {
            (
                e["who"].as_str().unwrap().to_string(),
                e["condition"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let has =
        |who: &str, condition: &str| conditions.contains(&(who.to_string(), condition.to_string()));
    // Lilina: Serious Wound, fails Resilience: the arm is useless.
    assert!(has("Lilina", "cannot_attack") && has("Lilina", "useless_limb"));
    // Goblin 2: pinned by Alaric's shield; impaled by his spear, unconscious.
    assert!(
        has("Goblin 2", "pinned_weapon")
            && has("Goblin 2", "impaled")
            && has("Goblin 2", "unconscious")
    );
    // Goblin 1: "dies instantly" of a Major Wound to the chest.
    assert!(has("Goblin 1", "dead"));
    assert!(!has("Goblin 3", "dead") && !has("Alaric", "prone"));

    let notes: Vec<&str> = of_kind(&events, "note")
        .iter()
        .map(|e| e["text"].as_str().unwrap())
        .collect();
    for dropped in [
        "Lilina drops the Long Sword",    // "drops her long sword from pain"
        "Goblin 3 drops the Short Sword", // fumble 4: "the goblin's sword slips from its grasp"
        "Short Spear stays in Goblin 2's abdomen", // "Alaric's spear is still rammed into the mean goblin"
        "Alaric drops the Heater Shield",          // "his shield is ripped out of his grasp"
        "Alaric resists",                          // the Trip: "easily wins the Opposed Test"
    ] {
        assert!(notes.contains(&dropped), "missing: {dropped}\n{notes:#?}");
    }
    let end = of_kind(&events, "fight_ended");
    assert_eq!(
        end[0]["standing"],
        serde_json::json!(["Alaric", "Lilina", "Thrace", "Goblin 3"])
    );
}

#[test]
fn each_wound_is_a_typed_event_with_the_books_level_and_location() {
    let events = events();
    let wounds: Vec<(&str, &str, &str)> = of_kind(&events, "wound")
        .iter()
        .map(|e| {
            (
                e["who"].as_str().unwrap(),
                e["location"].as_str().unwrap(),
                e["level"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        wounds,
        [
            // "her right arm HP are now –1": a Serious Wound, judged after the yank.
            ("Lilina", "right_arm", "serious"),
            // Goblin 1 "dies instantly" of a Major Wound to the chest.
            ("Goblin 1", "chest", "major"),
            // "the goblin is reduced to –3 HP: a Serious Wound".
            ("Goblin 2", "abdomen", "serious"),
            // Alaric's shield arm keeps 2 of its hit points: a Minor Wound.
            ("Alaric", "left_arm", "minor"),
        ]
    );
}

#[test]
fn the_replayed_log_is_a_snapshot() {
    insta::with_settings!({ snapshot_path => "../snapshots/legend", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!("goblin_fight_round_1_replay", replay(false));
    });
}
