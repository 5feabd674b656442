//! The OpenD6 ruleset: it checks clean, and the Combat Options chapter's two worked
//! examples come out as printed: the scale modifier of the Centaur and the rats (12),
//! and the ranger's quick draw (4D Acumen, 8D throwing, two daggers: 7D, moves 3D:
//! 7D initiative, 4D throwing). Also the engine's `skill_dice`, which rolls a dice-code
//! skill as a pool.

mod common;

use common::{affray, fight_with_dice, root, ruleset_path, scratch, text};

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
        log.contains("Ranger chooses quick draw dice: 3 (of 0, 1, 2, 3, 4, 5, 6; scenario)"),
        "{log}"
    );
    // Initiative on 7D: six dice and the Wild Die.
    assert!(log.contains("6D6 initiative for Ranger"), "{log}");
    assert!(log.contains("1D6 initiative: Wild Die for Ranger"), "{log}");
    // Both throws of round 1 at 4D: no further multi-action penalty (in a fight where
    // the first throw leaves the sorceress standing).
    let mut both = false;
    for seed in 1..=20 {
        let log = fight(
            "rulesets/opend6/scenarios/quick_draw_shootout.toml",
            &seed.to_string(),
        );
        let round_1 = log.split("Round 2").next().unwrap();
        // Every throwing roll of the round at 4D, Wild Die and all.
        assert_eq!(
            round_1.matches("(throwing ").count(),
            round_1.matches("(throwing 4D)").count(),
            "{round_1}"
        );
        let throws = round_1.matches("attack (throwing 4D) for Ranger").count();
        assert!(throws >= 1, "{round_1}");
        if throws == 2 {
            both = true;
            break;
        }
    }
    assert!(both, "no fight of seeds 1 to 20 had both throws in round 1");
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
        log.contains("3D6 attack (melee combat 4D+2) for A → 6 (dice showed 1, 2, 3)"),
        "{log}"
    );
    assert!(
        log.contains("attack (melee combat 4D+2): Wild Die explodes for A → 4"),
        "{log}"
    );
    assert!(
        log.contains("A: melee combat 10, rolled 18: success"),
        "{log}"
    );
}

// ---------------------------------------------------------------- every option

/// One option of the chapter, fought by a strong attacker `A` (its `style` names the
/// action it always takes when legal) against a weak extra `B`.
struct Case<'a> {
    name: &'a str,
    /// Fight options, e.g. `"body_points"`.
    options: &'a [&'a str],
    /// Extra TOML lines for A and for B (weapons, statistics, options...).
    a: &'a str,
    b: &'a str,
    /// More TOML after the combatants: a third combatant, `distance`, `[[choices]]`.
    more: &'a str,
    /// Each must appear in the log of some seed from 1 to 30.
    expect: &'a [&'a str],
}

/// The skills of a combatant: `base` with the pairs of a `skills = { ... }` line of
/// `extra` put in (replacing those of the same name), and `extra` without that line.
fn merge_skills(base: &str, extra: &str) -> (String, String) {
    let mut pairs: Vec<(String, String)> = base
        .split(", ")
        .map(|pair| {
            let (k, v) = pair.split_once(" = ").unwrap();
            (k.to_string(), v.to_string())
        })
        .collect();
    let mut rest = Vec::new();
    for line in extra.lines() {
        if let Some(inner) = line
            .strip_prefix("skills = { ")
            .and_then(|l| l.strip_suffix(" }"))
        {
            for pair in inner.split(", ") {
                let (k, v) = pair.split_once(" = ").unwrap();
                match pairs.iter_mut().find(|(name, _)| name == k) {
                    Some(slot) => slot.1 = v.to_string(),
                    None => pairs.push((k.to_string(), v.to_string())),
                }
            }
        } else {
            rest.push(line);
        }
    }
    let skills = pairs
        .iter()
        .map(|(k, v)| format!("{k} = {v}"))
        .collect::<Vec<_>>()
        .join(", ");
    (format!("skills = {{ {skills} }}"), rest.join("\n"))
}

fn run_case(case: &Case) {
    let dir = scratch(&format!("opend6-{}", case.name));
    let (a_skills, a) = merge_skills(
        r#"agility = "4D", coordination = "4D", physique = "4D", acumen = "4D", charisma = "4D", fighting = "8D", melee_combat = "8D", throwing = "8D", marksmanship = "8D", acrobatics = "8D", lifting = "5D", command = "8D""#,
        case.a,
    );
    let (b_skills, b) = merge_skills(
        r#"agility = "2D", coordination = "2D", physique = "2D", acumen = "1D", fighting = "2D", melee_combat = "2D", dodge = "2D", lifting = "2D""#,
        case.b,
    );
    let ruleset = root().join("rulesets/opend6");
    let options = case
        .options
        .iter()
        .map(|o| format!("\"{o}\""))
        .collect::<Vec<_>>()
        .join(", ");
    let scenario = format!(
        r#"ruleset = "{ruleset}"
title = "{name}"
options = [{options}]
{more_top}
[[combatants]]
name = "A"
side = "a"
{a_skills}
{a}

[[combatants]]
name = "B"
side = "b"
{b_skills}
{b}
{more}
"#,
        ruleset = ruleset.display().to_string().replace('\\', "/"),
        name = case.name,
        more_top = if case.more.contains("distance") {
            "distance = 5"
        } else {
            ""
        },
        more = case.more.replace("distance = 5", ""),
    );
    fs::write(dir.join("case.toml"), &scenario).unwrap();
    let mut missing: Vec<&str> = case.expect.to_vec();
    let mut last = String::new();
    for seed in 1..=30 {
        let output = affray(&dir, &["fight", "case.toml", "--seed", &seed.to_string()]);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{}: seed {seed}: {}",
            case.name,
            text(&output.stderr)
        );
        last = text(&output.stdout);
        missing.retain(|e| !last.contains(e));
        if missing.is_empty() {
            break;
        }
    }
    let _ = fs::remove_dir_all(&dir);
    assert!(
        missing.is_empty(),
        "{}: never seen {missing:?}\n{scenario}\nlast log:\n{last}",
        case.name
    );
}

const TOUGH_B: &str = r#"statistics = { body_points = 300 }
options = ["extra"]"#;

#[test]
fn every_grab_of_the_chapter_does_what_the_text_says() {
    for case in [
        Case {
            name: "choke",
            options: &["body_points"],
            a: r#"statistics = { style = "grab_choke" }"#,
            b: TOUGH_B,
            more: "",
            expect: &[
                "modifiers 6 (grab)",
                "A chokes B",
                "A squeezes B (choke)",
                "B is no longer held by A",
            ],
        },
        Case {
            name: "flip",
            options: &["body_points"],
            a: r#"statistics = { style = "grab_flip" }"#,
            b: TOUGH_B,
            more: "",
            expect: &[
                "A flips B to the ground",
                "3D6 flip: slamming into the ground for A",
                // Getting back on her feet after the lost round is fought with given
                // dice in `tests/opend6_audit.rs` (a flip costs the next round): here
                // the flipper flips her again while she is down.
                "target_prone_near", // attacking her while prone at point blank
            ],
        },
        Case {
            name: "hold",
            options: &["body_points", "standard_modifiers"],
            a: r#"statistics = { style = "grab_hold" }"#,
            b: TOUGH_B,
            more: "",
            // Strength Damage 2D and bare hands 0, less 3D: nothing to roll.
            expect: &[
                "A holds B",
                "A chooses hold damage: 3",
                "A squeezes B (hold)",
            ],
        },
        Case {
            name: "slam",
            options: &["body_points"],
            a: r#"statistics = { style = "grab_slam" }"#,
            b: TOUGH_B,
            more: "",
            expect: &[
                "A grabs B",
                "A lifts B",
                "slam: the sturdy object's Toughness",
                "slammed into a sturdy object: damage",
                "the sturdy object takes",
            ],
        },
        Case {
            name: "arm_pin",
            options: &["body_points"],
            a: r#"statistics = { style = "grab_arm_pin" }"#,
            b: TOUGH_B,
            more: "",
            expect: &[
                "A pins the arm of B",
                "breaking difficulty",
                "(resisted)",
                "B's arm breaks",
                "submission difficulty",
                "B is forced to the ground and submits",
            ],
        },
        Case {
            name: "tackle",
            options: &["body_points"],
            a: r#"statistics = { style = "tackle" }"#,
            b: TOUGH_B,
            more: "",
            expect: &[
                "modifiers 3 (tackle)",
                "A tackles B",
                "A squeezes B (tackle)",
            ],
        },
    ] {
        run_case(&case);
    }
}

#[test]
fn the_fighting_and_melee_options_do_what_the_text_says() {
    for case in [
        Case {
            name: "knockdown",
            options: &["body_points"],
            a: r#"statistics = { style = "knockdown" }"#,
            b: TOUGH_B,
            more: "",
            expect: &[
                "modifiers 6 (knockdown)",
                "B stumbles: -2D to her next Agility roll",
                "B is still off balance: -2D",
                "B stands up (an action)",
                "target_prone_near",
            ],
        },
        Case {
            name: "push_too_strong",
            options: &[],
            a: r#"skills = { physique = "1D" }
statistics = { style = "push" }"#,
            b: "",
            more: "",
            expect: &["B is too strong for A to push: a plain attack instead"],
        },
        Case {
            name: "all_out",
            options: &["standard_modifiers"],
            a: r#"weapons = ["club"]
statistics = { style = "all_out" }"#,
            b: "",
            more: "",
            // Strength Damage 3D + 1D + 1D.
            expect: &["modifiers -6 (all_out): 4", "damage 5D"],
        },
        Case {
            name: "lunge",
            options: &["standard_modifiers"],
            a: r#"weapons = ["short_sword"]
statistics = { style = "lunge" }"#,
            b: "",
            more: "",
            // Strength Damage 3D + 1D+1 - 1D.
            expect: &["modifiers 3 (lunge): 13", "damage 3D+1"],
        },
        Case {
            name: "sweep",
            options: &["standard_modifiers"],
            a: r#"weapons = ["great_sword"]
statistics = { style = "sweep" }"#,
            b: "",
            more: "",
            // 10 - 6 + 5 (unwieldy) = 9; damage 3D + 2D+1 - 3D = 2D+1.
            expect: &["modifiers -1 (sweep, unwieldy weapon): 9", "damage 2D+1"],
        },
        Case {
            name: "acrobatic_trick",
            options: &[],
            a: r#"weapons = ["dagger"]
statistics = { style = "acrobatic_attack" }"#,
            b: "",
            more: "",
            expect: &["acrobatics 15, rolled", "the trick adds"],
        },
        Case {
            name: "all_out_leaves_no_defence",
            options: &[],
            a: r#"weapons = ["club"]
statistics = { style = "all_out" }"#,
            b: r#"weapons = ["club"]
statistics = { style = "attack" }"#,
            more: r#"[[choices]]
decision = "actions"
by = "A"
choose = "3""#,
            expect: &["A loses 2 actions"],
        },
    ] {
        run_case(&case);
    }
}

#[test]
fn called_shots_locations_disarms_and_breaking_things_do_what_the_text_says() {
    for case in [
        Case {
            name: "called_shot",
            options: &["standard_modifiers"],
            a: r#"weapons = ["club"]
statistics = { style = "called_shot" }"#,
            b: "",
            more: "",
            // +1D (+3) difficulty, +1D damage: Strength Damage 3D (lifting 5D) + 1D + 1D.
            expect: &["modifiers 3 (called shot): 13", "damage 5D"],
        },
        Case {
            name: "head",
            options: &["standard_modifiers", "body_points"],
            a: r#"weapons = ["club"]
statistics = { style = "hit_location" }"#,
            b: TOUGH_B,
            more: "",
            expect: &[
                "modifiers 5 (location head): 15",
                "damage modifiers 12",
                "B's head is hurt (head_hurt): -1 to the rolls it names",
            ],
        },
        Case {
            name: "chest",
            options: &["standard_modifiers", "body_points"],
            a: r#"weapons = ["club"]
statistics = { style = "hit_location" }"#,
            b: TOUGH_B,
            more: r#"[[choices]]
decision = "location"
by = "A"
choose = "chest""#,
            expect: &["B is hit in the chest: no active defence next round"],
        },
        Case {
            name: "arm_instead_of_wounds",
            options: &["location_effects_instead_of_wounds"],
            a: r#"weapons = ["club"]
statistics = { style = "hit_location" }"#,
            b: "",
            more: r#"[[choices]]
decision = "location"
by = "A"
choose = "arm""#,
            expect: &["B's arm is hurt (arm_hurt): -1D to the rolls it names"],
        },
        Case {
            name: "knockout",
            options: &[],
            a: r#"weapons = ["club"]
statistics = { style = "knockout" }"#,
            b: "",
            more: "",
            expect: &[
                "to knock out",
                "(half the Wound levels of a knockout blow)",
                "B is knocked out for",
            ],
        },
        Case {
            name: "disarm",
            options: &[],
            a: r#"weapons = ["club"]
statistics = { style = "disarm" }"#,
            b: r#"weapons = ["dagger"]
statistics = { style = "attack" }"#,
            more: "",
            expect: &["at the Dagger", "B drops the Dagger"],
        },
        Case {
            name: "keep_grip",
            options: &[],
            a: r#"skills = { acumen = "9D" }
weapons = ["dagger"]
statistics = { style = "disarm" }"#,
            b: r#"skills = { physique = "6D", acumen = "1D" }
weapons = ["club"]
statistics = { style = "attack" }"#,
            more: "",
            expect: &["B chooses keep grip: hold on", "B keeps hold of the Club"],
        },
        Case {
            name: "break",
            options: &[],
            a: r#"weapons = ["mace"]
statistics = { style = "break_weapon" }"#,
            b: r#"weapons = ["dagger"]"#,
            more: "",
            expect: &[
                "breaking the Dagger: skill total",
                "the Dagger is destroyed",
                "the Dagger is weakened: -1D to its Toughness",
            ],
        },
    ] {
        run_case(&case);
    }
}

#[test]
fn ranged_entangling_group_and_other_options_do_what_the_text_says() {
    for case in [
        Case {
            name: "entangle",
            options: &[],
            a: r#"weapons = ["bola"]"#,
            b: r#"skills = { agility = "4D" }"#,
            more: "distance = 5",
            expect: &[
                "B is entangled (to snap or slip it:",
                "B chooses action: slip free",
                "B is free",
            ],
        },
        Case {
            name: "group_attack",
            options: &[],
            a: r#"weapons = ["club"]
statistics = { style = "group_attack" }"#,
            b: "",
            more: r#"[[combatants]]
name = "C"
side = "a"
skills = { agility = "3D", physique = "3D", acumen = "1D", melee_combat = "4D" }
weapons = ["club"]
engaged = ["B"]"#,
            expect: &[
                "the group attacks B together: +1D each",
                "C strikes in the commanded group attack: +1D",
            ],
        },
        Case {
            name: "crouching_sniper",
            options: &["standard_modifiers"],
            a: r#"weapons = ["crossbow"]"#,
            b: r#"weapons = ["crossbow"]
statistics = { style = "sniper" }"#,
            more: "distance = 5",
            expect: &["B: crouching", "target_crouching", "reloads the Crossbow"],
        },
        Case {
            name: "shot_at_the_leg",
            options: &["standard_modifiers", "body_points"],
            a: r#"weapons = ["crossbow"]
statistics = { style = "shoot_at_location" }"#,
            b: TOUGH_B,
            more: r#"distance = 5
[[choices]]
decision = "location"
by = "A"
choose = "leg""#,
            expect: &[
                "A shoots Crossbow at B, at the leg",
                "modifiers 5 (location leg)",
                "damage modifiers -1",
                "B's leg is hurt (leg_hurt)",
            ],
        },
        Case {
            name: "melee_quick_draw",
            options: &[],
            a: r#"weapons = ["dagger"]
options = ["quick_draw", "sheathed"]"#,
            b: "",
            more: r#"[[choices]]
decision = "quick_draw"
by = "A"
choose = "announce"

[[choices]]
decision = "quick_draw_skill"
by = "A"
choose = "melee_combat""#,
            expect: &[
                "A announces a quick draw: melee_combat 8D",
                "A quick-draws the Dagger (no action, no penalty)",
            ],
        },
        Case {
            name: "surprise_first",
            options: &[],
            a: r#"options = ["surprises"]
weapons = ["club"]"#,
            b: "",
            more: "",
            expect: &["A surprises the enemy and acts first"],
        },
        Case {
            name: "unwieldy_and_blind",
            options: &["standard_modifiers"],
            a: r#"weapons = ["long_sword"]
modifiers = ["attacker_blind"]"#,
            b: r#"modifiers = ["target_blind"]"#,
            more: "",
            expect: &[
                "modifiers 5 (attacker blind, target blind or attacked from behind, unwieldy weapon): 15",
            ],
        },
        Case {
            name: "minimum_difficulty",
            options: &["standard_modifiers"],
            a: r#"weapons = ["club"]
statistics = { style = "all_out" }"#,
            b: r#"modifiers = ["target_blind"]"#,
            more: "",
            expect: &["modifiers -18 (all_out, target blind or attacked from behind): 3"],
        },
        Case {
            name: "wild_die_one",
            options: &["wild_die_one_subtracts"],
            a: r#"weapons = ["club"]"#,
            b: "",
            more: "",
            expect: &["A: a 1 on the Wild Die takes itself and the highest die"],
        },
        Case {
            name: "complication",
            options: &[],
            a: r#"weapons = ["club"]"#,
            b: "",
            more: "",
            expect: &["A: a 1 on the Wild Die, a complication: attack costs the next action"],
        },
        Case {
            name: "multiple_weapons",
            options: &[],
            a: r#"weapons = ["short_sword", "dagger"]"#,
            b: TOUGH_B,
            more: "",
            expect: &["A chooses weapon: short sword (of short sword, dagger; tactics)"],
        },
        Case {
            name: "sheathed",
            options: &[],
            a: r#"weapons = ["club"]
options = ["sheathed"]"#,
            b: "",
            more: "",
            expect: &[
                "A stows the Club",
                "A chooses action: ready weapon",
                "A readies the Club",
            ],
        },
    ] {
        run_case(&case);
    }
}

/// Scale: "the object may be large but lightly constructed (such as a hot air balloon).
/// At these times, the gamemaster should not add the scale modifier to the damage
/// resistance total."
#[test]
fn a_lightly_built_large_target_gets_no_scale_modifier_to_resistance() {
    for (option, larger) in [("", true), ("lightly_built", false)] {
        let dir = scratch(&format!("opend6-balloon-{option}"));
        let ruleset = root().join("rulesets/opend6");
        let scenario = format!(
            r#"ruleset = "{ruleset}"
title = "Balloon"

[[combatants]]
name = "A"
side = "a"
skills = {{ agility = "3D", acumen = "6D", physique = "3D", melee_combat = "8D" }}
weapons = ["club"]

[[combatants]]
name = "Balloon"
side = "b"
skills = {{ agility = "1D", acumen = "1D", physique = "1D" }}
statistics = {{ scale = 10 }}
options = ["extra", "{option}"]
engaged = ["A"]
"#,
            ruleset = ruleset.display().to_string().replace('\\', "/"),
        );
        let scenario = scenario.replace(", \"\"]", "]");
        fs::write(dir.join("balloon.toml"), scenario).unwrap();
        let mut seen_hit = false;
        for seed in 1..=20 {
            let output = affray(
                &dir,
                &["fight", "balloon.toml", "--seed", &seed.to_string()],
            );
            let log = text(&output.stdout);
            if log.contains("against resistance") {
                seen_hit = true;
                assert_eq!(log.contains("Balloon is larger: +10"), larger, "{log}");
                // No armour: a damage resistance total of zero, and no roll; the scale
                // modifier 10 on it unless lightly built.
                let resistance = if larger { 10 } else { 0 };
                assert!(
                    log.contains(&format!("against resistance {resistance}\n")),
                    "{log}"
                );
                assert!(!log.contains("damage resistance 0D"), "{log}");
            }
        }
        let _ = fs::remove_dir_all(&dir);
        assert!(seen_hit);
    }
}

// ---------------------------------------------------------------- given dice

/// Fight options that leave only the dice a test gives: the standard values of the
/// modifiers, and no Wild Die.
const NO_ROLLS: &str = r#""standard_modifiers", "no_wild_die""#;

/// One action each in round 1, and B does not defend actively the first time it could.
const ONE_ACTION_EACH: &str = r#"[[choices]]
decision = "actions"
who = "A"
choose = "1"

[[choices]]
decision = "actions"
who = "B"
choose = "1"

[[choices]]
decision = "defence"
who = "B"
choose = "none""#;

/// `A` against `B`, engaged (each a few lines of TOML: skills, weapons, statistics...),
/// under the fight `options`, with `choices` after them, fought with the given `dice`
/// (labelled, one a line): the log, up to where the dice run out.
fn given_dice(case: &str, options: &str, a: &str, b: &str, choices: &str, dice: &str) -> String {
    let scenario = format!(
        r#"ruleset = "{ruleset}"
title = "{case}"
options = [{options}]

[[combatants]]
name = "A"
side = "a"
{a}

[[combatants]]
name = "B"
side = "b"
{b}
engaged = ["A"]

{choices}
"#,
        ruleset = ruleset_path("opend6"),
    );
    fight_with_dice(&format!("opend6-{case}"), &scenario, dice)
}

/// Damage resistance, from the base rules' "Damage" chapter: "The damage resistance total
/// equals a roll of the target character's die codes from armor or special abilities
/// ... If the character has no armor or special abilities, then the character has a
/// damage resistance total of zero, and the player makes no roll." Physique joins the
/// roll only with the fight option `physique_resists`.
#[test]
fn damage_resistance_is_the_armour_alone_unless_physique_resists() {
    // A: Strength Damage 2D (Physique 3D) + the club's 1D = 3D; melee combat 4D.
    let a = r#"skills = { agility = "3D", acumen = "2D", physique = "3D", melee_combat = "4D" }
weapons = ["club"]
statistics = { style = "attack" }"#;
    let b = r#"skills = { agility = "2D", acumen = "1D", physique = "3D", melee_combat = "2D" }
statistics = { style = "pass" }"#;
    // A hits (16 against 10) for 4 + 4 + 4 = 12.
    let hit = "initiative 6\ninitiative 6\ninitiative 1\nattack 4\nattack 4\nattack 4\nattack 4\ndamage 4\ndamage 4\ndamage 4\n";

    // No armour: no roll, a resistance of 0; 12 beats it by 12: Incapacitated (9-12).
    let log = given_dice("resist-bare", NO_ROLLS, a, b, ONE_ACTION_EACH, hit);
    assert!(
        log.contains("Club: damage 12 against resistance 0"),
        "{log}"
    );
    assert!(!log.contains("damage resistance"), "{log}");
    assert!(
        log.contains("B is incapacitated (damage total beats resistance by 12)"),
        "{log}"
    );

    // Leather (+1D): its 1D is rolled, without B's Physique 3D; 12 - 3 = 9: Incapacitated.
    let leather = format!("{b}\narmour = {{ all = \"leather\" }}");
    let log = given_dice(
        "resist-leather",
        NO_ROLLS,
        a,
        &leather,
        ONE_ACTION_EACH,
        &format!("{hit}resistance 3\n"),
    );
    assert!(log.contains("1D6 damage resistance 1D for B → 3"), "{log}");
    assert!(
        log.contains("Club: damage 12 against resistance 3"),
        "{log}"
    );
    assert!(
        log.contains("B is incapacitated (damage total beats resistance by 9)"),
        "{log}"
    );

    // The variant: Physique 3D + leather 1D = 4D; 12 against 12: not hurt.
    let log = given_dice(
        "resist-physique",
        &format!("{NO_ROLLS}, \"physique_resists\""),
        a,
        &leather,
        ONE_ACTION_EACH,
        &format!("{hit}resistance 3\nresistance 3\nresistance 3\nresistance 3\n"),
    );
    assert!(
        log.contains("4D6 damage resistance 4D for B → 12 (dice showed 3, 3, 3, 3)"),
        "{log}"
    );
    assert!(
        log.contains("Club: damage 12 against resistance 12"),
        "{log}"
    );
    assert!(log.contains("B is not hurt"), "{log}");
}

/// Knockdown/Push/Trip: "Generally, unless the character has special training, he may
/// only knockdown or push a character whose Physique (including Special Abilities or
/// Disadvantage modifiers) is equal to or less than his own." Trip is not named: a
/// weaker attacker may trip, and may not knock down.
#[test]
fn a_weaker_attacker_may_trip_but_not_knock_down() {
    let b = r#"skills = { agility = "2D", acumen = "1D", physique = "3D", fighting = "2D" }
statistics = { style = "pass" }"#;
    // Fighting 4D: 20 against the difficulty.
    let dice = "initiative 6\ninitiative 6\ninitiative 1\nattack 5\nattack 5\nattack 5\nattack 5\n";
    let attacker = |option: &str| {
        format!(
            r#"skills = {{ agility = "3D", acumen = "2D", physique = "2D", fighting = "4D" }}
statistics = {{ style = "{option}" }}"#
        )
    };

    // Physique 2D against 3D: the trip goes on, +2D (+6) to the difficulty.
    let log = given_dice(
        "trip",
        NO_ROLLS,
        &attacker("trip"),
        b,
        ONE_ACTION_EACH,
        dice,
    );
    assert!(!log.contains("too strong"), "{log}");
    assert!(
        log.contains("combat difficulty 10 (base), modifiers 6 (trip): 16"),
        "{log}"
    );
    assert!(
        log.contains("B stumbles: -2D to her next Agility roll"),
        "{log}"
    );
    assert!(log.contains("B stands up (an action)"), "{log}");

    // The same attacker may not knock her down: a plain attack, at the base difficulty.
    let log = given_dice(
        "knockdown",
        NO_ROLLS,
        &attacker("knockdown"),
        b,
        ONE_ACTION_EACH,
        dice,
    );
    assert!(
        log.contains("B is too strong for A to knockdown: a plain attack instead"),
        "{log}"
    );
    assert!(log.contains("combat difficulty 10 (base): 10"), "{log}");
    assert!(!log.contains("B stumbles"), "{log}");
}

/// Hit Location Effects: "Chest: The character can do no more than passively defend in
/// the next round." A blow to the chest leaves the rest of its round alone: B, hit in the
/// chest by A's first attack, still dodges A's second; in the next round she cannot.
#[test]
fn a_blow_to_the_chest_leaves_only_passive_defence_in_the_next_round() {
    let a = r#"skills = { agility = "3D", acumen = "6D", physique = "3D", melee_combat = "4D" }
weapons = ["club"]
statistics = { body_points = 30, style = "attack" }"#;
    let b = r#"skills = { agility = "2D", acumen = "1D", physique = "2D", dodge = "4D" }
statistics = { body_points = 300, style = "pass" }"#;
    let choices = r#"[[choices]]
decision = "actions"
who = "A"
choose = "2"

[[choices]]
decision = "actions"
who = "B"
choose = "2"

[[choices]]
decision = "action"
who = "A"
round = 1
choose = "hit_location"

[[choices]]
decision = "location"
who = "A"
choose = "chest"

[[choices]]
decision = "defence"
who = "B"
choose = "none"

[[choices]]
decision = "defence"
who = "B"
choose = "dodge""#;
    // Round 1: A (two actions: melee combat 3D) hits the chest, 12 against 10, for 12;
    // B dodges the second attack (dodge 4D, -1D for her two actions, -1D stunned: 2D),
    // which hits anyway. Round 2: A (one action: 4D) hits again.
    let dice = "\
initiative 3\ninitiative 3\ninitiative 3\ninitiative 3\ninitiative 3\ninitiative 3\ninitiative 1
attack 4\nattack 4\nattack 4\ndamage 4\ndamage 4\ndamage 4
active 1\nactive 2\nattack 5\nattack 5\nattack 5\ndamage 2\ndamage 2\ndamage 2
initiative 3\ninitiative 3\ninitiative 3\ninitiative 3\ninitiative 3\ninitiative 3\ninitiative 1
attack 4\nattack 4\nattack 4\nattack 4\ndamage 1\ndamage 1\ndamage 1
";
    let log = given_dice(
        "chest",
        &format!("{NO_ROLLS}, \"body_points\""),
        a,
        b,
        choices,
        dice,
    );
    let (round_1, round_2) = log.split_once("Round 2").expect("a second round");
    let round_2 = round_2.split("Round 3").next().unwrap();
    assert!(
        round_1.contains("B is hit in the chest: no active defence next round"),
        "{log}"
    );
    assert!(
        round_1.contains("B chooses defence: dodge (of dodge, none; scenario)"),
        "{log}"
    );
    assert!(
        round_1.contains("B dodges: 3 is the combat difficulty for the rest of the round"),
        "{log}"
    );
    assert!(round_2.contains("B: passive only for 1 round"), "{log}");
    assert!(!round_2.contains("B chooses defence"), "{log}");
    assert!(round_2.contains("combat difficulty 10 (base): 10"), "{log}");
    assert!(round_2.contains("B: passive only ends"), "{log}");
}

/// A: melee combat 4D, Strength Damage 2D (Physique 3D) + the club's 1D = 3D.
const CLUB_A: &str = r#"skills = { agility = "3D", acumen = "2D", physique = "3D", melee_combat = "4D" }
weapons = ["club"]"#;
/// B: melee combat 2D, a club, leather (+1D).
const CLUB_B: &str = r#"skills = { agility = "2D", acumen = "1D", physique = "3D", melee_combat = "2D" }
weapons = ["club"]
armour = { all = "leather" }"#;

/// The native exchange of combat.toml (a plain close-combat duel): the active
/// defence rolled as it is declared and its total the combat difficulty; "-1D per extra
/// action"; the damage (Strength Damage + the weapon's code) against the armour's die
/// code; the Wound level by what beats it; a called Hit Location (no roll table) adding
/// its Difficulty Modifier (+1D (+5) for the head) and its Damage Modifier (+12).
#[test]
fn the_native_exchange_parries_first_and_wounds_by_the_margin_over_the_armour() {
    let (a, b) = (CLUB_A, CLUB_B);
    let choices = |action: &str| {
        format!(
            r#"[[choices]]
decision = "actions"
who = "A"
choose = "1"

[[choices]]
decision = "actions"
who = "B"
choose = "2"

[[choices]]
decision = "action"
who = "A"
choose = "{action}"

[[choices]]
decision = "location"
who = "A"
choose = "head"

[[choices]]
decision = "defence"
who = "B"
choose = "parry""#
        )
    };
    let options = NO_ROLLS.to_string();
    // B parries with 2D less 1D for her second action: 5. A's 4D: 16 meets 5. Damage
    // 3D: 12; the leather's 1D: 3; 12 beats 3 by 9: Incapacitated (9-12).
    let dice = "initiative 6\ninitiative 6\ninitiative 1\nparry 5\n\
                melee 4\nmelee 4\nmelee 4\nmelee 4\ndamage 4\ndamage 4\ndamage 4\narmour 3\n";
    let log = given_dice("native", &options, a, b, &choices("attack"), dice);
    assert!(
        log.contains("B chooses defence: parry (of dodge, parry, none; scenario)"),
        "{log}"
    );
    assert!(log.contains("1D6 parry for B → 5"), "{log}");
    assert!(
        log.contains("A: melee combat 5, rolled 16: success"),
        "{log}"
    );
    assert!(log.contains("3D6 damage for A → 12"), "{log}");
    // The resistance roll is the defender's; the parry's total is no test with a level
    // (`total_only`); the wound is the whole character's (no location table).
    assert!(log.contains("1D6 armour for B → 3"), "{log}");
    assert!(!log.contains("B: parry"), "{log}");
    assert!(log.contains("B: incapacitated (wound level)"), "{log}");
    assert!(log.contains("B is out of the fight"), "{log}");
    // The scripts played no part of it: they would log the difficulty and the parry.
    assert!(!log.contains("combat difficulty"), "{log}");
    assert!(!log.contains("B parries"), "{log}");

    // At the head: 5 + 5 = 10, met by 16; 12 + 12 = 24 beats 3 by 21: Dead.
    let log = given_dice(
        "native-head",
        &options,
        a,
        b,
        &choices("hit_location"),
        dice,
    );
    assert!(
        log.contains("A chooses location: head (of head, heart, chest, arm, leg, hand; scenario)"),
        "{log}"
    );
    assert!(
        log.contains("A: melee combat 10, rolled 16: success"),
        "{log}"
    );
    assert!(log.contains("B: dead (wound level)"), "{log}");
}

/// tactics.toml reads die codes (`dice(self.dice.melee_combat) >= 5`): a fighter with
/// five dice of melee combat declares two actions, one with four declares one, and an
/// extra one whatever his dice, as scripts/tactics.rhai's `choose_actions` did.
#[test]
fn the_tactics_declare_two_actions_with_five_dice_of_a_fighting_skill() {
    let a = r#"skills = { agility = "3D", acumen = "2D", physique = "3D", melee_combat = "5D" }
weapons = ["club"]"#;
    let b = r#"skills = { agility = "2D", acumen = "1D", physique = "3D", melee_combat = "4D+2" }
weapons = ["club"]"#;
    let dice = "initiative 6\ninitiative 6\ninitiative 6\n";
    let log = given_dice("tactics_dice", NO_ROLLS, a, b, "", dice);
    assert!(
        log.contains("A chooses actions: 2 (of 1, 2, 3; tactics)"),
        "{log}"
    );
    assert!(
        log.contains("B chooses actions: 1 (of 1, 2, 3; tactics)"),
        "{log}"
    );
    let extra = format!("{a}\noptions = [\"extra\"]");
    let log = given_dice("tactics_dice_extra", NO_ROLLS, &extra, b, "", dice);
    assert!(
        log.contains("A chooses actions: 1 (of 1, 2, 3; tactics)"),
        "{log}"
    );
}

/// The plain duel's actions are combat.toml's `[[action]]`s (where `[turn] hooks_if`
/// does not hold), offered in the order of the script's `options()`: with a club (blunt)
/// and two actions, the chapter's options for a blunt weapon, all-out only before the
/// first action. "pass" as the first action asks the stance, logs "A waits" and ends
/// the turn (A acts again after B); chosen after an action, it ends the turn there,
/// neither logged nor spent, as the script's own loop did.
#[test]
fn the_plain_duel_offers_the_chapters_options_as_data_and_a_wait_ends_the_turn() {
    let (a, b) = (CLUB_A, CLUB_B);
    let choices = |first: &str| {
        format!(
            r#"[[choices]]
decision = "actions"
who = "A"
choose = "2"

[[choices]]
decision = "actions"
who = "B"
choose = "1"

[[choices]]
decision = "action"
who = "A"
choose = "{first}"

[[choices]]
decision = "action"
who = "A"
choose = "pass"

[[choices]]
decision = "defence"
who = "B"
choose = "none""#
        )
    };
    // A's 4D of melee combat less 1D for the second action: 3 against 10, a miss.
    let dice = "initiative 6\ninitiative 6\ninitiative 1\nmelee 1\nmelee 1\nmelee 1\n";
    let log = given_dice("wait-after", NO_ROLLS, a, b, &choices("attack"), dice);
    assert!(
        log.contains("A chooses action: attack (of attack, all out, sweep, knockdown, push, trip, called shot, hit location, knockout, disarm, break weapon, pass; scenario)"),
        "{log}"
    );
    assert!(
        log.contains("A: melee combat 10, rolled 3: failure"),
        "{log}"
    );
    assert!(
        log.contains("A chooses action: pass (of attack, sweep, knockdown, push, trip, called shot, hit location, knockout, disarm, break weapon, pass; scenario)\n  B acts"),
        "{log}"
    );
    assert!(!log.contains("A waits"), "{log}");
    assert!(!log.contains("spends an action on pass"), "{log}");
    // The action A kept parries B's attack.
    assert!(
        log.contains("A spends an action on parry (0 left)"),
        "{log}"
    );

    // As the first action: the stance, then "A waits"; B's turn follows.
    let log = given_dice("wait-first", NO_ROLLS, a, b, &choices("pass"), dice);
    assert!(
        log.contains(
            "A chooses stance: stand (of stand, crouch, prone; tactics)\n    A waits\n  B acts"
        ),
        "{log}"
    );
}
