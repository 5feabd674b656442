//! The Classic Fantasy Imperative ruleset: it checks clean; given dice walk through every
//! cell of the Differential Roll table (how many Special Effects each side wins) and
//! through every Difficulty Grade on several skill values (the modified skill, the
//! critical and the fumble range).

mod common;

use common::{affray, fight_with_dice, root, ruleset_path, text};

#[test]
fn classic_fantasy_checks_clean() {
    let output = affray(root(), &["check", "rulesets/classic-fantasy"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains("18 tables (11 lookup, 1 roll, 3 modifiers, 1 effects, 2 matrix)"),
        "{stdout}"
    );
    assert!(stdout.contains("6 scenarios"), "{stdout}");
}

/// Aelric (Combat Skill `attacker_skill`, acting first) attacks Berin (55%, three Action
/// Points: he parries even a miss) with a longsword; Berin parries with a heater shield.
/// `extra` goes into Aelric's statistics. The dice are given; the fight stops when they
/// run out, after the part of the exchange a test looks at.
fn fight(case: &str, attacker_skill: i64, extra: &str, dice: &str) -> String {
    let scenario = format!(
        r#"ruleset = "{ruleset}"
title = "One exchange"

[[combatants]]
name = "Aelric"
side = "a"
characteristics = {{ STR = 12, CON = 12, SIZ = 12, DEX = 12, INT = 12, POW = 12, CHA = 12 }}
skills = {{ knight = {attacker_skill} }}
weapons = ["longsword"]
statistics = {{ combat_style = "knight", initiative_bonus = 30, action_points = 2{extra} }}

[[combatants]]
name = "Berin"
side = "b"
characteristics = {{ STR = 12, CON = 12, SIZ = 12, DEX = 12, INT = 12, POW = 12, CHA = 12 }}
skills = {{ knight = 55 }}
weapons = ["broadsword", "heater"]
statistics = {{ combat_style = "knight", initiative_bonus = 0, action_points = 3 }}
engaged = ["Aelric"]
"#,
        ruleset = ruleset_path("classic-fantasy"),
    );
    fight_with_dice(&format!("cf-{case}"), &scenario, dice)
}

/// A roll of each level against a skill of 55: a critical is 6 or less, 99-00 fumbles.
fn roll_for(level: &str) -> u32 {
    match level {
        "critical" => 3,
        "success" => 30,
        "failure" => 70,
        _ => 99,
    }
}

#[test]
fn every_cell_of_the_differential_roll_gives_the_winner_its_special_effects() {
    let levels = ["critical", "success", "failure", "fumble"];
    for (a, attack) in levels.iter().enumerate() {
        for (d, parry) in levels.iter().enumerate() {
            // The matrix: the better roll wins one Special Effect per level of difference.
            let (attacker_wins, defender_wins) = if a < d { (d - a, 0) } else { (0, a - d) };
            let dice = format!("5 5\n{} {}\n", roll_for(attack), roll_for(parry));
            let log = fight(&format!("{attack}-{parry}"), 55, "", &dice);
            assert!(
                log.contains(&format!(
                    "Aelric: knight 55, rolled {}: {attack}",
                    roll_for(attack)
                )),
                "{attack}/{parry}:\n{log}"
            );
            assert!(
                log.contains(&format!(
                    "Berin: knight 55, rolled {}: {parry}",
                    roll_for(parry)
                )),
                "{attack}/{parry}:\n{log}"
            );
            let chosen = |who: &str| {
                log.matches(&format!("{who} chooses special effect"))
                    .count()
            };
            assert_eq!(chosen("Aelric"), attacker_wins, "{attack}/{parry}:\n{log}");
            assert_eq!(chosen("Berin"), defender_wins, "{attack}/{parry}:\n{log}");
        }
    }
}

#[test]
fn a_parry_of_equal_size_deflects_everything_and_a_critical_hit_may_circumvent_it() {
    // Longsword (Large) against a heater shield (Large): all deflected. Dice: initiative,
    // attack 30 (success), parry 30 (success), damage 8, location 10 (chest).
    let log = fight("equal-size", 55, "", "5 5\n30 30\n8 10\n");
    assert!(
        log.contains("Heater Shield deflects all of the damage: 0 left"),
        "{log}"
    );
    // Attack 3 (critical) against parry 30 (success): one Special Effect, and the tactics
    // take Circumvent Parry; 8 damage lands on the chest.
    let log = fight("circumvent", 55, "", "5 5\n3 30\n8 10\n");
    assert!(log.contains("Aelric circumvents the parry"), "{log}");
    assert!(log.contains("Berin takes 8 to chest"), "{log}");
}

/// The attack line Aelric's roll prints at a Difficulty Grade set by the Games Master.
fn graded_attack(skill: i64, grade: &str, roll: u32) -> String {
    let extra = format!(r#", difficulty = "{grade}""#);
    let log = fight(
        &format!("{grade}-{skill}-{roll}"),
        skill,
        &extra,
        &format!("5 5\n{roll} 70\n"),
    );
    log.lines()
        .find(|line| line.trim_start().starts_with("Aelric: knight"))
        .unwrap_or_else(|| panic!("no attack line:\n{log}"))
        .trim()
        .to_string()
}

#[test]
fn each_difficulty_grade_modifies_the_skill_rounding_up() {
    // Mythras Imperative: Very Easy doubles, Easy adds half, Hard takes a third off,
    // Formidable halves, Herculean leaves a tenth; fractions round up.
    let cases: [(i64, [i64; 6]); 3] = [
        (55, [110, 83, 55, 37, 28, 6]),
        (64, [128, 96, 64, 43, 32, 7]),
        (100, [200, 150, 100, 67, 50, 10]),
    ];
    let grades = [
        "very_easy",
        "easy",
        "standard",
        "hard",
        "formidable",
        "herculean",
    ];
    for (skill, targets) in cases {
        for (grade, target) in grades.iter().zip(targets) {
            let label = if *grade == "standard" {
                "knight".to_string()
            } else {
                format!("knight ({})", grade.replace('_', " "))
            };
            assert_eq!(
                graded_attack(skill, grade, 50),
                format!(
                    "Aelric: {label} {target}, rolled 50: {}",
                    if target >= 50 { "success" } else { "failure" }
                ),
            );
        }
    }
    // Automatic needs no roll; Hopeless cannot succeed.
    assert_eq!(
        graded_attack(55, "automatic", 50),
        "Aelric: knight (automatic) 55, rolled 0: success"
    );
    assert_eq!(
        graded_attack(55, "hopeless", 50),
        "Aelric: knight (hopeless) 0, rolled 0: failure"
    );
}

#[test]
fn criticals_are_a_tenth_of_the_modified_skill_and_fumbles_depend_on_it() {
    let cases = [
        // 55%: a critical is 6 or less (5.5 rounded up); 99 and 00 fumble.
        (55, "standard", 6, "knight 55, rolled 6: critical"),
        (55, "standard", 7, "knight 55, rolled 7: success"),
        (55, "standard", 99, "knight 55, rolled 99: fumble"),
        (55, "standard", 98, "knight 55, rolled 98: failure"),
        // Hard 37%: a critical is 4 or less; 01-05 always succeed.
        (55, "hard", 4, "knight (hard) 37, rolled 4: critical"),
        (
            55,
            "herculean",
            1,
            "knight (herculean) 6, rolled 1: critical",
        ),
        (
            10,
            "herculean",
            5,
            "knight (herculean) 1, rolled 5: success",
        ),
        // Very Easy 110%: only 00 fumbles, and 96-99 still fail.
        (
            55,
            "very_easy",
            99,
            "knight (very easy) 110, rolled 99: failure",
        ),
        (
            55,
            "very_easy",
            100,
            "knight (very easy) 110, rolled 100: fumble",
        ),
    ];
    for (skill, grade, roll, expected) in cases {
        assert_eq!(
            graded_attack(skill, grade, roll),
            format!("Aelric: {expected}")
        );
    }
}
