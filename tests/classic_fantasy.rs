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

/// Aelric against Berin, both 12 in every characteristic and 55% in the `knight` Combat
/// Style unless told, Aelric acting first (Initiative Modifier 30, Berin's 0, three Action
/// Points: he parries even a miss). The dice are given; the fight stops when they run
/// out, after the part of the exchange a test looks at.
#[derive(Default)]
struct Duel<'a> {
    /// Aelric's weapon (a longsword when empty) and Berin's (broadsword and heater shield).
    attacker: &'a str,
    defender: &'a str,
    aelric_skills: &'a str,
    /// More of Aelric's statistics (`, difficulty = "hard"`).
    aelric_statistics: &'a str,
    /// More keys of each combatant (`armour = ...`, `options = ...`).
    aelric: &'a str,
    berin: &'a str,
    /// The scenario's own keys (`distance = 600`) and its scripted choices.
    header: &'a str,
    choices: &'a str,
}

impl Duel<'_> {
    fn fight(&self, case: &str, dice: &str) -> String {
        let or = |given: &'static str, value: &str| {
            if value.is_empty() {
                given.to_string()
            } else {
                value.to_string()
            }
        };
        let average = "characteristics = { STR = 12, CON = 12, SIZ = 12, DEX = 12, INT = 12, POW = 12, CHA = 12 }";
        let scenario = format!(
            r#"ruleset = "{ruleset}"
title = "One exchange"
{header}

[[combatants]]
name = "Aelric"
side = "a"
{average}
skills = {{ {aelric_skills} }}
weapons = [{attacker}]
statistics = {{ combat_style = "knight", initiative_bonus = 30, action_points = 2{aelric_statistics} }}
{aelric}

[[combatants]]
name = "Berin"
side = "b"
{average}
skills = {{ knight = 55 }}
weapons = [{defender}]
statistics = {{ combat_style = "knight", initiative_bonus = 0, action_points = 3 }}
{berin}

{choices}
"#,
            ruleset = ruleset_path("classic-fantasy"),
            header = self.header,
            aelric_skills = or("knight = 55", self.aelric_skills),
            attacker = or(r#""longsword""#, self.attacker),
            aelric_statistics = self.aelric_statistics,
            aelric = self.aelric,
            defender = or(r#""broadsword", "heater""#, self.defender),
            berin = self.berin,
            choices = self.choices,
        );
        fight_with_dice(&format!("cf-{case}"), &scenario, dice)
    }
}

/// Aelric (Combat Skill `attacker_skill`) attacks Berin with a longsword; Berin parries
/// with a heater shield. `extra` goes into Aelric's statistics.
fn fight(case: &str, attacker_skill: i64, extra: &str, dice: &str) -> String {
    Duel {
        aelric_skills: &format!("knight = {attacker_skill}"),
        aelric_statistics: extra,
        berin: r#"engaged = ["Aelric"]"#,
        ..Duel::default()
    }
    .fight(case, dice)
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
            // The matrix: the better roll wins one Special Effect per level of difference;
            // when both fail (a fumble is a failure) the sequence ends with none: "If both
            // combatants Fail their rolls ... the Attack / Parry sequence ends".
            let both_fail = a >= 2 && d >= 2;
            let (attacker_wins, defender_wins) = if both_fail {
                (0, 0)
            } else if a < d {
                (d - a, 0)
            } else {
                (0, a - d)
            };
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

/// The Special Effects a side is offered in `log`, as the log lists them ("(of bash,
/// trip opponent; tactics)"), every choice of the exchange together.
fn offered(log: &str, who: &str) -> Vec<String> {
    let prefix = format!("{who} chooses special effect: ");
    log.lines()
        .filter_map(|line| line.trim().strip_prefix(&prefix))
        .filter_map(|line| line.split_once("(of ").map(|(_, rest)| rest))
        .flat_map(|rest| rest.split(';').next().unwrap_or("").split(", "))
        .map(str::to_string)
        .collect()
}

#[test]
fn effects_used_when_an_opponent_fumbles_need_a_success_against_the_fumble() {
    // Accidental Injury and Select Target ("Attacker Fumbles") and Force Failure
    // ("Opponent Fumbles") keep their conditions: the winner's opponent fumbled.
    // Success (30) against a fumbled parry (99): two effects, Force Failure among them.
    let log = fight("success-fumble", 55, "", "5 5\n30 99\n");
    assert!(
        offered(&log, "Aelric").contains(&"force failure".to_string()),
        "{log}"
    );
    // A fumbled attack (99) against a successful parry (30): Accidental Injury offered.
    let log = fight("fumble-success", 55, "", "5 5\n99 30\n");
    assert!(
        offered(&log, "Berin").contains(&"accidental injury".to_string()),
        "{log}"
    );
    // Without a fumble, neither: success against failure, failure against success.
    let log = fight("success-failure", 55, "", "5 5\n30 70\n");
    assert!(!offered(&log, "Aelric").is_empty(), "{log}");
    assert!(
        !offered(&log, "Aelric").contains(&"force failure".to_string()),
        "{log}"
    );
    let log = fight("failure-success", 55, "", "5 5\n70 30\n");
    assert!(!offered(&log, "Berin").is_empty(), "{log}");
    assert!(
        !offered(&log, "Berin").contains(&"accidental injury".to_string()),
        "{log}"
    );
    // "If both combatants Fail their rolls ... the Attack / Parry sequence ends": a fumble
    // is a failed roll, so a Failure against a Fumble wins nothing, neither the fumble
    // effects nor any other (it won one effect until 2026-11-24).
    for (case, dice) in [
        ("failure-fumble", "5 5\n70 99\n"),
        ("fumble-failure", "5 5\n99 70\n"),
    ] {
        let log = fight(case, 55, "", dice);
        assert!(log.contains("rolled 99: fumble"), "{log}");
        assert!(!log.contains("chooses special effect"), "{log}");
    }
    // Select Target needs a bystander within the attacker's reach: Cedric, engaged with
    // both, is offered to Berin when Aelric fumbles against his parry, and Berin may send
    // the blow there (it "automatically hits").
    let log = Duel {
        berin: r#"engaged = ["Aelric"]"#,
        choices: r#"[[combatants]]
name = "Cedric"
side = "b"
characteristics = { STR = 12, CON = 12, SIZ = 12, DEX = 12, INT = 12, POW = 12, CHA = 12 }
skills = { knight = 55 }
weapons = ["broadsword"]
statistics = { combat_style = "knight", initiative_bonus = 10, action_points = 2 }
engaged = ["Aelric", "Berin"]

[[choices]]
who = "Berin"
decision = "special_effect"
choose = "select_target""#,
        ..Duel::default()
    }
    .fight("select-target", "5 5 5\n99 30\n");
    assert!(
        offered(&log, "Berin").contains(&"select target".to_string()),
        "{log}"
    );
}

#[test]
fn a_parry_of_equal_size_deflects_everything_and_a_critical_hit_may_circumvent_it() {
    // Longsword (Large) against a heater shield (Large): all deflected. Dice: initiative,
    // attack 30 (success), parry 30 (success), damage 8, location 10 (chest).
    // (The plain duel's exchange is combat.toml's: the blow still finds its location.)
    let log = fight("equal-size", 55, "", "5 5\n30 30\n8 10\n");
    assert!(log.contains("for Berin: 10 → Chest"), "{log}");
    assert!(!log.contains("Berin takes"), "{log}");
    // Attack 3 (critical) against parry 30 (success): one Special Effect, and the tactics
    // take Circumvent Parry; 8 damage lands on the chest.
    let log = fight("circumvent", 55, "", "5 5\n3 30\n8 10\n");
    assert!(
        log.contains("Aelric chooses special effect: circumvent parry"),
        "{log}"
    );
    assert!(log.contains("Berin takes 8 to chest"), "{log}");
}

/// Aelric's great axe (2D6+2) against Berin in 4 AP everywhere, who fails his parry:
/// Aelric's one Special Effect is Sunder. Dice: initiative, attack 30, parry 70, the two
/// damage dice, location 10 (chest).
fn sunder(case: &str, damage_dice: &str) -> String {
    Duel {
        attacker: r#""great_axe""#,
        defender: r#""broadsword""#,
        berin: "armour = { all = 4 }",
        choices: r#"[[choices]]
decision = "special_effect"
choose = "sunder""#,
        ..Duel::default()
    }
    .fight(
        &format!("sunder-{case}"),
        &format!("5 5\n30 70\n{damage_dice} 10\n"),
    )
}

#[test]
fn sunder_spends_the_surplus_on_the_armour_and_only_what_remains_on_the_hit_points() {
    // "Surplus damage over its Armor Points is then used to reduce the AP value of that
    // armor(ed) location ... If any damage remains after the protection has been reduced
    // to zero AP, it carries over onto the Hit Points of the location struck."
    // 6 against 4 AP: 2 surplus, the chest down to 2 AP, no wound.
    let log = sunder("six", "2 2");
    assert!(log.contains("→ 6 (dice showed 2, 2)"), "{log}");
    assert!(log.contains("Berin's chest now has 2 AP"), "{log}");
    assert!(
        log.contains("sunder: 2 AP lost on the chest, 0 carries over"),
        "{log}"
    );
    assert!(!log.contains("Berin takes"), "{log}");
    // 10 against 4 AP: 6 surplus, 4 of it strips the chest to 0 AP, 2 reach the Hit
    // Points (not 6: the armour is not taken off a second time).
    let log = sunder("ten", "4 4");
    assert!(log.contains("Berin's chest now has 0 AP"), "{log}");
    assert!(log.contains("Berin takes 2 to chest"), "{log}");
}

#[test]
fn every_halving_rounds_up() {
    // A parry one Size smaller "only deflects half damage": the great axe's 7 against a
    // longsword leaves 4. Dice: initiative, attack 30, parry 30, damage 2 + 3 + 2,
    // location 10.
    let log = Duel {
        attacker: r#""great_axe""#,
        defender: r#""longsword""#,
        ..Duel::default()
    }
    .fight("parry-half", "5 5\n30 30\n2 3 10\n");
    assert!(log.contains("→ 7 (dice showed 2, 3)"), "{log}");
    assert!(
        log.contains("Longsword deflects half of the damage: 4 left"),
        "{log}"
    );
    // The chapter's one rounding, knockback's "5 feet backward for each 8 points of damage
    // (or fraction thereof) over their SIZ", counts a fraction whole: 13 rolled against
    // SIZ 12 is one point over, 5 feet. Dice: damage 6 + 5 (+2), parried by the longsword.
    let log = Duel {
        attacker: r#""great_axe""#,
        defender: r#""longsword""#,
        ..Duel::default()
    }
    .fight("knockback-fraction", "5 5\n30 30\n6 5 10\n");
    assert!(log.contains("→ 13 (dice showed 6, 5)"), "{log}");
    assert!(log.contains("Berin is knocked back 5 ft"), "{log}");
    // "At Long Range ... the amount of damage is halved": a long bow's 7 at 600 feet
    // (its range 540) is 4, as the parry's half (it was 3). Dice: initiative, attack 30
    // unanswered, damage 7, location 10.
    let log = Duel {
        attacker: r#""long_bow""#,
        defender: r#""broadsword""#,
        header: "distance = 600",
        choices: r#"[[choices]]
who = "Aelric"
decision = "action"
choose = "attack"

[[choices]]
who = "Berin"
decision = "reaction"
choose = "none"

[[choices]]
who = "Aelric"
decision = "special_effect"
choose = "rapid_reload""#,
        ..Duel::default()
    }
    .fight("long-range", "5 5\n30\n7 10\n");
    assert!(log.contains("half damage at long range: 4"), "{log}");
    assert!(log.contains("Berin takes 4 to chest"), "{log}");
}

#[test]
fn a_mounted_charge_takes_the_mounts_damage_modifier_two_steps_up() {
    // "the charge increases ... a bipedal attacker's Damage Modifier by one step; or two
    // steps if a quadruped (or more legs). Riding characters may substitute their Damage
    // Modifier for that of their mount instead." A knight on a +1d8 horse charges with
    // +1d12 (+1d8, +1d10, +1d12 in the progression). Dice: initiative, the charge's
    // attack 20 (Hard: 37), the lance's damage 10 and Impale's second roll 4, then the
    // Damage Modifier.
    let log = Duel {
        attacker: r#""lance""#,
        defender: r#""broadsword""#,
        aelric_skills: "knight = 55, ride = 80",
        aelric_statistics: r#", mount_damage_modifier = "+1d8""#,
        aelric: r#"options = ["mounted"]"#,
        header: "distance = 30",
        choices: r#"[[choices]]
who = "Aelric"
decision = "action"
choose = "charge"

[[choices]]
who = "Berin"
decision = "reaction"
choose = "none""#,
        ..Duel::default()
    }
    .fight("mounted-charge", "5 5\n20\n10 4 3\n");
    assert!(log.contains("Aelric charges Berin"), "{log}");
    assert!(
        log.contains("Aelric: knight (hard) 37, rolled 20: success"),
        "{log}"
    );
    assert!(log.contains("1D12 damage modifier for Aelric → 3"), "{log}");
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

/// The lines of a log that say what happened (tests, choices, damage, wounds,
/// conditions), without the dice's purposes and the script's notes.
fn happenings(log: &str) -> Vec<&str> {
    log.lines()
        .map(str::trim)
        .filter(|line| {
            line.contains(", rolled ")
                || line.contains(" chooses ")
                || line.contains(" takes ")
                || line.contains(" wound to ")
                || line.contains(" spends an action")
                || line.contains(": prone")
                || line.contains(": cannot attack")
        })
        .collect()
}

#[test]
fn the_plain_duels_attack_is_combat_tomls_and_plays_as_the_script_did() {
    // Aelric's critical (3) against Berin's failed parry (70): two effects (Impale, Bypass
    // Armor), the longsword's 1D8 rolled twice (8 and 5: 8 kept), no Damage Modifier at
    // STR + SIZ 24, the location (10, the chest); the sword stays in the wound; 8 on the
    // chest is a Serious Wound: Berin's Endurance fails with 90, 1D3 (2) turns without
    // attacking, and he falls unconscious. The native attack (no `difficulty`) plays it
    // with the same dice as the script's `attack` (`difficulty = "standard"` gives the
    // turn to it, at the same grade).
    let dice = "5 5\n3 70\n8 5 10 90 2\n";
    let native = fight("native", 55, "", dice);
    let script = fight("script", 55, r#", difficulty = "standard""#, dice);
    assert!(native.contains("1D100 attack for Aelric → 3"), "{native}");
    assert!(
        script.contains("1D100 attack with Longsword for Aelric → 3"),
        "{script}"
    );
    assert!(native.contains("Berin takes 8 to chest"), "{native}");
    assert!(native.contains("Berin: serious wound to chest"), "{native}");
    assert_eq!(happenings(&native), happenings(&script));
}
