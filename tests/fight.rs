//! `affray fight`: the structurally different fixture ruleset fights through the engine
//! with no Rust written for it; logs are deterministic; failures are diagnostics.

mod common;

use common::{affray, copy_dir, root, scratch, text};

use std::fs;
use std::path::PathBuf;

const SKIRMISH: &str = "tests/fixtures/d20_skirmish/scenarios/skirmish.toml";

fn snapshot(name: &str, value: String) {
    insta::with_settings!({ snapshot_path => "../snapshots/fights", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!(name, value);
    });
}

#[test]
fn the_fixture_ruleset_fights_to_an_outcome_byte_for_byte_the_same() {
    let first = affray(root(), &["fight", SKIRMISH, "--seed", "1"]);
    let second = affray(root(), &["fight", SKIRMISH, "--seed", "1"]);
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    assert_eq!(first.stdout, second.stdout);
    snapshot("d20_skirmish_seed_1", text(&first.stdout));
}

#[test]
fn json_output_is_one_event_per_line_ending_the_fight() {
    let output = affray(root(), &["fight", SKIRMISH, "--seed", "2", "--json"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let events: Vec<serde_json::Value> = text(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("each line is one JSON object"))
        .collect();
    assert_eq!(events.first().unwrap()["event"], "fight_started");
    assert_eq!(events.last().unwrap()["event"], "fight_ended");
    assert!(events.iter().all(|e| e.is_object()));
}

#[test]
fn given_dice_are_replayed_and_running_out_is_reported() {
    let dir = scratch("dice");
    // Initiative 10, 10, 10, 10; Kara hits Raider 1 with a 15 and rolls 6 damage; then
    // the file ends while Raider 1 attacks.
    fs::write(dir.join("dice.txt"), "# initiative\n10 10 10 10\n15 6\n").unwrap();
    let scenario = root().join(SKIRMISH);
    let output = affray(
        &dir,
        &["fight", scenario.to_str().unwrap(), "--dice", "dice.txt"],
    );
    let _ = fs::remove_dir_all(&dir);
    assert_eq!(output.status.code(), Some(1));
    let stdout = text(&output.stdout);
    assert!(stdout.contains("Raider 1 takes 7, 5 HP left"), "{stdout}");
    snapshot("given_dice_run_out", text(&output.stderr));
}

/// Fight the skirmish in `dir` (a copy of the fixture, or the fixture itself) with the
/// given dice; the log and the error.
fn skirmish_with_dice(
    dir: &std::path::Path,
    ruleset: &std::path::Path,
    dice: &str,
) -> (String, String) {
    fs::write(dir.join("dice.txt"), dice).unwrap();
    let scenario = ruleset.join("scenarios/skirmish.toml");
    let output = affray(
        dir,
        &["fight", scenario.to_str().unwrap(), "--dice", "dice.txt"],
    );
    (text(&output.stdout), text(&output.stderr))
}

#[test]
fn the_fixture_fights_by_its_combat_toml_with_given_dice() {
    let dir = scratch("combat-toml");
    // Initiative 10 each: Kara 13, Raider 1 11, Raider 2 11, Dunmore 10. Kara rolls a
    // natural 20 (a critical: the weapon's 1D6 twice, 3 and 4, plus her bonus of 1);
    // Raider 1 rolls a natural 1 (a fumble: the fumble table's 4 is Off Balance).
    let fixture = root().join("tests/fixtures/d20_skirmish");
    let (log, error) = skirmish_with_dice(&dir, &fixture, "10 10 10 10\n20 3 4\n1 4\n");
    let _ = fs::remove_dir_all(&dir);
    assert!(
        log.contains("Kara: attack against defence 12, rolled 25: critical"),
        "{log}"
    );
    assert!(log.contains("Raider 1 takes 8, 4 HP left"), "{log}");
    assert!(
        log.contains("Raider 1: attack against defence 15, rolled 4: fumble"),
        "{log}"
    );
    assert!(
        log.contains("fumble for Raider 1: 4 → Off Balance"),
        "{log}"
    );
    assert!(log.contains("Raider 1: off balance for 1 round"), "{log}");
    assert!(
        error.contains("attack against defence for Raider 2 needs a 1D20"),
        "{error}"
    );
}

#[test]
fn a_house_rule_in_combat_toml_changes_the_fight() {
    let dir = scratch("combat-house-rule");
    copy_dir(
        &root().join("tests/fixtures/d20_skirmish"),
        &dir.join("d20_skirmish"),
    );
    // The house rule: a natural 19 is a critical too.
    common::edit(
        &dir.join("d20_skirmish/combat.toml"),
        "[\"critical\", \"roll == 20\"]",
        "[\"critical\", \"roll >= 19\"]",
    );
    let ruleset = dir.join("d20_skirmish");
    let (log, _) = skirmish_with_dice(&dir, &ruleset, "10 10 10 10\n19 3 4\n");
    let _ = fs::remove_dir_all(&dir);
    assert!(
        log.contains("Kara: attack against defence 12, rolled 24: critical"),
        "{log}"
    );
    assert!(log.contains("Raider 1 takes 8, 4 HP left"), "{log}");
}

#[test]
fn an_impossible_given_value_is_refused() {
    let dir = scratch("impossible");
    fs::write(dir.join("dice.txt"), "10 10 10 21\n").unwrap();
    let scenario = root().join(SKIRMISH);
    let output = affray(
        &dir,
        &["fight", scenario.to_str().unwrap(), "--dice", "dice.txt"],
    );
    let _ = fs::remove_dir_all(&dir);
    assert_eq!(output.status.code(), Some(1));
    snapshot("given_dice_impossible", text(&output.stderr));
}

/// A copy of the fixture in a scratch folder whose blows that hit also run `body` in a
/// script function (`scripts/wounds.rhai`, `fn hit(ctx)`, with `fight` and `target` set),
/// through an `after` rule of combat.toml.
fn skirmish_with_a_script(case: &str, body: &str) -> PathBuf {
    let dir = scratch(case);
    copy_dir(
        &root().join("tests/fixtures/d20_skirmish"),
        &dir.join("d20_skirmish"),
    );
    let combat = dir.join("d20_skirmish/combat.toml");
    let mut text = fs::read_to_string(&combat).unwrap();
    text.push_str(
        "\n[[exchanges.strike.after]]\nif = 'attack.level == \"hit\" or attack.level == \"critical\"'\nto = \"defender\"\ndo = \"script wounds::hit\"\n",
    );
    fs::write(&combat, text).unwrap();
    fs::write(
        dir.join("d20_skirmish/scripts/wounds.rhai"),
        format!("fn hit(ctx) {{\n    let fight = ctx.fight;\n    let target = ctx.who;\n    {body}\n}}\n"),
    )
    .unwrap();
    dir
}

#[test]
fn a_script_error_stops_the_fight_with_file_line_and_hook() {
    let dir = skirmish_with_a_script("script", "fight.damage(target, \"torso\", 1);");
    let output = affray(
        &dir,
        &[
            "fight",
            "d20_skirmish/scenarios/skirmish.toml",
            "--seed",
            "1",
        ],
    );
    let _ = fs::remove_dir_all(&dir);
    assert_eq!(output.status.code(), Some(1));
    let stderr = text(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    snapshot("script_error_in_act", stderr);
}

/// The fixture skirmish with `call` after each blow that hits, fought with seed 1.
fn skirmish_with_a_wound(case: &str, call: &str, json: bool) -> std::process::Output {
    let dir = skirmish_with_a_script(case, call);
    let mut args = vec![
        "fight",
        "d20_skirmish/scenarios/skirmish.toml",
        "--seed",
        "1",
    ];
    if json {
        args.push("--json");
    }
    let output = affray(&dir, &args);
    let _ = fs::remove_dir_all(&dir);
    output
}

#[test]
fn a_wound_is_typed_data_with_or_without_a_location() {
    let output = skirmish_with_a_wound(
        "wound",
        "fight.wound(target, \"grazed\"); fight.wound(target, \"total\", \"grazed\");",
        true,
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let wounds: Vec<serde_json::Value> = text(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
        .filter(|event| event["event"] == "wound")
        .collect();
    assert!(wounds.len() >= 2, "a hit or more in the fight");
    // To the whole combatant: no `location` key at all; at a location: the location.
    assert_eq!(wounds[0].as_object().unwrap().len(), 3, "{}", wounds[0]);
    assert_eq!(wounds[0]["level"], "grazed");
    assert_eq!(wounds[1]["location"], "total");
    assert_eq!(wounds[1]["who"], wounds[0]["who"]);

    let output = skirmish_with_a_wound(
        "wound-text",
        "fight.wound(target, \"grazed\"); fight.wound(target, \"total\", \"grazed\");",
        false,
    );
    let log = text(&output.stdout);
    assert!(log.contains(": grazed (wound level)\n"), "{log}");
    assert!(log.contains(": grazed wound to total\n"), "{log}");
}

#[test]
fn a_wound_at_a_location_the_combatant_lacks_stops_the_fight() {
    let output = skirmish_with_a_wound(
        "wound-bad",
        "fight.wound(target, \"torso\", \"grazed\");",
        false,
    );
    assert_eq!(output.status.code(), Some(1));
    let stderr = text(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stderr.contains("has no location `torso`"), "{stderr}");
    assert!(stderr.contains("wounds.rhai"), "{stderr}");
}

#[test]
fn a_ruleset_that_says_no_turn_says_it_cannot_fight() {
    let dir = scratch("hooks");
    copy_dir(
        &root().join("tests/fixtures/d20_skirmish"),
        &dir.join("d20_skirmish"),
    );
    // No [turn] initiative in combat.toml and no `initiative` hook.
    common::edit(
        &dir.join("d20_skirmish/combat.toml"),
        "initiative = \"1d20 + (self.DEX - 10) / 2\"\n",
        "",
    );
    let output = affray(&dir, &["fight", "d20_skirmish/scenarios/skirmish.toml"]);
    let _ = fs::remove_dir_all(&dir);
    assert_eq!(output.status.code(), Some(1));
    snapshot("missing_hook", text(&output.stderr));
}

/// Every shipped scenario of every ruleset that can fight: an outcome with --seed 1,
/// twice byte-identical, and its log as a snapshot.
#[test]
fn every_shipped_scenario_fights_to_an_outcome() {
    let mut scenarios: Vec<PathBuf> = Vec::new();
    for ruleset in common::SHIPPED {
        let folder = root().join("rulesets").join(ruleset).join("scenarios");
        let entries = fs::read_dir(&folder).expect("a shipped ruleset has scenarios");
        scenarios.extend(
            entries
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "toml")),
        );
    }
    scenarios.sort();
    assert!(scenarios.len() >= 5);
    for path in scenarios {
        let relative = path
            .strip_prefix(root())
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let first = affray(root(), &["fight", &relative, "--seed", "1"]);
        let second = affray(root(), &["fight", &relative, "--seed", "1"]);
        assert_eq!(
            first.status.code(),
            Some(0),
            "{relative}: {}",
            text(&first.stderr)
        );
        assert_eq!(
            first.stdout, second.stdout,
            "{relative} is not deterministic"
        );
        let log = text(&first.stdout);
        assert!(
            log.lines()
                .last()
                .is_some_and(|l| l.starts_with("Won by ") || l.starts_with("No winner")),
            "{relative}"
        );
        let name = relative
            .trim_start_matches("rulesets/")
            .replace("/scenarios/", "__")
            .replace(".toml", "");
        snapshot(&format!("{name}_seed_1"), log);
    }
}

/// A target choice of a fixture fight, with every combatant's hit points when it was made.
struct TargetChoice {
    who: String,
    options: Vec<String>,
    chosen: String,
    by: String,
    hit_points: std::collections::HashMap<String, i64>,
    line: String,
}

/// Fight the copied fixture in `dir` with `seed`; every target choice in order.
fn target_choices(dir: &std::path::Path, seed: &str) -> Vec<TargetChoice> {
    let output = affray(
        dir,
        &[
            "fight",
            "d20_skirmish/scenarios/skirmish.toml",
            "--seed",
            seed,
            "--json",
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let mut hit_points: std::collections::HashMap<String, i64> = [
        ("Kara", 14),
        ("Dunmore", 20),
        ("Raider 1", 12),
        ("Raider 2", 12),
    ]
    .map(|(name, hp)| (name.to_string(), hp))
    .into();
    let mut choices = Vec::new();
    for line in text(&output.stdout).lines() {
        let event: serde_json::Value = serde_json::from_str(line).unwrap();
        let field = |name: &str| event[name].as_str().unwrap_or_default().to_string();
        if event["event"] == "damage" {
            hit_points.insert(field("who"), event["hit_points"].as_i64().unwrap());
        }
        if event["event"] == "choice" && event["decision"] == "target" {
            choices.push(TargetChoice {
                who: field("who"),
                options: event["options"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|o| o.as_str().unwrap().to_string())
                    .collect(),
                chosen: field("chosen"),
                by: field("by"),
                hit_points: hit_points.clone(),
                line: line.to_string(),
            });
        }
    }
    choices
}

/// The first option with the most (or the fewest) hit points.
fn first_of_extreme(choice: &TargetChoice, most: bool) -> &str {
    let values: Vec<i64> = choice
        .options
        .iter()
        .map(|o| choice.hit_points[o])
        .collect();
    let extreme = if most {
        values.iter().max()
    } else {
        values.iter().min()
    }
    .unwrap();
    &choice.options[values.iter().position(|v| v == extreme).unwrap()]
}

/// tactics.toml decides from the top: a rule with a guard, then the highest scorer; a
/// rule naming an option that is not offered is passed over, never chosen.
#[test]
fn a_house_ruled_tactics_list_decides_among_the_offered_options() {
    let dir = scratch("tactics");
    copy_dir(
        &root().join("tests/fixtures/d20_skirmish"),
        &dir.join("d20_skirmish"),
    );
    fs::write(
        dir.join("d20_skirmish/tactics.toml"),
        "[[target]]\nchoose = \"Raider 2\"\nif = \"other.hit_points > 6\"\n\n\
         [[target]]\nchoose = \"Nobody\"\n\n\
         [[target]]\nhighest = \"other.hit_points\"\n",
    )
    .unwrap();
    let mut targets = 0;
    for seed in ["1", "2", "3"] {
        for choice in target_choices(&dir, seed) {
            targets += 1;
            let raider_2 = choice.options.iter().any(|o| o == "Raider 2");
            let expected = if raider_2 && choice.hit_points["Raider 2"] > 6 {
                "Raider 2"
            } else {
                first_of_extreme(&choice, true)
            };
            assert_eq!(choice.chosen, expected, "seed {seed}: {}", choice.line);
            let by = if choice.options.len() > 1 {
                "tactics"
            } else {
                "only option"
            };
            assert_eq!(choice.by, by);
        }
    }
    assert!(targets > 10, "only {targets} target choices");
}

/// A rule `script = true` hands the decision to the tactics script where its `if` holds
/// (read once, with no option considered); elsewhere the rules after it decide.
#[test]
fn a_tactics_rule_may_leave_the_decision_to_the_tactics_script() {
    let dir = scratch("tactics-script");
    copy_dir(
        &root().join("tests/fixtures/d20_skirmish"),
        &dir.join("d20_skirmish"),
    );
    let ruleset = dir.join("d20_skirmish/ruleset.toml");
    let written = fs::read_to_string(&ruleset).unwrap();
    fs::write(&ruleset, format!("tactics = \"tactics\"\n{written}")).unwrap();
    fs::write(
        dir.join("d20_skirmish/scripts/tactics.rhai"),
        "fn choose_target(fight, who, options) {\n    options[options.len() - 1]\n}\n",
    )
    .unwrap();
    fs::write(
        dir.join("d20_skirmish/tactics.toml"),
        "[[target]]\nscript = true\nif = \"self.STR >= 13\"\n\n\
         [[target]]\nlowest = \"other.hit_points\"\n",
    )
    .unwrap();
    let mut by_script = 0;
    let mut by_list = 0;
    for seed in ["1", "2", "3"] {
        for choice in target_choices(&dir, seed) {
            if choice.options.len() < 2 {
                continue;
            }
            // Kara (STR 12) by the list; Dunmore and the raiders (STR 13 or more) by
            // the script, which takes the last option.
            let expected = if choice.who == "Kara" {
                by_list += 1;
                first_of_extreme(&choice, false)
            } else {
                by_script += 1;
                choice.options.last().unwrap()
            };
            assert_eq!(choice.chosen, expected, "seed {seed}: {}", choice.line);
            assert_eq!(choice.by, "tactics");
        }
    }
    assert!(
        by_script > 2 && by_list > 2,
        "by the script {by_script}, by the list {by_list}"
    );
}

/// A scenario gives one side a tactics style (`tactics/<style>.toml`): that side decides
/// by the style's lists, the other by the ruleset's own.
#[test]
fn a_side_decides_by_the_tactics_style_its_scenario_gives_it() {
    let dir = scratch("tactics-style");
    copy_dir(
        &root().join("tests/fixtures/d20_skirmish"),
        &dir.join("d20_skirmish"),
    );
    fs::create_dir_all(dir.join("d20_skirmish/tactics")).unwrap();
    fs::write(
        dir.join("d20_skirmish/tactics/brute.toml"),
        "# Go for the strongest.\n[[target]]\nhighest = \"other.hit_points\"\n",
    )
    .unwrap();
    let scenario = dir.join("d20_skirmish/scenarios/skirmish.toml");
    let written = fs::read_to_string(&scenario).unwrap();
    let styled = written.replacen(
        "title = \"Two against two\"",
        "title = \"Two against two\"\ntactics = { raiders = \"brute\" }",
        1,
    );
    assert_ne!(written, styled);
    fs::write(&scenario, styled).unwrap();

    let mut by_side = [0, 0];
    for choice in target_choices(&dir, "4") {
        // Raiders take the first of the most hit points; wardens the first of the fewest.
        let raider = choice.who.starts_with("Raider");
        assert_eq!(
            choice.chosen,
            first_of_extreme(&choice, raider),
            "{}",
            choice.line
        );
        by_side[usize::from(raider)] += 1;
    }
    assert!(
        by_side[0] > 2 && by_side[1] > 2,
        "target choices by side: {by_side:?}"
    );
}

/// A byte-order mark at the start of a file (some editors on Windows write one) is not
/// part of the text: a ruleset whose files start with one checks clean and fights the
/// same fight, and a given-dice file may start with one.
#[test]
fn files_that_start_with_a_byte_order_mark_are_read_as_without_it() {
    let dir = scratch("byte-order-mark");
    let copy = dir.join("legend");
    copy_dir(&root().join("rulesets/legend"), &copy);
    for file in [
        "ruleset.toml",
        "combat.toml",
        "tables/fumbles.tables",
        "scripts/combat.rhai",
        "scenarios/sword_and_shield_duel.toml",
    ] {
        let path = copy.join(file);
        let text = fs::read_to_string(&path).unwrap();
        fs::write(&path, format!("\u{feff}{text}")).unwrap();
    }
    let check = affray(&dir, &["check", "legend"]);
    assert_eq!(check.status.code(), Some(0), "{}", text(&check.stderr));
    let duel = "legend/scenarios/sword_and_shield_duel.toml";
    let with_mark = affray(&dir, &["fight", duel, "--seed", "4"]);
    let original = affray(
        root(),
        &[
            "fight",
            "rulesets/legend/scenarios/sword_and_shield_duel.toml",
            "--seed",
            "4",
        ],
    );
    assert_eq!(text(&with_mark.stdout), text(&original.stdout));
    fs::write(dir.join("dice.txt"), "\u{feff}9 8\n").unwrap();
    let given = affray(&dir, &["fight", duel, "--dice", "dice.txt"]);
    let stderr = text(&given.stderr);
    assert!(
        stderr.contains("ran out at roll 3"),
        "the two dice are read: {stderr}"
    );
    assert!(
        text(&given.stdout).contains("initiative Brannoc: "),
        "{}",
        text(&given.stdout)
    );
    let _ = fs::remove_dir_all(&dir);
}

/// Every fight ends: a scenario whose combatants have a million Combat Actions a round
/// and a billion hit points a location stops at `[limits] turns` (default 10,000) with a
/// message naming the limit, and a log that grows past `[limits] events` stops there.
#[test]
fn a_runaway_fight_stops_at_its_limits_with_a_message() {
    let dir = scratch("fight-limits");
    let copy = dir.join("legend");
    copy_dir(&root().join("rulesets/legend"), &copy);
    let duel = copy.join("scenarios/sword_and_shield_duel.toml");
    let mut scenario = fs::read_to_string(&duel).unwrap();
    scenario = scenario.replace("combat_actions = 2", "combat_actions = 1000000");
    for location in [
        "right_leg",
        "left_leg",
        "abdomen",
        "chest",
        "right_arm",
        "left_arm",
        "head",
    ] {
        for points in 4..=8 {
            scenario = scenario.replace(
                &format!("{location} = {points}"),
                &format!("{location} = 1000000000"),
            );
        }
    }
    fs::write(copy.join("scenarios/endless.toml"), scenario).unwrap();
    let endless = "legend/scenarios/endless.toml";

    let output = affray(&dir, &["fight", endless, "--seed", "1"]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("affray::fight::limit")
            && stderr.contains("it reached its limit of 10000 turns")
            && stderr.contains("raise `turns` under [limits]"),
        "{stderr}"
    );

    let settings = copy.join("ruleset.toml");
    let text_of = fs::read_to_string(&settings).unwrap();
    fs::write(&settings, format!("{text_of}\n[limits]\nevents = 40\n")).unwrap();
    let output = affray(&dir, &["fight", endless, "--seed", "1"]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("it reached its limit of 40 events in its log"),
        "{stderr}"
    );
    // The fight so far is printed: the first 40 events.
    assert!(
        text(&output.stdout).contains("Round 1"),
        "{}",
        text(&output.stdout)
    );

    fs::write(&settings, format!("{text_of}\n[limits]\nturn = 5\n")).unwrap();
    let output = affray(&dir, &["check", "legend"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stderr).contains("did you mean `turns`? The keys here: turns, events"),
        "{}",
        text(&output.stderr)
    );
    let _ = fs::remove_dir_all(&dir);
}
