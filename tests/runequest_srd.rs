//! The RuneQuest SRD ruleset: it checks clean, and given dice walk through every cell of
//! the Parry and Dodge tables with the printed result.

mod common;

use common::{affray, fight_with_dice, root, ruleset_path, text};

#[test]
fn runequest_srd_checks_clean() {
    let output = affray(root(), &["check", "rulesets/runequest-srd"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains("7 tables (1 roll, 3 modifiers, 3 matrix)"),
        "{stdout}"
    );
    assert!(stdout.contains("7 scenarios"), "{stdout}");
}

/// Rolls for a skill of 60: a critical is 6 or less.
fn roll_for(level: &str) -> u32 {
    match level {
        "critical" => 3,
        "success" => 50,
        _ => 90,
    }
}

/// One exchange with given dice: Aelfric (longsword 60) attacks Beorn, who parries with
/// his longsword (4 AP) or dodges. Dice: the two Strike Ranks, the attack (a plain
/// success, so a reaction is allowed), the defender's roll, the attacker's opposed roll,
/// then 8 for damage (or the location when no damage is rolled) and 10. The fight runs
/// out of dice after the exchange; what matters is what the exchange printed.
fn exchange(reaction: &str, attacker: &str, defender: &str) -> String {
    let dice = format!(
        "5 5\n50 {} {}\n8 10\n",
        roll_for(defender),
        roll_for(attacker)
    );
    fight_with_dice(
        &format!("rq-{reaction}-{attacker}-{defender}"),
        &exchange_scenario(reaction, ""),
        &dice,
    )
}

/// The scenario of `exchange`: Aelfric and Beorn, Beorn reacting with `reaction`, and
/// the fight options `options` (a TOML array's contents).
fn exchange_scenario(reaction: &str, options: &str) -> String {
    format!(
        r#"ruleset = "{ruleset}"
title = "One exchange"
options = [{options}]

[[combatants]]
name = "Aelfric"
side = "a"
characteristics = {{ STR = 10, CON = 10, SIZ = 13, INT = 10, POW = 10, DEX = 12, CHA = 10 }}
skills = {{ one_handed_sword = 60, dodge = 60 }}
weapons = ["longsword"]
hit_points = {{ right_leg = 20, left_leg = 20, abdomen = 20, chest = 20, right_arm = 20, left_arm = 20, head = 20 }}
statistics = {{ strike_rank = 20, combat_actions = 2 }}

[[combatants]]
name = "Beorn"
side = "b"
characteristics = {{ STR = 10, CON = 10, SIZ = 13, INT = 10, POW = 10, DEX = 10, CHA = 10 }}
skills = {{ one_handed_sword = 60, dodge = 60 }}
weapons = ["longsword"]
hit_points = {{ right_leg = 20, left_leg = 20, abdomen = 20, chest = 20, right_arm = 20, left_arm = 20, head = 20 }}
statistics = {{ strike_rank = 0, combat_actions = 2 }}
engaged = ["Aelfric"]

[[choices]]
decision = "reaction"
by = "Beorn"
choose = "{reaction}"
"#,
        ruleset = ruleset_path("runequest-srd"),
    )
}

fn assert_exchange(reaction: &str, attacker: &str, defender: &str, expected: &[&str]) {
    let log = exchange(reaction, attacker, defender);
    assert_log(
        &log,
        &format!("{reaction}: attacker {attacker}, defender {defender}"),
        expected,
    );
}

#[test]
fn every_cell_of_the_parry_table_does_what_it_prints() {
    let cells: [(&str, &str, &[&str]); 9] = [
        (
            "failure",
            "failure",
            &["parry table: hits", "Beorn takes 8 to"],
        ),
        (
            "failure",
            "success",
            &[
                "parry table: deduct_ap 200%",
                "Beorn deflects 8",
                "!Beorn takes",
            ],
        ),
        (
            "failure",
            "critical",
            &[
                "parry table: misses riposte",
                "!damage for Aelfric",
                "Beorn strikes at Aelfric (riposte)",
            ],
        ),
        (
            "success",
            "failure",
            &["parry table: hits", "Beorn takes 8 to"],
        ),
        (
            "success",
            "success",
            &[
                "parry table: deduct_ap 100%",
                "Beorn deflects 4",
                "Beorn takes 4 to",
            ],
        ),
        (
            "success",
            "critical",
            &[
                "parry table: deduct_ap 200% riposte",
                "Beorn deflects 8",
                "!Beorn takes",
                "Beorn strikes at Aelfric (riposte)",
            ],
        ),
        (
            "critical",
            "failure",
            &[
                "parry table: critical_hit",
                "!1D8 damage",
                "Beorn takes 8 to",
            ],
        ),
        (
            "critical",
            "success",
            &[
                "parry table: deduct_ap 50%",
                "Beorn deflects 2",
                "Beorn takes 6 to",
            ],
        ),
        (
            "critical",
            "critical",
            &["parry table: deduct_ap 100%", "Beorn deflects 4"],
        ),
    ];
    for (attacker, defender, expected) in cells {
        assert_exchange("parry", attacker, defender, expected);
    }
}

#[test]
fn every_cell_of_the_dodge_table_does_what_it_prints() {
    let cells: [(&str, &str, &[&str]); 9] = [
        (
            "failure",
            "failure",
            &["dodge table: hits", "Beorn takes 8 to"],
        ),
        (
            "failure",
            "success",
            &["dodge table: misses", "!damage for Aelfric"],
        ),
        (
            "failure",
            "critical",
            &[
                "dodge table: misses overextended",
                "!damage for Aelfric",
                "Aelfric: overextended",
            ],
        ),
        (
            "success",
            "failure",
            &["dodge table: hits", "Beorn takes 8 to"],
        ),
        (
            "success",
            "success",
            &[
                "dodge table: minimum_damage give_ground",
                "!1D8 damage",
                "Beorn takes 1 to",
                "Beorn gives ground 4 m",
            ],
        ),
        (
            "success",
            "critical",
            &["dodge table: misses", "!damage for Aelfric"],
        ),
        (
            "critical",
            "failure",
            &[
                "dodge table: critical_hit",
                "!1D8 damage",
                "Beorn takes 8 to",
            ],
        ),
        (
            "critical",
            "success",
            &["dodge table: hits", "Beorn takes 8 to"],
        ),
        (
            "critical",
            "critical",
            &[
                // "If the attack being dodged was a critical hit, it instead inflicts
                // normal damage": the Critical row's attack is one (README.md).
                "dodge table: minimum_damage give_ground",
                "1D8 damage for Aelfric → 8",
                "Beorn takes 8 to",
            ],
        ),
    ];
    for (attacker, defender, expected) in cells {
        assert_exchange("dodge", attacker, defender, expected);
    }
}

/// Each of `expected` is in the log; one written `!text` is not.
fn assert_log(log: &str, case: &str, expected: &[&str]) {
    for line in expected {
        match line.strip_prefix('!') {
            Some(absent) => assert!(
                !log.contains(absent),
                "{case}: unexpected `{absent}` in\n{log}"
            ),
            None => assert!(log.contains(line), "{case}: expected `{line}` in\n{log}"),
        }
    }
}

/// A critical attack parried or dodged (README.md, "A critical attack on the tables"):
/// "If the D100 attack roll is ... lower than or equal to the character's critical score
/// ... the attack is considered a critical hit", "A critical hit automatically causes
/// maximum damage", and "The attacking and defending players each roll D100 and compare
/// their results" on the table, whose rows are the "Attacker's Roll": the row read says
/// whether the attack is a critical hit. Aelfric (longsword 1D8, critical 6) attacks
/// Beorn, whose longsword has 4 AP; each case is played by combat.toml and, Beorn's head
/// behind cover (which sends the turn to the hooks), by scripts/combat.rhai.
#[test]
fn a_critical_attack_deals_the_damage_of_the_row_its_roll_against_the_reaction_reads() {
    // (reaction, dice, lines of both paths, combat.toml's line, the script's line)
    let cases: [(&str, &str, &[&str], &str, &str); 4] = [
        // Critical 03, parry 30, against the parry 80: the Failure row's "2xAP of
        // parrying weapon/shield is deducted from damage", from the rolled 5, not 8.
        (
            "parry",
            "5 5\n3 30 80\n5 10\n",
            &[
                "parry table: deduct_ap 200%",
                "1D8 damage for Aelfric → 5",
                "!Beorn takes",
            ],
            "Beorn deflects 5",
            "the Longsword takes 8 off the damage: 0 left",
        ),
        // Against the parry 50, a success: the Success row's AP off the rolled 7.
        (
            "parry",
            "5 5\n3 30 50\n7 10\n",
            &[
                "parry table: deduct_ap 100%",
                "1D8 damage for Aelfric → 7",
                "Beorn takes 3 to chest",
            ],
            "Beorn deflects 4",
            "the Longsword takes 4 off the damage: 3 left",
        ),
        // Dodged, against the dodge 50: the Success row's "minimum damage"; the attack
        // read there is no critical hit, so not "normal damage" instead.
        (
            "dodge",
            "5 5\n3 30 50\n10\n",
            &[
                "dodge table: minimum_damage give_ground",
                "!1D8 damage",
                "Beorn takes 1 to chest",
                "Beorn gives ground 4 m",
            ],
            "!minimum damage of",
            "minimum damage of 1D8: 1",
        ),
        // A plain hit (50) whose roll against the parry is a critical (03): the Critical
        // row's "½ AP of parrying weapon/shield is deducted", from the maximum 8.
        (
            "parry",
            "5 5\n50 30 3\n10\n",
            &[
                "parry table: deduct_ap 50%",
                "!1D8 damage",
                "Beorn takes 6 to chest",
            ],
            "Beorn deflects 2",
            "the Longsword takes 2 off the damage: 6 left",
        ),
    ];
    for (at, (reaction, dice, both, native, script)) in cases.iter().enumerate() {
        for by_scripts in [false, true] {
            let scenario = if by_scripts {
                exchange_scenario(reaction, "").replace(
                    "combat_actions = 2 }\nengaged",
                    "combat_actions = 2, cover = \"head\" }\nengaged",
                )
            } else {
                exchange_scenario(reaction, "")
            };
            let log = fight_with_dice(
                &format!("rq-critical-row-{at}-{by_scripts}"),
                &scenario,
                dice,
            );
            let mut expected = both.to_vec();
            expected.push(if by_scripts { script } else { native });
            let path = if by_scripts { "scripts" } else { "combat.toml" };
            assert_log(&log, &format!("case {at}, {path}"), &expected);
        }
    }
    // One roll (`one_roll_reactions`): the attack roll is the attacker's roll on the
    // table, so a critical attack parried is the Critical row's "½ AP of parrying
    // weapon/shield is deducted from damage": 8 - 2.
    let log = fight_with_dice(
        "rq-critical-parry-one-roll",
        &exchange_scenario("parry", "\"one_roll_reactions\""),
        "5 5\n3 30\n10\n",
    );
    assert_log(
        &log,
        "one roll: critical 03, parry 30",
        &[
            "parry table: deduct_ap 50%",
            "!1D8 damage",
            "Beorn deflects 2",
            "Beorn takes 6 to chest",
        ],
    );
}

/// "If an unarmed attack is parried by a crafted or natural weapon, the attacker will
/// immediately suffer the rolled damage of the parrying weapon, with no damage modifier,
/// to the limb he is using", and "If the defender is armoured in the location that is
/// hit, the armour will absorb some of this damage" (README.md). Aelfric punches (2 AP on
/// the right arm, 5 HP there; no armour on the left); Beorn parries with his longsword:
/// its rolled 8, less the arm's 2 AP, goes to the right arm (a Serious Wound: the arm is
/// useless, one Combat Action lost); the next punch is struck with the bare left arm,
/// which takes the sword's 6 whole.
#[test]
fn an_unarmed_blow_parried_by_a_weapon_hurts_the_striking_arm_through_its_armour() {
    let scenario = format!(
        r#"ruleset = "{ruleset}"
title = "Bare hands against a sword"

[[combatants]]
name = "Aelfric"
side = "a"
characteristics = {{ STR = 10, CON = 10, SIZ = 13, INT = 10, POW = 10, DEX = 12, CHA = 10 }}
skills = {{ unarmed = 60, dodge = 60 }}
weapons = []
armour = {{ right_arm = 2 }}
hit_points = {{ right_leg = 20, left_leg = 20, abdomen = 20, chest = 20, right_arm = 5, left_arm = 20, head = 20 }}
statistics = {{ strike_rank = 20, combat_actions = 3 }}

[[combatants]]
name = "Beorn"
side = "b"
characteristics = {{ STR = 10, CON = 10, SIZ = 13, INT = 10, POW = 10, DEX = 10, CHA = 10 }}
skills = {{ one_handed_sword = 60, dodge = 60 }}
weapons = ["longsword"]
hit_points = {{ right_leg = 20, left_leg = 20, abdomen = 20, chest = 20, right_arm = 20, left_arm = 20, head = 20 }}
statistics = {{ strike_rank = 0, combat_actions = 3 }}
engaged = ["Aelfric"]

[[choices]]
decision = "action"
who = "Aelfric"
choose = "attack"

[[choices]]
decision = "action"
who = "Aelfric"
choose = "attack"

[[choices]]
decision = "action"
who = "Beorn"
choose = "defend"

[[choices]]
decision = "reaction"
who = "Beorn"
choose = "parry"

[[choices]]
decision = "reaction"
who = "Beorn"
choose = "parry"
"#,
        ruleset = ruleset_path("runequest-srd"),
    );
    // Strike Ranks; punch 50, parry 30, against the parry 50; the sword's 8; 1 Combat
    // Action lost; the punch's 2 (the sword's AP take it). Then the same with the
    // sword's 6.
    let dice = "5 5\n50 30 50\n8\n1\n2\n50 30 50\n6\n2\n";
    let log = fight_with_dice("rq-unarmed-parried", &scenario, dice);
    assert_log(
        &log,
        "a punch parried by a longsword",
        &[
            "1D8 the parrying Longsword against the bare hand for Beorn → 8",
            "2 AP on the right_arm: 6 gets through",
            "Aelfric takes 6 to right arm, -1 HP left there",
            "Aelfric: serious wound to right arm",
            "!AP on the left_arm",
            "1D8 the parrying Longsword against the bare hand for Beorn → 6",
            "Aelfric takes 6 to left arm, 14 HP left there",
        ],
    );
}
