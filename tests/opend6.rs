//! The OpenD6 ruleset: it checks clean, and the Combat Options chapter's two worked
//! examples come out as printed: the scale modifier of the Centaur and the rats (12),
//! and the ranger's quick draw (4D Acumen, 8D throwing, two daggers: 7D, moves 3D:
//! 7D initiative, 4D throwing). Also the engine's `skill_dice`, which rolls a dice-code
//! skill as a pool.

mod common;

use common::{affray, root, scratch, text};

use std::fs;

#[test]
fn opend6_checks_clean() {
    let output = affray(root(), &["check", "rulesets/opend6"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    assert!(stdout.contains("OpenD6 is valid"), "{stdout}");
    assert!(stdout.contains("6 scenarios"), "{stdout}");
}

fn fight(scenario: &str, seed: &str) -> String {
    let output = affray(root(), &["fight", scenario, "--seed", seed]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    text(&output.stdout)
}

/// "The rats have a scale value of 9, but are smaller than a Human. With the Centaur's
/// scale value of 3 larger than a Human, the scale modifier is 12 (3 + 9). ... each rat
/// gets a +12 to its fighting roll, while the adventurer gets a +12 to his damage
/// resistance total. When the Centaur attacks a rat, the scale modifier is added to his
/// combat difficulty and to his damage total."
#[test]
fn the_centaur_and_the_rats_have_a_scale_modifier_of_12_both_ways() {
    let mut seen = [false; 4];
    for seed in 1..=10 {
        let log = fight(
            "rulesets/opend6/scenarios/centaur_and_rats.toml",
            &seed.to_string(),
        );
        seen[0] |= log.contains("is smaller: +12 scale modifier to the fighting total");
        seen[1] |=
            log.contains("Centaur is larger: +12 scale modifier to the damage resistance total");
        seen[2] |= log.contains("scale modifier 12 (attacker larger)");
        seen[3] |= log.contains("scale modifier +12 to the damage total");
        // No other scale modifier ever appears.
        for line in log.lines().filter(|l| l.contains("scale modifier")) {
            assert!(line.contains("12"), "{line}");
        }
    }
    assert_eq!(seen, [true; 4], "each side of the scale rule was seen");
}

#[test]
fn the_scale_formula_adds_across_a_human_and_subtracts_on_one_side() {
    // Through a scratch scenario: a horse (3) against an elephant (8) is 5; a child (-3)
    // against a rat (-9) is 6.
    for (a, b, expected) in [(3, 8, 5), (-3, -9, 6), (3, -9, 12)] {
        let dir = scratch(&format!("opend6-scale-{a}-{b}"));
        let ruleset = root().join("rulesets/opend6");
        let scenario = format!(
            r#"ruleset = "{ruleset}"
title = "Scale"
options = ["standard_modifiers", "no_wild_die"]

[[combatants]]
name = "A"
side = "a"
skills = {{ agility = "3D", acumen = "9D", physique = "3D", fighting = "3D", melee_combat = "3D" }}
weapons = ["club"]
statistics = {{ scale = {a} }}

[[combatants]]
name = "B"
side = "b"
skills = {{ agility = "3D", acumen = "1D", physique = "3D", fighting = "3D" }}
statistics = {{ scale = {b} }}
engaged = ["A"]

[[choices]]
decision = "actions"
by = "A"
choose = "1"

[[choices]]
decision = "actions"
by = "B"
choose = "1"
"#,
            ruleset = ruleset.display().to_string().replace('\\', "/"),
        );
        fs::write(dir.join("scale.toml"), scenario).unwrap();
        let output = affray(&dir, &["fight", "scale.toml", "--seed", "3"]);
        let _ = fs::remove_dir_all(&dir);
        let log = text(&output.stdout);
        assert!(
            log.contains(&format!("scale modifier {expected} (attacker larger)"))
                || log.contains(&format!("+{expected} scale modifier")),
            "scale {a} against {b}: {log}"
        );
    }
}

/// The ranger: "The ranger has 4D in Acumen and 8D in throwing. ... After subtracting
/// 1D for the extra attack, he now has 7D in the skill, which allows him to add up to 6D
/// to the initiative roll. He decides to move only 3D. This gives him 7D in Acumen to
/// determine initiative and 4D in throwing."
#[test]
fn the_rangers_quick_draw_gives_7d_initiative_and_4d_throwing() {
    let log = fight("rulesets/opend6/scenarios/quick_draw_shootout.toml", "1");
    assert!(
        log.contains(
            "Ranger announces a quick draw: throwing 8D, -1D for 2 attacks: 7D; may move up to 6D; moves 3D: Acumen 7D for initiative, throwing 4D"
        ),
        "{log}"
    );
    // The offered choices: up to 6D may be moved.
    assert!(
        log.contains("Ranger chooses quick_draw_dice: 3 (of 0, 1, 2, 3, 4, 5, 6; scenario)"),
        "{log}"
    );
    // Initiative on 7D: six dice and the Wild Die.
    assert!(
        log.contains("6D6 initiative (Acumen 7D) for Ranger"),
        "{log}"
    );
    // Both throws of round 1 at 4D: no further multi-action penalty.
    let round_1 = log.split("Round 2").next().unwrap();
    assert_eq!(
        round_1.matches("attack (throwing 4D) for Ranger").count(),
        2,
        "{round_1}"
    );
}

/// Given dice: a 4D+2 skill rolls three dice and a Wild Die plus 2; a 6 on the Wild Die
/// explodes, a first 1 is a complication; the total is compared with the difficulty.
#[test]
fn a_die_code_rolls_as_a_pool_with_an_exploding_wild_die() {
    let dir = scratch("opend6-pool");
    let ruleset = root().join("rulesets/opend6");
    let scenario = format!(
        r#"ruleset = "{ruleset}"
title = "Pool"
options = ["standard_modifiers"]

[[combatants]]
name = "A"
side = "a"
skills = {{ agility = "3D", acumen = "1D", physique = "2D", melee_combat = "4D+2" }}
weapons = ["club"]

[[combatants]]
name = "B"
side = "b"
skills = {{ agility = "3D", acumen = "1D", physique = "2D" }}
engaged = ["A"]

[[choices]]
decision = "actions"
by = "A"
choose = "1"

[[choices]]
decision = "actions"
by = "B"
choose = "1"

[[choices]]
decision = "stance"
by = "A"
choose = "stand"

[[choices]]
decision = "action"
by = "A"
choose = "attack"

[[choices]]
decision = "defence"
by = "B"
choose = "none"
"#,
        ruleset = ruleset.display().to_string().replace('\\', "/"),
    );
    fs::write(dir.join("pool.toml"), scenario).unwrap();
    // Initiative: A's Wild Die 5, B's 2. Attack: 1 2 3, Wild Die 6, explodes 4:
    // 1+2+3+6+4+2 = 18 against 10. Then the dice run out.
    fs::write(dir.join("dice.txt"), "5 2\n1 2 3 6 4\n").unwrap();
    let output = affray(&dir, &["fight", "pool.toml", "--dice", "dice.txt"]);
    let _ = fs::remove_dir_all(&dir);
    let log = text(&output.stdout);
    assert!(
        log.contains("3D6 attack (melee_combat 4D+2) for A → 6 [1, 2, 3]"),
        "{log}"
    );
    assert!(
        log.contains("attack (melee_combat 4D+2): Wild Die explodes for A → 4"),
        "{log}"
    );
    assert!(
        log.contains("A: melee_combat 10, rolled 18: success"),
        "{log}"
    );
}
