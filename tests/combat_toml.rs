//! The exchange pipeline run from `combat.toml` alone: the d100 fixture
//! (`tests/fixtures/d100_duel`, no script at all) fought with given dice, one test per
//! stage — reactions, their cost and the weapon they are made with, the outcome matrix,
//! manoeuvres bought with won levels (role, required level, weapon trait, not twice) and
//! read by later stages (`chosen.NAME`), damage with a dice statistic and `maximum(...)`,
//! a critical's extra dice, hit location, armour, wound thresholds and their actions,
//! the `after` rules.

mod common;

use common::{affray, copy_dir, root, scratch, text};

use std::fs;
use std::path::{Path, PathBuf};

/// Fight the fixture's duel with `dice` (and `choices`, TOML `[[choices]]` entries
/// appended to a copy of the scenario); its log and its error output.
fn duel(case: &str, dice: &str, choices: &str) -> (String, String) {
    duel_with(
        case,
        &root().join("tests/fixtures/d100_duel"),
        dice,
        choices,
    )
}

/// The same with the ruleset at `fixture`.
fn duel_with(case: &str, fixture: &Path, dice: &str, choices: &str) -> (String, String) {
    let dir = scratch(case);
    let scenario = fs::read_to_string(fixture.join("scenarios/duel.toml")).unwrap();
    let scenario = scenario.replace(
        "ruleset = \"d100_duel\"",
        &format!("ruleset = {:?}", fixture.to_string_lossy()),
    );
    fs::write(dir.join("duel.toml"), format!("{scenario}\n{choices}")).unwrap();
    fs::write(dir.join("dice.txt"), dice).unwrap();
    let output = affray(&dir, &["fight", "duel.toml", "--dice", "dice.txt"]);
    let _ = fs::remove_dir_all(&dir);
    (text(&output.stdout), text(&output.stderr))
}

/// A copy of the fixture in a scratch folder, with `edit` (file, text, replacement) made
/// in it and the `scripts` (file name, text) added: the folder and the ruleset's path.
fn fixture_copy(
    case: &str,
    edits: &[(&str, &str, &str)],
    scripts: &[(&str, &str)],
) -> (PathBuf, PathBuf) {
    let dir = scratch(case);
    let ruleset = dir.join("d100_duel");
    copy_dir(&root().join("tests/fixtures/d100_duel"), &ruleset);
    for (file, from, to) in edits {
        let path = ruleset.join(file);
        let written = fs::read_to_string(&path).unwrap();
        let edited = if from.is_empty() {
            format!("{written}{to}")
        } else {
            written.replace(from, to)
        };
        assert_ne!(written, edited, "`{from}` moved in {file}");
        fs::write(&path, edited).unwrap();
    }
    fs::create_dir_all(ruleset.join("scripts")).unwrap();
    for (file, text) in scripts {
        fs::write(ruleset.join("scripts").join(file), text).unwrap();
    }
    (dir, ruleset)
}

/// A report's text on one line: its words with single spaces, the margin's `│` left
/// out, so that where a diagnostic wraps (the length of the scratch folder's path moves
/// it) does not matter.
fn flat(report: &str) -> String {
    report
        .split_whitespace()
        .filter(|word| *word != "│")
        .collect::<Vec<_>>()
        .join(" ")
}

fn has(log: &str, line: &str) {
    assert!(log.contains(line), "no line `{line}` in:\n{log}");
}

#[test]
fn a_parry_that_matches_the_attack_deflects_by_the_sizes_of_the_weapons() {
    // Initiative: Bryn 16 + 1, Aldric 11 + 1. Bryn attacks at 70 and rolls 30, Aldric
    // parries at 65 and rolls 30: both succeed, the matrix gives nobody a level and the
    // blow lands on the parry. His shield (large) against her dagger (small): 2 sizes
    // up, all deflected: her 1D4 = 3 reaches no location (no die for one).
    // Then Aldric's broadsword (medium) at 40 against her parry at 40 with the dagger
    // (small): one size down, half deflected: 1D8 = 6 and 1D4 = 3, 9, 4 deflected, 5 at
    // the body less 1 armour: 4 taken, 2 left there, a minor wound.
    let (log, error) = duel("parried", "1 1\n30 30 3\n40 40 6 3 5\n", "");
    has(
        &log,
        "Aldric chooses reaction: parry (of parry, dodge, none; tactics)",
    );
    has(&log, "Aldric spends an action on parry (1 left)");
    has(&log, "Bryn: attack 70, rolled 30: success");
    has(&log, "Aldric: parry 65, rolled 30: success");
    has(&log, "Aldric deflects 3");
    assert!(!log.contains("Aldric takes"), "{log}");
    has(&log, "Bryn: parry 70, rolled 40: success");
    has(&log, "Bryn deflects 4");
    has(&log, "Bryn takes 4 to body, 2 HP left there");
    has(&log, "Bryn: minor wound to body");
    assert!(!log.contains("manoeuvre"), "{log}");
    has(&error, "the given dice ran out");
}

#[test]
fn a_parry_may_stop_the_armour_points_of_the_weapon_it_is_made_with() {
    // The same blows as above, with a parry that stops what the parrying weapon's Armour
    // Points stop (`parry.ap`, equipment.toml's `ap`): the round shield (4) stops all of
    // the dagger's 3; the dagger (2) stops 2 of the broadsword's 9.
    let (dir, ruleset) = fixture_copy(
        "parry_ap",
        &[
            (
                "combat.toml",
                r#"rolled * lookup("parry_reduction", rank(parry.size) - rank(weapon.size)) / 100"#,
                "min(rolled, parry.ap)",
            ),
            (
                "equipment.toml",
                "damage = \"1d4\"\n",
                "damage = \"1d4\"\nap = 2\n",
            ),
            (
                "equipment.toml",
                "damage = \"1d3\"\n",
                "damage = \"1d3\"\nap = 4\n",
            ),
        ],
        &[],
    );
    let (log, _) = duel_with(
        "parry_ap_fight",
        &ruleset,
        "1 1\n30 30 3\n40 40 6 3 5\n",
        "",
    );
    let _ = fs::remove_dir_all(&dir);
    has(&log, "Aldric deflects 3");
    has(&log, "Bryn deflects 2");
    has(&log, "Bryn takes 6 to body");
}

#[test]
fn the_exchange_reads_the_numbers_of_a_weapons_values() {
    // The same blows as above, read of equipment.toml's `values`: the damage adds the
    // attacker's weapon's `bonus` (the broadsword's 2; the dagger gives none, 0), a parry
    // stops the parrying weapon's `stops` (the round shield's 1, the dagger's 2), a
    // test's target adds the weapon's `bonus` (Aldric's attack 65 + 2; his parry with the
    // shield, which gives none, 65). Bryn's dagger: 1D4 = 3 + 0, 1 deflected: 2 at the location (5: body) less 1
    // armour, 1 taken. Aldric's broadsword: 1D8 = 6 + 1D4 = 3 + 2 = 11, 2 deflected,
    // 9 at the body less 1 armour: 8 taken.
    let (dir, ruleset) = fixture_copy(
        "weapon_values",
        &[
            (
                "combat.toml",
                r#"rolled * lookup("parry_reduction", rank(parry.size) - rank(weapon.size)) / 100"#,
                "min(rolled, parry.value.stops)",
            ),
            (
                "combat.toml",
                "target = \"self.skill.combat - ",
                "target = \"self.skill.combat + weapon.value.bonus - ",
            ),
            (
                "combat.toml",
                "+ attacker.statistic.damage_modifier\n",
                "+ attacker.statistic.damage_modifier + weapon.value.bonus\n",
            ),
            (
                "equipment.toml",
                "damage = \"1d8\"\n",
                "damage = \"1d8\"\nvalues = { bonus = 2, grip = \"hand and a half\" }\n",
            ),
            (
                "equipment.toml",
                "damage = \"1d4\"\n",
                "damage = \"1d4\"\nvalues = { stops = 2 }\n",
            ),
            (
                "equipment.toml",
                "damage = \"1d3\"\n",
                "damage = \"1d3\"\nvalues = { stops = 1 }\n",
            ),
        ],
        &[],
    );
    let (log, _) = duel_with(
        "weapon_values_fight",
        &ruleset,
        "1 1\n30 30 3 5\n40 40 6 3 5\n",
        "",
    );
    has(&log, "Bryn: attack 70, rolled 30: success");
    has(&log, "Aldric: parry 65, rolled 30: success");
    has(&log, "Aldric: attack 67, rolled 40: success");
    has(&log, "Aldric deflects 1");
    has(&log, "Aldric takes 1 to body");
    has(&log, "Bryn deflects 2");
    has(&log, "Bryn takes 8 to body");

    // A tactics list reads them of the weapons in hand: Bryn, whose dagger stops more
    // than 1, dodges rather than parries, and Aldric's blow misses.
    let tactics = ruleset.join("tactics.toml");
    let written = fs::read_to_string(&tactics).unwrap();
    fs::write(
        &tactics,
        format!("[[reaction]]\nif = \"any(weapons, item.value.stops > 1)\"\nchoose = \"dodge\"\n{written}"),
    )
    .unwrap();
    let (log, _) = duel_with(
        "weapon_values_tactics",
        &ruleset,
        "1 1\n30 30 3 5\n40 40\n",
        "",
    );
    has(&log, "Aldric chooses reaction: parry");
    has(&log, "Bryn chooses reaction: dodge");
    assert!(!log.contains("Bryn takes"), "{log}");

    // A name no weapon or shield gives a number is refused, with the names that are.
    let combat = ruleset.join("combat.toml");
    let written = fs::read_to_string(&combat).unwrap();
    for (misspelt, help) in [
        ("parry.value.stop", "did you mean `stops`?"),
        ("parry.value.grip", "known here: bonus, stops"),
    ] {
        fs::write(&combat, written.replace("parry.value.stops", misspelt)).unwrap();
        let check = affray(&dir, &["check", "d100_duel"]);
        let report = text(&check.stderr);
        assert!(!check.status.success(), "{report}");
        has(&report, &format!("`{misspelt}`"));
        has(&report, help);
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_weapon_may_name_the_skill_it_is_tested_and_logged_with() {
    // The same blows as above, where each weapon names its skill (equipment.toml's
    // `skill`) and the test reads it (`self.weapon_skill`) and is logged under it
    // (`skill_of = "weapon"`): Bryn's dagger at her Knife 70, Aldric's shield parry at
    // his Shield 50, his broadsword at his Sword 45, her dagger's parry at Knife 70.
    let (dir, ruleset) = fixture_copy(
        "weapon_skill",
        &[
            (
                "combat.toml",
                "[tests.skill]\nroll = \"1d100\"\ntarget = \"self.skill.combat",
                "[tests.skill]\nskill_of = \"weapon\"\nroll = \"1d100\"\ntarget = \"self.weapon_skill",
            ),
            (
                "equipment.toml",
                "damage = \"1d8\"\n",
                "damage = \"1d8\"\nskill = \"sword\"\n",
            ),
            (
                "equipment.toml",
                "damage = \"1d4\"\n",
                "damage = \"1d4\"\nskill = \"knife\"\n",
            ),
            (
                "equipment.toml",
                "damage = \"1d3\"\n",
                "damage = \"1d3\"\nskill = \"shield\"\n",
            ),
            (
                "scenarios/duel.toml",
                "skills = { combat = 65,",
                "skills = { sword = 45, shield = 50, combat = 65,",
            ),
            (
                "scenarios/duel.toml",
                "skills = { combat = 70,",
                "skills = { knife = 70, combat = 70,",
            ),
        ],
        &[],
    );
    let (log, _) = duel_with(
        "weapon_skill_fight",
        &ruleset,
        "1 1\n30 30 3\n40 40 6 3 5\n",
        "",
    );
    let _ = fs::remove_dir_all(&dir);
    has(&log, "Bryn: knife 70, rolled 30: success");
    has(&log, "Aldric: shield 50, rolled 30: success");
    has(&log, "Aldric: sword 45, rolled 40: success");
    has(&log, "Bryn: knife 70, rolled 40: success");
}

/// The fixture with its parry read on a table of results (RuneQuest's way): declared
/// only after a successful attack roll, the attacker rolling again against it, the
/// cell's words read by `hits`, `reduction` and an `after` rule.
fn fixture_with_results(case: &str) -> (PathBuf, PathBuf) {
    fixture_copy(
        case,
        &[
            (
                "tables/combat.tables",
                "",
                r#"
matrix parry_results "Parry" rows attacker by success_level cols defender by success_level {
  |          | critical       | success      | failure      | fumble       |
  | critical | deduct 50%     | deduct 50%   | critical_hit | critical_hit |
  | success  | misses riposte | deduct 100%  | hits         | hits         |
  | failure  | misses riposte | deduct 200%  | hits         | hits         |
  | fumble   | misses         | misses       | misses       | misses       |
}
"#,
            ),
            (
                "combat.toml",
                "unopposed = \"failure\"\n",
                "unopposed = \"failure\"\nreactions_after = 'attack.level == \"critical\" or attack.level == \"success\"'\n",
            ),
            (
                "combat.toml",
                r#"hits = 'outcome.attacker or ((attack.level == "critical" or attack.level == "success") and not reaction.dodge)'"#,
                r#"hits = 'not outcome.misses and (outcome.attacker or attack.level == "critical" or attack.level == "success")'"#,
            ),
            (
                "combat.toml",
                r#"rolled * lookup("parry_reduction", rank(parry.size) - rank(weapon.size)) / 100"#,
                "min(rolled, parry.ap * outcome.deduct / 100)",
            ),
            (
                "combat.toml",
                "free = \"defender.value.guard > 0\"\n",
                "free = \"defender.value.guard > 0\"\noutcome = \"parry_results\"\nattacker_rolls_again = \"true\"\n",
            ),
            (
                "combat.toml",
                "",
                "\n[[exchanges.melee.after]]\nto = \"attacker\"\nif = \"outcome.riposte\"\ndo = \"condition bleeding\"\n",
            ),
            (
                "equipment.toml",
                "damage = \"1d3\"\n",
                "damage = \"1d3\"\nap = 2\n",
            ),
        ],
        &[],
    )
}

#[test]
fn a_reaction_declared_after_a_successful_attack_reads_its_table_of_results() {
    // Initiative: Bryn first. Her attack (70) rolls 30, a success: only now does Aldric
    // choose his reaction, and parries (65) with 30, a success. She rolls again against
    // the parry, 50, a success: the table's cell for success against success deducts
    // 100% of the round shield's 2 AP from her dagger's 3: 1 reaches the body (the
    // location 5), through 1 armour: nothing. Aldric's attack then rolls 90, a failure:
    // no reaction is offered against it.
    let (dir, ruleset) = fixture_with_results("results");
    let (log, _) = duel_with("results_fight", &ruleset, "1 1\n30 30 50 3 5\n90\n", "");
    let _ = fs::remove_dir_all(&dir);
    has(&log, "Bryn: attack 70, rolled 30: success");
    has(
        &log,
        "Aldric chooses reaction: parry (of parry, dodge, none; tactics)",
    );
    has(&log, "Aldric: parry 65, rolled 30: success");
    has(&log, "Bryn: against the parry 70, rolled 50: success");
    has(&log, "parry_results table: deduct 100%");
    has(&log, "Aldric deflects 2");
    has(&log, "Aldric: attack 65, rolled 90: failure");
    assert_eq!(log.matches("chooses reaction").count(), 1, "{log}");
}

#[test]
fn a_word_of_the_table_of_results_stops_the_blow_and_starts_an_after_rule() {
    // The same attack, parried with a critical (3 against 65): the cell for her success
    // (50) against it is `misses riposte`: no damage, and the `after` rule on `riposte`
    // makes her bleed.
    let (dir, ruleset) = fixture_with_results("results_misses");
    let (log, error) = duel_with("results_misses_fight", &ruleset, "1 1\n30 3 50\n", "");
    let _ = fs::remove_dir_all(&dir);
    has(&log, "Aldric: parry 65, rolled 3: critical");
    has(&log, "parry_results table: misses riposte");
    assert!(!log.contains("1D4 damage"), "{log}");
    has(&log, "Bryn: bleeding");
    has(&error, "the given dice ran out");
}

#[test]
fn a_won_parry_buys_a_manoeuvre_with_the_shield_and_a_won_attack_lands_through_armour() {
    // Bryn fails (80) against Aldric's parry (30): defender 1. Aldric parries with the
    // shield (`weapon = "shield"`), so Shield Bash is his to buy: Bryn loses an action,
    // and has none left to parry with. Aldric's 10 then beats the unopposed failure:
    // attacker 1, bought as Maximise Damage (the broadsword's 1D8 does 8) plus the
    // damage modifier 1D4 = 2; the body (1D10 = 5, 6 HP) takes 10 less 1 armour: -3 left
    // there, a serious wound, and another action lost.
    let (log, _) = duel("serious", "1 1\n80 30\n10 2 5\n", "");
    has(&log, "Bryn: attack 70, rolled 80: failure");
    has(&log, "Aldric: parry 65, rolled 30: success");
    has(
        &log,
        "Aldric chooses manoeuvre: shield bash (of stagger, trip, shield bash, redirect blow; tactics)",
    );
    has(&log, "Aldric: attack 65, rolled 10: success");
    assert!(!log.contains("Bryn chooses reaction"), "{log}");
    has(
        &log,
        "Aldric chooses manoeuvre: maximise damage (of maximise damage, choose location, stagger, trip; tactics)",
    );
    assert!(
        !log.contains("1D8"),
        "a maximised die is not rolled:\n{log}"
    );
    has(&log, "1D4 damage for Aldric → 2");
    has(&log, "hit location for Bryn: 5 → Body");
    has(&log, "Bryn takes 9 to body, -3 HP left there");
    has(&log, "Bryn: serious wound to body");
    assert_eq!(log.matches("Bryn loses 1 action").count(), 2, "{log}");
}

#[test]
fn a_critical_buys_bypass_armour_and_rolls_the_weapon_again() {
    // Aldric leaves Bryn's attack unparried (a scripted `none`): no action spent, and
    // the defence counts as a failure. Her critical (3: at most 70 / 20 rounded up = 4)
    // wins 2 levels: Bypass Armour (only on a critical) and Maximise Damage. Damage:
    // the dagger's most, 4, the damage modifier 0, the dagger again for the critical,
    // 1D4 = 4: 8 on the left leg (1D10 = 4, 5 HP), no armour: -3 left, serious.
    let choices = "[[choices]]\ndecision = \"reaction\"\nby = \"Aldric\"\nchoose = \"none\"\n";
    let (log, _) = duel("critical", "1 1\n3 4 4\n", choices);
    has(&log, "Bryn: attack 70, rolled 3: critical");
    assert!(!log.contains("Aldric spends an action"), "{log}");
    has(
        &log,
        "Bryn chooses manoeuvre: bypass armour (of bypass armour, maximise damage, choose location, stagger, trip, bleed; tactics)",
    );
    has(
        &log,
        "Bryn chooses manoeuvre: maximise damage (of maximise damage, choose location, stagger, trip, bleed; tactics)",
    );
    has(&log, "Aldric takes 8 to left leg, -3 HP left there");
    has(&log, "Aldric: serious wound to left leg");
}

#[test]
fn a_major_wound_knocks_out() {
    // As above, Aldric's shield bash leaves Bryn without a parry; his 10 lands for 8
    // (maximised) + 1 (1D4) on the right arm (1D10 = 7, 3 HP) less 1 armour: -5, at or
    // below minus its 3 hit points: a major wound, unconscious, out of the fight.
    let (log, _) = duel("major", "1 1\n80 30\n10 1 7\n", "");
    has(&log, "Bryn takes 8 to right arm, -5 HP left there");
    has(&log, "Bryn: major wound to right arm");
    has(&log, "Bryn: unconscious");
    has(&log, "Bryn is out of the fight");
    has(&log, "Won by red after 1 round");
}

#[test]
fn a_dodge_is_its_own_test_and_a_trip_is_resisted_against_it() {
    // Aldric dodges (scripted) at 30 with a 2, a critical, against Bryn's failure (90):
    // defender 2. Without a shield in hand Shield Bash is not his: Stagger, then Trip,
    // each once. Bryn resists the trip with her Dodge (55): 40, a success, does not beat
    // his critical: prone for the round.
    let choices = "[[choices]]\ndecision = \"reaction\"\nby = \"Aldric\"\nchoose = \"dodge\"\n";
    let (log, _) = duel("dodge", "1 1\n90 2 40\n", choices);
    has(&log, "Aldric chooses reaction: dodge");
    has(&log, "Aldric: dodge 30, rolled 2: critical");
    has(
        &log,
        "Aldric chooses manoeuvre: stagger (of stagger, trip, redirect blow; tactics)",
    );
    has(
        &log,
        "Aldric chooses manoeuvre: trip (of trip, redirect blow; tactics)",
    );
    has(&log, "Bryn: off balance for 1 round");
    has(
        &log,
        "Bryn: dodge 55, rolled 40: success\n    Bryn fails to resist the original roll of 2 (a better level wins, then the higher roll)\n    Bryn: prone for 1 round",
    );
}

#[test]
fn a_resistance_with_the_same_level_and_a_higher_roll_holds() {
    // Aldric's dodge of 20 (a success) against Bryn's 90: defender 1, spent (scripted)
    // on Trip. Bryn's Dodge of 25 is a success too, and higher: she stays on her feet.
    let choices = "[[choices]]\ndecision = \"reaction\"\nby = \"Aldric\"\nchoose = \"dodge\"\n\n\
                   [[choices]]\ndecision = \"manoeuvre\"\nby = \"Aldric\"\nchoose = \"trip\"\n";
    let (log, _) = duel("resisted", "1 1\n90 20 25\n", choices);
    has(&log, "Aldric: dodge 30, rolled 20: success");
    has(
        &log,
        "Aldric chooses manoeuvre: trip (of stagger, trip, redirect blow; scenario)",
    );
    has(&log, "Bryn: dodge 55, rolled 25: success\n    Bryn resists");
    assert!(!log.contains("prone"), "{log}");
}

#[test]
fn a_test_kind_compared_by_margin_is_won_by_who_passes_by_more() {
    // Dodge compared by margin (`compare = "margin"`, `target - roll`): Bryn resists
    // Aldric's Trip only by passing by as much as his dodge, or more.
    let margin = (
        "combat.toml",
        "target = \"self.skill.dodge\"\nlevel_list = \"d100\"\n",
        "target = \"self.skill.dodge\"\nlevel_list = \"d100\"\npass = [\"critical\", \"success\"]\ncompare = \"margin\"\n",
    );
    let (dir, ruleset) = fixture_copy("margin", &[margin], &[]);
    let trip = "[[choices]]\ndecision = \"reaction\"\nby = \"Aldric\"\nchoose = \"dodge\"\n\n\
                [[choices]]\ndecision = \"manoeuvre\"\nby = \"Aldric\"\nchoose = \"trip\"\n";
    // Both succeed: Aldric's 20 of 30 by 10, Bryn's 50 of 55 by 5. The higher roll
    // would resist (a_resistance_with_the_same_level_and_a_higher_roll_holds); the
    // smaller margin does not.
    let (log, _) = duel_with("margin_smaller", &ruleset, "1 1\n90 20 50\n", trip);
    has(&log, "Aldric: dodge 30, rolled 20: success");
    has(
        &log,
        "Bryn: dodge 55, rolled 50: success\n    Bryn fails to resist the original roll of 20 (who passes by more wins)\n    Bryn: prone for 1 round",
    );
    // Aldric's 2 is a critical, by 28; Bryn's 10 a mere success, by 45: the better
    // level would win (a_dodge_is_its_own_test_and_a_trip_is_resisted_against_it); the
    // greater margin wins.
    let dodge = "[[choices]]\ndecision = \"reaction\"\nby = \"Aldric\"\nchoose = \"dodge\"\n";
    let (log, _) = duel_with("margin_critical", &ruleset, "1 1\n90 2 10\n", dodge);
    has(&log, "Aldric: dodge 30, rolled 2: critical");
    has(&log, "Bryn: dodge 55, rolled 10: success\n    Bryn resists");
    assert!(!log.contains("prone"), "{log}");
    // A margin of the kind's own, in tens: Aldric's 20 by 1, Bryn's 45 by 1, a tie that
    // nobody wins, and she stands; her 50 by 0 loses.
    let combat = ruleset.join("combat.toml");
    let written = fs::read_to_string(&combat).unwrap();
    fs::write(
        &combat,
        written.replace(
            "compare = \"margin\"\n",
            "compare = \"margin\"\nmargin = \"(target - roll) / 10\"\n",
        ),
    )
    .unwrap();
    let (tied, _) = duel_with("margin_tied", &ruleset, "1 1\n90 20 45\n", trip);
    let (lost, _) = duel_with("margin_lost", &ruleset, "1 1\n90 20 50\n", trip);
    let _ = fs::remove_dir_all(&dir);
    has(
        &tied,
        "Bryn: dodge 55, rolled 45: success\n    Bryn resists",
    );
    assert!(!tied.contains("prone"), "{tied}");
    has(
        &lost,
        "Bryn fails to resist the original roll of 20 (who passes by more wins)",
    );
}

#[test]
fn a_contest_by_margin_with_equal_margins_is_nobodys_win() {
    // After each attack the attacker contests Dodge against the defender's Dodge, or
    // falls prone. Bryn's attack (90) and Aldric's parry (90) fail. Then Bryn's dodge of
    // 45 (of 55) against Aldric's 20 (of 30): both succeed by 10. By levels, her higher
    // roll wins; by margin the two tie, nobody wins, and she does not: prone. With 35
    // (by 20) she wins by margin too.
    let after = (
        "combat.toml",
        "",
        "\n[[exchanges.melee.after]]\nif = \"true\"\nto = \"attacker\"\ndo = \"set foe (defender.number), contest dodge against dodge of foe or condition prone for 1 round\"\n",
    );
    let pass = (
        "combat.toml",
        "target = \"self.skill.dodge\"\nlevel_list = \"d100\"\n",
        "target = \"self.skill.dodge\"\nlevel_list = \"d100\"\npass = [\"critical\", \"success\"]\n",
    );
    let margin = (
        "combat.toml",
        "target = \"self.skill.dodge\"\nlevel_list = \"d100\"\n",
        "target = \"self.skill.dodge\"\nlevel_list = \"d100\"\npass = [\"critical\", \"success\"]\ncompare = \"margin\"\n",
    );
    for (case, compare, dice, prone) in [
        ("contest_levels", pass, "1 1\n90 90\n45 20\n", false),
        ("contest_margin_tied", margin, "1 1\n90 90\n45 20\n", true),
        ("contest_margin_won", margin, "1 1\n90 90\n35 20\n", false),
    ] {
        let (dir, ruleset) = fixture_copy(case, &[after, compare], &[]);
        let (log, _) = duel_with(case, &ruleset, dice, "");
        let _ = fs::remove_dir_all(&dir);
        has(&log, "Bryn: attack 70, rolled 90: failure");
        has(&log, "Aldric: dodge 30, rolled 20: success");
        assert_eq!(log.contains("Bryn: prone"), prone, "{case}:\n{log}");
        if prone {
            has(
                &log,
                "Bryn does not win the contest against Aldric (who passes by more wins)",
            );
        } else {
            has(&log, "Bryn wins the contest against Aldric");
        }
    }
}

#[test]
fn a_fumbled_attack_rolls_on_the_fumble_table_after_the_manoeuvres() {
    // Bryn rolls 99 (a fumble) against Aldric's parry of 50: defender 2, Shield Bash and
    // Stagger chosen; the fumble rule is done `at = "outcome"`, before the blow, so the
    // fumble table's 2, Stumble, comes before the manoeuvres' actions befall Bryn in the
    // list's order.
    let (log, _) = duel("fumble", "1 1\n99 50 2\n", "");
    has(&log, "Bryn: attack 70, rolled 99: fumble");
    has(
        &log,
        "fumble for Bryn: 2 → Stumble\n    Bryn loses 1 action\n    Bryn: off balance for 1 round\n    Bryn loses 1 action",
    );
}

#[test]
fn situational_modifiers_apply_where_their_guards_hold() {
    // After Bryn is staggered and tripped (off balance and prone for the round, as
    // above), Aldric's attack on her is at 65 + 20 (a prone target) and her parry at
    // 70 - 20 (off balance) - 20 (defending while prone).
    let choices = "[[choices]]\ndecision = \"reaction\"\nby = \"Aldric\"\nchoose = \"dodge\"\n";
    let (log, _) = duel("prone", "1 1\n90 2 40\n80 45\n", choices);
    has(&log, "Bryn: prone for 1 round");
    has(&log, "Aldric: attack 85, rolled 80: success");
    has(&log, "Bryn: parry 30, rolled 45: failure");

    // Unstable ground, given to Bryn by the scenario: her attack is at 70 - 20.
    let (log, _) = duel(
        "ground",
        "1 1\n30 40\n",
        "modifiers = [\"unstable_ground\"]\n",
    );
    has(&log, "Bryn: attack 50, rolled 30: success");
    has(&log, "Aldric: parry 65, rolled 40: success");
}

#[test]
fn a_winner_who_buys_choose_location_picks_where_the_blow_lands() {
    // Aldric's 10 beats Bryn's parry of 98: attacker 1, spent (scripted) on Choose
    // Location; the tactics pick the head; no location die is rolled. 1D8 = 3 and
    // 1D4 = 1, less 1 armour: 3 to the head (4 HP), 1 left.
    let choices =
        "[[choices]]\ndecision = \"manoeuvre\"\nby = \"Aldric\"\nchoose = \"choose_location\"\n";
    let (log, _) = duel("location", "1 1\n80 97\n10 98 3 1\n", choices);
    has(&log, "Aldric chooses manoeuvre: choose location");
    has(&log, "Aldric chooses location: head");
    assert!(!log.contains("hit location for Bryn"), "{log}");
    has(&log, "Bryn takes 3 to head, 1 HP left there");
}

#[test]
fn a_heavy_blow_knocks_down_unless_a_test_on_its_own_passes() {
    // The blow of the serious-wound test above rolled 10 (8 or more): Bryn is knocked
    // back (10 - 6) / 2 = 2 metres and tests Athletics (60). A 70 fails: prone for the
    // round; a 30 passes.
    let (log, _) = duel("knocked", "1 1\n80 30\n10 2 5 70\n", "");
    has(&log, "Bryn takes 9 to body, -3 HP left there");
    has(
        &log,
        "Bryn is knocked back 2 m\n    1D100 athletics for Bryn → 70\n    Bryn: athletics 60, rolled 70: failure\n    Bryn: prone for 1 round",
    );
    let (log, _) = duel("stands", "1 1\n80 30\n10 2 5 30\n", "");
    has(&log, "Bryn: athletics 60, rolled 30: success");
    assert!(!log.contains("prone"), "{log}");
}

#[test]
fn a_knockback_before_the_armour_comes_between_the_location_and_the_damage_taken() {
    // The same blow with the knockback judged once the location is known, before the
    // armour (`at = "armour"`, RuneQuest's order): the location die (5, the body), then
    // the knockback and its Athletics test, then the damage taken and the wound.
    let (dir, ruleset) = fixture_copy(
        "knockback_armour",
        &[(
            "combat.toml",
            "metres = \"(rolled - 6) / 2\"\n",
            "metres = \"(rolled - 6) / 2\"\nat = \"armour\"\n",
        )],
        &[],
    );
    let (log, _) = duel_with(
        "knockback_armour_fight",
        &ruleset,
        "1 1\n80 30\n10 2 5 70\n",
        "",
    );
    let _ = fs::remove_dir_all(&dir);
    let knocked = log.find("Bryn is knocked back 2 m").expect(&log);
    let taken = log.find("Bryn takes 9 to body").expect(&log);
    let location = log.find("hit location").expect(&log);
    assert!(location < knocked && knocked < taken, "{log}");
    has(&log, "Bryn: athletics 60, rolled 70: failure");
}

#[test]
fn a_wound_level_comes_once_per_location_where_the_exchange_says_so() {
    // Neither reacts. Bryn's dagger hits Aldric's body twice at its maximum (4, less 1
    // armour): 4 HP left there, a minor wound; then 1 left, minor again, which is no new
    // wound where `wounds_once_per_location` holds (Aldric's own attack between rolls
    // 90 and misses).
    let choices = "[[choices]]\ndecision = \"reaction\"\nby = \"Aldric\"\nchoose = \"none\"\n\n\
        [[choices]]\ndecision = \"reaction\"\nby = \"Bryn\"\nchoose = \"none\"\n\n\
        [[choices]]\ndecision = \"reaction\"\nby = \"Aldric\"\nchoose = \"none\"\n";
    let dice = "1 1\n30 5\n90\n30 5\n";
    let (log, _) = duel("wounds_each_time", dice, choices);
    has(&log, "Aldric takes 3 to body, 1 HP left there");
    assert_eq!(
        log.matches("Aldric: minor wound to body").count(),
        2,
        "{log}"
    );

    let (dir, ruleset) = fixture_copy(
        "wounds_once",
        &[(
            "combat.toml",
            "location = \"hit_location\"\n",
            "location = \"hit_location\"\nwounds_once_per_location = true\n",
        )],
        &[],
    );
    let (log, _) = duel_with("wounds_once_fight", &ruleset, dice, choices);
    let _ = fs::remove_dir_all(&dir);
    has(&log, "Aldric takes 3 to body, 1 HP left there");
    assert_eq!(
        log.matches("Aldric: minor wound to body").count(),
        1,
        "{log}"
    );
}

#[test]
fn a_round_rule_may_ask_a_decision_among_the_options_whose_guards_hold() {
    // At the first round's start each chooses an opening: Aldric, with a shield, among
    // both options (the scenario has him stumble); Bryn, without one, is offered only
    // `bleed` and takes it without being asked.
    // The scenario's choice is checked against the options the rule offers.
    let (dir, ruleset) = fixture_copy(
        "round_decision",
        &[
            (
                "combat.toml",
                "",
                "\n[[round_start]]\nif = \"round == 1\"\ndecision = \"opening\"\n\
                 [[round_start.option]]\nname = \"bleed\"\ndo = \"condition bleeding\"\n\
                 [[round_start.option]]\nname = \"stumble\"\nif = \"self.holds.shield\"\ndo = \"condition prone\"\n",
            ),
            (
                "scenarios/duel.toml",
                "",
                "\n[[choices]]\ndecision = \"opening\"\nby = \"Aldric\"\nchoose = \"stumble\"\n",
            ),
        ],
        &[],
    );
    let (log, _) = duel_with("round_decision_fight", &ruleset, "1 1\n", "");
    let check = affray(&dir, &["check", "d100_duel"]);
    let scenario = ruleset.join("scenarios/duel.toml");
    let written = fs::read_to_string(&scenario).unwrap();
    fs::write(&scenario, written.replace("\"stumble\"", "\"stumbel\"")).unwrap();
    let misspelt = affray(&dir, &["check", "d100_duel"]);
    let _ = fs::remove_dir_all(&dir);
    assert!(check.status.success(), "{}", text(&check.stderr));
    assert!(!misspelt.status.success(), "{}", text(&misspelt.stderr));
    has(&text(&misspelt.stderr), "stumbel");
    has(
        &log,
        "Aldric chooses opening: stumble (of bleed, stumble; scenario)",
    );
    has(&log, "Aldric: prone");
    has(&log, "Bryn: bleeding");
    assert!(!log.contains("Bryn chooses opening"), "{log}");
}

#[test]
fn an_effect_done_at_the_blow_comes_before_the_wound() {
    // As in the critical above, Bryn's 3 wins 2 levels over the unparried defence; she
    // buys Bleed (scripted) and Bypass Armour. The dagger's 4 and 4 again for the
    // critical reach the left leg (1D10 = 4, 5 HP) whole. Bleed's actions are done
    // `at = "blow"`, once the damage is taken (`if = "damage > 0"`): Aldric bleeds
    // before the serious wound is judged.
    let choices = "[[choices]]\ndecision = \"reaction\"\nby = \"Aldric\"\nchoose = \"none\"\n\n\
                   [[choices]]\ndecision = \"manoeuvre\"\nby = \"Bryn\"\nchoose = \"bleed\"\n";
    let (log, _) = duel("bleed", "1 1\n3 4 4 4\n", choices);
    has(
        &log,
        "Bryn chooses manoeuvre: bleed (of bypass armour, maximise damage, choose location, stagger, trip, bleed; scenario)",
    );
    has(
        &log,
        "Aldric takes 8 to left leg, -3 HP left there\n    Aldric: bleeding\n    Aldric: serious wound to left leg",
    );
}

#[test]
fn an_effect_offered_only_while_its_guard_holds_befalls_the_winner() {
    // The dodge above leaves Bryn prone and off balance. Aldric then attacks at 65 + 20
    // (a prone target) and fails with 90; Bryn parries at 70 - 20 (prone) - 20 (off balance) = 30 with a 10:
    // defender 1. Regain Footing is offered to her only because she, the winner, is
    // prone (`offered = "winner.prone"`), and it clears her own condition (`to = "winner"`).
    let choices = "[[choices]]\ndecision = \"reaction\"\nby = \"Aldric\"\nchoose = \"dodge\"\n\n\
                   [[choices]]\ndecision = \"reaction\"\nby = \"Bryn\"\nchoose = \"parry\"\n\n\
                   [[choices]]\ndecision = \"manoeuvre\"\nby = \"Bryn\"\nchoose = \"regain_footing\"\n";
    let (log, _) = duel("regain", "1 1\n90 2 40\n90 10\n", choices);
    assert_eq!(
        log.lines()
            .filter(|line| line.contains("regain footing"))
            .count(),
        1,
        "offered once, to the prone winner only:\n{log}"
    );
    has(&log, "Bryn: parry 30, rolled 10: success");
    has(
        &log,
        "Bryn chooses manoeuvre: regain footing (of stagger, trip, regain footing, redirect blow; scenario)",
    );
    has(&log, "Bryn: prone ends");
}

#[test]
fn a_script_asks_whether_a_combatant_is_out_by_the_rule_before_the_engine_judges_it() {
    // A round-start rule knocks each duellist out, then a script asks: by combat.toml's
    // `out_of_fight` he is out now; the engine has not judged it yet.
    let (dir, ruleset) = fixture_copy(
        "out_of_fight_now",
        &[(
            "combat.toml",
            "",
            "\n[[round_start]]\ndo = \"condition unconscious, script probe::look\"\n",
        )],
        &[(
            "probe.rhai",
            "fn look(ctx) {\n    ctx.fight.log(`probe: ${ctx.fight.name(ctx.who)} out now ${ctx.fight.out_of_fight(ctx.who)}, \
             judged out ${ctx.fight.is_out(ctx.who)}`);\n}\n",
        )],
    );
    let (log, error) = duel_with("out_of_fight_now_fight", &ruleset, "1 1\n", "");
    let _ = fs::remove_dir_all(&dir);
    has(&log, "probe: Bryn out now true, judged out false");
    has(&log, "probe: Aldric out now true, judged out false");
    assert!(!error.contains("panicked"), "{error}");
}

#[test]
fn a_script_an_effect_calls_sees_the_exchange() {
    // The bleed above, with a script added to Bleed's actions in a copy of the fixture:
    // the script's context holds the exchange as it stands at the blow.
    let (dir, ruleset) = fixture_copy(
        "script_context",
        &[(
            "combat.toml",
            "do = \"condition bleeding\"",
            "do = \"condition bleeding, script probe::note\"",
        )],
        &[(
            "probe.rhai",
            "fn note(ctx) {\n    ctx.fight.log(`probe: ${ctx.who} hit by ${ctx.attacker} (winner ${ctx.winner}) \
             with ${ctx.weapon} on ${ctx.location}: ${ctx.rolled} rolled, ${ctx.damage} taken, \
             attack ${ctx.attack.level} ${ctx.attack.roll}, defence ${ctx.defence.level}`);\n}\n",
        )],
    );
    let choices = "[[choices]]\ndecision = \"reaction\"\nby = \"Aldric\"\nchoose = \"none\"\n\n\
                   [[choices]]\ndecision = \"manoeuvre\"\nby = \"Bryn\"\nchoose = \"bleed\"\n";
    let (log, error) = duel_with("script_context_fight", &ruleset, "1 1\n3 4 4 4\n", choices);
    let _ = fs::remove_dir_all(&dir);
    has(
        &log,
        "probe: 0 hit by 1 (winner 1) with dagger on left_leg: 8 rolled, 8 taken, attack critical 3, defence failure",
    );
    has(&error, "the given dice ran out");
}

#[test]
fn a_parry_against_a_miss_may_be_withdrawn_and_then_costs_nothing() {
    // Aldric declares a parry before Bryn's roll; her 80 misses, so he may withdraw it
    // (scripted): no action spent, no parry rolled, the defence counts as the unopposed
    // failure and nobody wins. He acts with both his actions, and his attack (the next
    // die, 90) is Bryn's to parry as usual.
    let choices =
        "[[choices]]\ndecision = \"withdraw_parry\"\nby = \"Aldric\"\nchoose = \"withdraw\"\n";
    let (log, _) = duel("withdrawn", "1 1\n80 90\n", choices);
    has(&log, "Bryn: attack 70, rolled 80: failure");
    has(
        &log,
        "Aldric chooses withdraw parry: withdraw (of complete, withdraw; scenario)",
    );
    assert!(!log.contains("Aldric spends an action"), "{log}");
    assert!(!log.contains("Aldric: parry"), "{log}");
    has(&log, "Aldric acts (2 actions left)");
    has(&log, "Aldric: attack 65, rolled 90: failure");
}

#[test]
fn knockback_counts_the_damage_rolled_even_when_a_parry_takes_it_all() {
    // Bryn's critical (3) beats Aldric's parry (30): attacker 1, spent (scripted) on
    // Stagger. Her dagger's 4 and 4 again for the critical, 8 rolled, land on his large
    // shield, which deflects all of it: nothing reaches a location (no die rolled). The 8
    // rolled still knocks him back (8 - 6) / 2 = 1 metre, and his Athletics (40) fails
    // with a 50: prone.
    let choices = "[[choices]]\ndecision = \"manoeuvre\"\nby = \"Bryn\"\nchoose = \"stagger\"\n";
    let (log, _) = duel("knockback_parried", "1 1\n3 30 4 4 50\n", choices);
    has(&log, "Aldric: parry 65, rolled 30: success");
    has(&log, "Aldric deflects 8");
    assert!(!log.contains("Aldric takes"), "{log}");
    has(&log, "Aldric is knocked back 1 m");
    has(
        &log,
        "Aldric: athletics 40, rolled 50: failure\n    Aldric: prone for 1 round",
    );
}

/// A copy of the fixture with `choices` and `act` hooks (the hook offers `attack` and
/// `shout`, and logs what it does) and one edit of its combat.toml; checked clean.
fn hooked_copy(name: &str, combat_was: &str, combat_is: &str) -> (PathBuf, PathBuf) {
    let (dir, ruleset) = fixture_copy(
        name,
        &[
            ("combat.toml", combat_was, combat_is),
            (
                "ruleset.toml",
                "",
                "\n[hooks]\nchoices = \"turn::choices\"\nact = \"turn::act\"\n",
            ),
        ],
        &[(
            "turn.rhai",
            "fn choices(fight, who) { [\"attack\", \"shout\"] }\n\
             fn act(fight, who, action) { fight.log(\"the hook does \" + action); }\n",
        )],
    );
    let check = affray(&dir, &["check", "d100_duel"]);
    assert!(check.status.success(), "{}", text(&check.stderr));
    (dir, ruleset)
}

#[test]
fn a_choices_hook_offers_and_combat_toml_does_the_actions_it_names_where_their_guard_holds() {
    // A copy of the fixture whose turn is offered by a `choices` hook, as a ruleset has
    // it while it moves its exchange into combat.toml before the rest of its turn. The
    // attack is done natively where its `if` holds (from round 2), by the `act` hook
    // before; an action combat.toml does not name always goes to the hook.
    let (dir, ruleset) = hooked_copy(
        "mixed_turn",
        "name = \"attack\"\nexchange = \"melee\"",
        "name = \"attack\"\nexchange = \"melee\"\nif = \"round > 1\"",
    );
    let (log, error) = duel_with("mixed_turn_fight", &ruleset, "1 1\n1 1\n80 90\n", "");
    let _ = fs::remove_dir_all(&dir);
    let (first, second) = log.split_once("Round 2").expect("a second round");
    assert_eq!(first.matches("the hook does attack").count(), 4, "{log}");
    assert!(!second.contains("the hook does"), "{log}");
    has(second, "Bryn: attack 70, rolled 80: failure");
    has(&error, "the given dice ran out");
}

#[test]
fn hooks_if_gives_the_whole_turn_to_the_hooks_where_it_holds() {
    // The same copy with `[turn] hooks_if`: in round 1 the hooks offer and do every
    // action (the attack too); from round 2 combat.toml offers its own actions (attack,
    // guard: no `shout`) and does them.
    let (dir, ruleset) = hooked_copy(
        "hooks_if_turn",
        "actions = \"2\"",
        "actions = \"2\"\nhooks_if = \"round == 1\"",
    );
    let (log, error) = duel_with("hooks_if_fight", &ruleset, "1 1\n1 1\n80 90\n", "");
    let _ = fs::remove_dir_all(&dir);
    let (first, second) = log.split_once("Round 2").expect("a second round");
    assert_eq!(first.matches("the hook does attack").count(), 4, "{log}");
    assert!(!second.contains("the hook does"), "{log}");
    has(second, "(of attack, guard;");
    has(second, "Bryn: attack 70, rolled 80: failure");
    has(&error, "the given dice ran out");
}

#[test]
fn a_parry_held_ready_costs_no_action_when_it_is_made() {
    // Bryn holds her first action ready (`guard`, scripted): her turn ends with one left.
    // Aldric's attack (80) meets her parry (30), free because she held it (`free`): she
    // keeps her last action, and the parry uses the guard up (`do = "set guard 0"`).
    let choices = "[[choices]]\ndecision = \"action\"\nby = \"Bryn\"\nchoose = \"guard\"\n\n\
                   [[choices]]\ndecision = \"withdraw_parry\"\nby = \"Bryn\"\nchoose = \"complete\"\n";
    let (log, _) = duel("guard", "1 1\n80 30\n", choices);
    has(
        &log,
        "Bryn chooses action: guard (of attack, guard; scenario)",
    );
    has(&log, "Bryn: parry 70, rolled 30: success");
    assert!(!log.contains("Bryn spends an action on parry"), "{log}");
    has(&log, "Bryn acts (1 action left)");
}

#[test]
fn a_redirected_blow_lands_where_the_defender_chooses() {
    // Bryn holds her action to guard (scripted); Aldric's 30 meets her critical parry
    // (2, held ready, free): defender 1, bought (scripted) as Redirect Blow. His blow
    // lands all the same (a success, not dodged): her dagger (small) takes half of his
    // broadsword's (medium) 1D8 = 6 and 1D4 = 3, and she, not the die, picks where the
    // rest lands.
    let choices = "[[choices]]\ndecision = \"action\"\nby = \"Bryn\"\nchoose = \"guard\"\n\
                   [[choices]]\ndecision = \"manoeuvre\"\nby = \"Bryn\"\nchoose = \"redirect_blow\"\n";
    let (log, _) = duel("redirect", "1 1\n30 2 6 3\n", choices);
    has(&log, "Bryn: parry 70, rolled 2: critical");
    has(
        &log,
        "Bryn chooses redirect location: right leg (of right leg, left leg, body, right arm, left arm, head; first option)",
    );
    assert!(!log.contains("hit location for"), "{log}");
}

/// `affray check` names what a bare-hands weapon, a `drop` action, a round rule and a
/// shared level list get wrong, each at its place in combat.toml.
#[test]
fn check_reports_a_wrong_bare_hands_weapon_a_misspelt_drop_a_round_rule_and_a_level_list() {
    let (dir, _) = fixture_copy(
        "check-bare-hands",
        &[
            (
                "combat.toml",
                "label = \"attack\"\ntest = \"skill\"\n",
                "label = \"attack\"\ntest = \"skill\"\nbare_hands = { weapon = \"fists\", test = \"skill\" }\n",
            ),
            (
                "combat.toml",
                "before = \"set guard 1\"",
                "before = \"set guard 1, drop sheild\"",
            ),
            (
                "combat.toml",
                "",
                "\n[[round_end]]\nif = \"self.out and self.value.guard > 0\"\ndo = \"clear prone, set guard 0\"\n\n[[round_start]]\nif = \"self.proen\"\ndo = \"clear prone\"\n",
            ),
            (
                "combat.toml",
                "target = \"self.skill.dodge\"\nlevel_list = \"d100\"",
                "target = \"self.skill.dodge\"\nlevel_list = \"d10\"",
            ),
        ],
        &[],
    );
    let check = affray(&dir, &["check", "d100_duel"]);
    let _ = fs::remove_dir_all(&dir);
    let report = text(&check.stderr);
    assert!(!check.status.success(), "{report}");
    assert!(report.contains("fists"), "{report}");
    assert!(report.contains("in equipment.toml `[weapons]`"), "{report}");
    assert!(report.contains("sheild"), "{report}");
    assert!(report.contains("shield"), "{report}");
    assert!(report.contains("proen"), "{report}");
    assert!(report.contains("unknown level list `d10`"), "{report}");
    // And the warning that the scenario's decisions went unchecked, combat.toml being broken.
    assert!(report.contains("affray::scenario::not_checked"), "{report}");
    assert!(report.contains("5 problems found"), "{report}");
}

#[test]
fn an_effect_does_the_first_case_whose_guard_holds_with_expressions_in_its_actions() {
    // The bleed above, its actions by where the blow lands (`location == "..."`): the
    // dagger's 8 to the left leg make Aldric bleed for `(damage + 1)` = 9 rounds and
    // fall (a `test` failed: two actions in parentheses), before the wound is judged.
    let cases = r#"[exchanges.melee.effect.bleed]
at = "blow"
if = "damage > 0"

[[exchanges.melee.effect.bleed.case]]
if = 'location == "head"'
do = "condition unconscious"

[[exchanges.melee.effect.bleed.case]]
if = 'location == "left_leg" or location == "right_leg"'
do = "condition bleeding for (damage + 1) rounds, test athletics or (condition prone, set fallen (damage * 2))"

[[exchanges.melee.effect.bleed.case]]
do = "condition bleeding"
"#;
    let (dir, ruleset) = fixture_copy(
        "cases",
        &[(
            "combat.toml",
            "[exchanges.melee.effect.bleed]\nat = \"blow\"\nif = \"damage > 0\"\ndo = \"condition bleeding\"\n",
            cases,
        )],
        &[],
    );
    let choices = "[[choices]]\ndecision = \"reaction\"\nby = \"Aldric\"\nchoose = \"none\"\n\n\
                   [[choices]]\ndecision = \"manoeuvre\"\nby = \"Bryn\"\nchoose = \"bleed\"\n";
    // The dice run out later in the fight: the blow is all this test reads.
    let (log, _) = duel_with("cases-fight", &ruleset, "1 1\n3 4 4 4\n99 99\n", choices);
    let _ = fs::remove_dir_all(&dir);
    has(
        &log,
        "Aldric takes 8 to left leg, -3 HP left there\n    Aldric: bleeding for 9 rounds\n    1D100 athletics for Aldric → 99",
    );
    has(
        &log,
        "Aldric: athletics 40, rolled 99: fumble\n    Aldric: prone\n    Aldric: serious wound",
    );
}

#[test]
fn check_reports_a_misspelt_word_of_a_table_of_results_and_a_cell_with_a_lone_number() {
    let (dir, ruleset) = fixture_with_results("check-results");
    let edit = |from: &str, to: &str| {
        let path = ruleset.join("combat.toml");
        let written = fs::read_to_string(&path).unwrap();
        assert!(written.contains(from), "`{from}` moved");
        fs::write(&path, written.replace(from, to)).unwrap();
    };
    edit("outcome.riposte", "outcome.ripost");
    let check = affray(&dir, &["check", "d100_duel"]);
    let report = text(&check.stderr);
    assert!(!check.status.success(), "{report}");
    assert!(report.contains("ripost"), "{report}");
    assert!(report.contains("riposte"), "{report}");

    edit("outcome.ripost", "outcome.riposte");
    let tables = ruleset.join("tables/combat.tables");
    let written = fs::read_to_string(&tables).unwrap();
    fs::write(
        &tables,
        written.replace("| deduct 200%  |", "| 200%         |"),
    )
    .unwrap();
    let check = affray(&dir, &["check", "d100_duel"]);
    let _ = fs::remove_dir_all(&dir);
    let report = text(&check.stderr);
    assert!(!check.status.success(), "{report}");
    assert!(
        report.contains("a number with no word before it"),
        "{report}"
    );
    assert!(report.contains("parry_results"), "{report}");
}

#[test]
fn an_if_action_does_its_first_branch_where_its_condition_holds_and_its_second_elsewhere() {
    // The heavy blow above (10 rolled) knocks Bryn back; the knockback's actions are
    // written `if (CONDITION) then ... or ...`. Bryn (SIZ 10) is not larger than 12: the
    // second branch, the Athletics test (70 fails: prone). Where the condition holds
    // (SIZ below 12), the first branch: unconscious, and no Athletics die is rolled.
    let knocked = "do = \"test athletics or condition prone for 1 round\"";
    let (dir, ruleset) = fixture_copy(
        "if_action",
        &[(
            "combat.toml",
            knocked,
            "do = \"if (defender.SIZ > 12) then condition unconscious or (test athletics or condition prone for 1 round)\"",
        )],
        &[],
    );
    let (log, _) = duel_with("if_action_else", &ruleset, "1 1\n80 30\n10 2 5 70\n", "");
    let _ = fs::remove_dir_all(&dir);
    has(
        &log,
        "Bryn is knocked back 2 m\n    1D100 athletics for Bryn → 70\n    Bryn: athletics 60, rolled 70: failure\n    Bryn: prone for 1 round",
    );
    assert!(!log.contains("unconscious"), "{log}");

    let (dir, ruleset) = fixture_copy(
        "if_action_then",
        &[(
            "combat.toml",
            knocked,
            "do = \"if (defender.SIZ < 12) then condition unconscious or (test athletics or condition prone for 1 round)\"",
        )],
        &[],
    );
    let (log, _) = duel_with("if_action_then_fight", &ruleset, "1 1\n80 30\n10 2 5\n", "");
    let _ = fs::remove_dir_all(&dir);
    has(&log, "Bryn is knocked back 2 m\n    Bryn: unconscious");
    assert!(!log.contains("athletics for Bryn"), "{log}");
}

#[test]
fn check_reports_a_misspelt_name_in_an_if_action_and_an_if_in_a_table_file() {
    let (dir, _) = fixture_copy(
        "check-if",
        &[
            (
                "combat.toml",
                "before = \"set guard 1\"",
                "before = \"if (self.proen) then set guard 1\"",
            ),
            (
                "tables/combat.tables",
                "=> lose 1 action",
                "=> if (self.prone) then lose 1 action",
            ),
        ],
        &[],
    );
    let check = affray(&dir, &["check", "d100_duel"]);
    let _ = fs::remove_dir_all(&dir);
    let report = text(&check.stderr);
    assert!(!check.status.success(), "{report}");
    assert!(report.contains("proen"), "{report}");
    assert!(report.contains("prone"), "{report}");
    assert!(
        report.contains("`if (self.prone) then lose 1 actions` is an action of combat.toml"),
        "{report}"
    );
}

#[test]
fn drop_hand_drops_what_that_hand_holds_with_the_hands_each_weapon_needs() {
    // The critical above: Bryn's 8 to Aldric's left leg, a serious wound, whose actions
    // drop what a hand holds. Aldric holds the broadsword, then the shield: without
    // `[hands]` each takes a hand, so the second hand holds the shield, and a third
    // holds nothing.
    let choices = "[[choices]]\ndecision = \"reaction\"\nby = \"Aldric\"\nchoose = \"none\"\n";
    let serious = "do = \"lose 1 action\"";
    let wound = |case: &str, actions: &str, hands: &str| {
        let mut edits = vec![("combat.toml", serious, actions)];
        if !hands.is_empty() {
            edits.push(("combat.toml", "", hands));
        }
        let (dir, ruleset) = fixture_copy(case, &edits, &[]);
        let (log, _) = duel_with(&format!("{case}_fight"), &ruleset, "1 1\n3 4 4\n", choices);
        let _ = fs::remove_dir_all(&dir);
        has(&log, "Aldric: serious wound to left leg");
        log
    };
    let log = wound("drop_hand_2", "do = \"lose 1 action, drop hand 2\"", "");
    has(&log, "Aldric drops the Round shield");
    assert!(!log.contains("drops the Broadsword"), "{log}");
    let log = wound("drop_hand_1", "do = \"lose 1 action, drop hand 1\"", "");
    has(&log, "Aldric drops the Broadsword");
    let log = wound("drop_hand_3", "do = \"lose 1 action, drop hand 3\"", "");
    assert!(!log.contains(" drops the "), "{log}");
    // With `[hands]` saying the broadsword needs both hands, it is all Aldric holds (the
    // shield is carried from the start), and the second hand holds it too.
    let hands = "\n[hands]\ncount = 2\nneeds = \"if item.shield { 1 } else { 2 }\"\n";
    let log = wound(
        "drop_hand_both",
        "do = \"lose 1 action, drop hand 2\"",
        hands,
    );
    has(&log, "Aldric drops the Broadsword");
}

/// A copy of the fixture whose combat skill is a dice pool: each combatant's `melee` die
/// code with its last die the Wild Die, less a die for each point of the value
/// `penalty`, plus the code's pips; an attack whose Wild Die first shows 1 leaves the
/// attacker prone (a complication, read as `attack.exploding_die`).
fn pool_copy(case: &str, setup: &str) -> (PathBuf, PathBuf) {
    fixture_copy(
        case,
        &[
            (
                "combat.toml",
                "[tests.skill]\nroll = \"1d100\"",
                "[tests.skill]\nroll = 'exploding(dice(self.dice.melee) - self.value.penalty, 6, \"Wild Die\") + pips(self.dice.melee)'",
            ),
            (
                "combat.toml",
                "",
                &format!(
                    "\n[[exchanges.melee.after]]\nat = \"outcome\"\nif = \"attack.exploding_die == 1\"\ndo = \"condition prone\"\n{setup}"
                ),
            ),
            (
                "scenarios/duel.toml",
                "skills = { combat = 65,",
                "skills = { melee = \"2D\", combat = 65,",
            ),
            (
                "scenarios/duel.toml",
                "skills = { combat = 70,",
                "skills = { melee = \"3D+2\", combat = 70,",
            ),
        ],
        &[],
    )
}

#[test]
fn a_exploding_die_explodes_on_its_highest_face_and_the_test_keeps_its_first() {
    // Bryn's 3D+2: two dice together (4, 5), then the Wild Die: 6, so again: 2. 4 + 5 +
    // 6 + 2 + 2 pips = 19. Aldric's 2D: one die (3), then the Wild Die (1): 4. Only the
    // attack's first face is read by the rule: nobody falls.
    let (dir, ruleset) = pool_copy("exploding_die", "");
    let (log, error) = duel_with("exploding_die_fight", &ruleset, "1 1\n4 5 6 2\n3 1\n", "");
    // The same attack with a Wild Die that first shows 1: a complication.
    let (complication, _) = duel_with("exploding_die_one", &ruleset, "1 1\n4 5 1\n3 4\n", "");
    let _ = fs::remove_dir_all(&dir);
    has(&log, "2D6 attack for Bryn → 9 (dice showed 4, 5)");
    has(&log, "1D6 attack: Wild Die for Bryn → 6");
    has(&log, "1D6 attack: Wild Die explodes for Bryn → 2");
    has(&log, "Bryn: attack 70, rolled 19: success");
    has(&log, "1D6 parry for Aldric → 3");
    has(&log, "1D6 parry: Wild Die for Aldric → 1");
    has(&log, "Aldric: parry 65, rolled 4: critical");
    assert!(!log.contains(": prone"), "{log}");
    has(&error, "the given dice ran out");
    has(&complication, "1D6 attack: Wild Die for Bryn → 1");
    assert!(!complication.contains("explodes"), "{complication}");
    has(&complication, "Bryn: attack 70, rolled 12: success");
    has(&complication, "Bryn: prone");
}

#[test]
fn a_dice_pool_loses_dice_to_a_penalty_and_rolls_none_below_one() {
    // A penalty of two dice: Bryn's 3D+2 rolls the Wild Die alone (3) + 2; Aldric's 2D
    // rolls nothing at all, and its total is its pips, 0.
    let (dir, ruleset) = pool_copy("pool_penalty", "\n[[setup]]\ndo = \"set penalty 2\"\n");
    let (log, _) = duel_with("pool_penalty_fight", &ruleset, "1 1\n3\n1\n", "");
    let _ = fs::remove_dir_all(&dir);
    has(&log, "1D6 attack: Wild Die for Bryn → 3");
    assert!(!log.contains("D6 attack for Bryn"), "{log}");
    has(&log, "Bryn: attack 70, rolled 5: success");
    assert!(!log.contains("D6 parry"), "{log}");
    has(&log, "Aldric: parry 65, rolled 0");
}

#[test]
fn check_refuses_dice_whose_sides_are_not_written_out() {
    let (dir, _) = pool_copy("pool_sides", "");
    let ruleset = dir.join("d100_duel/combat.toml");
    let written = fs::read_to_string(&ruleset).unwrap();
    fs::write(
        &ruleset,
        written.replace("self.value.penalty, 6,", "self.value.penalty, self.DEX,"),
    )
    .unwrap();
    let check = affray(&dir, &["check", "d100_duel"]);
    let _ = fs::remove_dir_all(&dir);
    let report = text(&check.stderr);
    assert!(!check.status.success(), "{report}");
    has(
        &report,
        "the sides of the dice are a number from 1 to 1000, written out",
    );
    has(
        &report,
        "rolls that many six-sided dice, the last on its own",
    );
}

/// The dice pool copy whose exploding die, where the combatant's value `subtracts` is
/// set, takes itself and the highest other die away when it first shows 1.
fn subtracting_copy(case: &str, setup: &str) -> (PathBuf, PathBuf) {
    let (dir, ruleset) = pool_copy(case, setup);
    let path = ruleset.join("combat.toml");
    let written = fs::read_to_string(&path).unwrap();
    let edited = written.replace(
        "6, \"Wild Die\")",
        "6, \"Wild Die\", self.value.subtracts > 0)",
    );
    assert_ne!(written, edited);
    fs::write(&path, edited).unwrap();
    (dir, ruleset)
}

#[test]
fn a_one_on_the_exploding_die_takes_itself_and_the_highest_other_die_away_where_its_condition_holds()
 {
    // Bryn's 3D+2 with the condition holding: the two other dice one by one (4, 5), then
    // the Wild Die: 1. It takes itself and the highest (5) away: 4 + 5 + 1 - 1 - 5 = 4,
    // + 2 pips = 6. Aldric's 2D: 3, then the Wild Die 4: 7, nothing taken away.
    let (dir, ruleset) =
        subtracting_copy("one_subtracts", "\n[[setup]]\ndo = \"set subtracts 1\"\n");
    let (log, _) = duel_with("one_subtracts_fight", &ruleset, "1 1\n4 5 1\n3 4\n", "");
    // A Wild Die alone (a penalty of two dice) that shows 1 takes only itself away.
    let (alone_dir, alone) = subtracting_copy(
        "one_subtracts_alone",
        "\n[[setup]]\ndo = \"set subtracts 1\"\n[[setup]]\ndo = \"set penalty 2\"\n",
    );
    let (alone_log, _) = duel_with("one_subtracts_alone_fight", &alone, "1 1\n1\n", "");
    // Where the condition does not hold, the pool is rolled as before: the others
    // together, and a 1 is only a 1 (the complication rule still reads it).
    let (plain_dir, plain) = subtracting_copy("one_subtracts_not", "");
    let (plain_log, _) = duel_with("one_subtracts_not_fight", &plain, "1 1\n4 5 1\n3 4\n", "");
    for dir in [dir, alone_dir, plain_dir] {
        let _ = fs::remove_dir_all(&dir);
    }
    has(&log, "1D6 attack for Bryn → 4\n");
    has(&log, "1D6 attack for Bryn → 5\n");
    has(&log, "1D6 attack: Wild Die for Bryn → 1\n");
    has(
        &log,
        "Bryn: a 1 on the Wild Die takes itself and the highest die (5) away",
    );
    has(&log, "Bryn: attack 70, rolled 6: success");
    has(&log, "1D6 parry for Aldric → 3\n");
    has(&log, "1D6 parry: Wild Die for Aldric → 4\n");
    has(&log, "Aldric: parry 65, rolled 7: success");
    assert!(!log.contains("Aldric: a 1"), "{log}");
    let subtracted = log.find("takes itself and the highest").expect(&log);
    let tested = log.find("Bryn: attack 70").expect(&log);
    assert!(subtracted < tested, "{log}");

    has(&alone_log, "1D6 attack: Wild Die for Bryn → 1\n");
    has(
        &alone_log,
        "Bryn: a 1 on the Wild Die takes itself and the highest die (0) away",
    );
    has(&alone_log, "Bryn: attack 70, rolled 2: critical");

    has(&plain_log, "2D6 attack for Bryn → 9 (dice showed 4, 5)");
    has(&plain_log, "Bryn: attack 70, rolled 12: success");
    assert!(!plain_log.contains("takes itself"), "{plain_log}");
}

#[test]
fn check_refuses_a_one_that_subtracts_on_a_plain_pool_or_by_a_condition_that_rolls() {
    let (dir, _) = subtracting_copy("one_subtracts_check", "");
    let path = dir.join("d100_duel/combat.toml");
    let written = fs::read_to_string(&path).unwrap();
    let edited = written.replace("self.value.subtracts > 0)", "1d6 > 3)");
    fs::write(&path, &edited).unwrap();
    let rolls = affray(&dir, &["check", "d100_duel"]);
    fs::write(
        &path,
        edited
            .replace("exploding(", "pool(")
            .replace(", 1d6 > 3)", ", \"Wild Die\", true)"),
    )
    .unwrap();
    let plain = affray(&dir, &["check", "d100_duel"]);
    let _ = fs::remove_dir_all(&dir);
    let report = text(&rolls.stderr);
    assert!(!rolls.status.success(), "{report}");
    has(
        &report,
        "takes as its fourth argument a condition that rolls no dice (where it holds, a 1 takes the highest die away)",
    );
    let report = text(&plain.stderr);
    assert!(!plain.status.success(), "{report}");
    has(&report, "a number of dice and their sides");
}

#[test]
fn a_skill_or_another_reads_the_first_die_code_the_combatant_has() {
    // Bryn has melee 3D (and brawn 1D): her melee, two dice together (4, 5) and the Wild
    // Die (3): 12. Aldric has no melee: his brawn 2D+1, one die (3) and the Wild Die
    // (4): 8.
    let (dir, ruleset) = fixture_copy(
        "skill_or",
        &[
            (
                "combat.toml",
                "[tests.skill]\nroll = \"1d100\"",
                "[tests.skill]\nroll = 'exploding(dice(self.dice.melee or self.dice.brawn), 6, \"Wild Die\") + pips(self.dice.melee or self.dice.brawn)'",
            ),
            (
                "scenarios/duel.toml",
                "skills = { combat = 65,",
                "skills = { brawn = \"2D+1\", combat = 65,",
            ),
            (
                "scenarios/duel.toml",
                "skills = { combat = 70,",
                "skills = { melee = \"3D\", brawn = \"1D\", combat = 70,",
            ),
        ],
        &[],
    );
    let (log, _) = duel_with("skill_or_fight", &ruleset, "1 1\n4 5 3\n3 4\n", "");
    let _ = fs::remove_dir_all(&dir);
    has(&log, "2D6 attack for Bryn → 9 (dice showed 4, 5)");
    has(&log, "1D6 attack: Wild Die for Bryn → 3");
    has(&log, "Bryn: attack 70, rolled 12: success");
    has(&log, "1D6 parry for Aldric → 3\n");
    has(&log, "1D6 parry: Wild Die for Aldric → 4");
    has(&log, "Aldric: parry 65, rolled 8: success");
}

#[test]
fn an_exchange_that_takes_no_hit_points_judges_the_wound_on_what_gets_through() {
    // The blows of the first test: 9 at Bryn, 4 deflected, 1 stopped by her armour: 4
    // get through to her body. Where `take` does not hold, nothing comes off her hit
    // points (no damage line: her body keeps its 6), and the wound is judged on the 4
    // alone: serious from 4.
    let (dir, ruleset) = fixture_copy(
        "take_false",
        &[
            (
                "combat.toml",
                "armour = 'if chosen.bypass_armour > 0 { 0 } else { location.armour }'\n",
                "armour = 'if chosen.bypass_armour > 0 { 0 } else { location.armour }'\ntake = \"self.value.pool > 0\"\n",
            ),
            (
                "combat.toml",
                "level = \"serious\"\nif = \"location.hit_points <= 0\"",
                "level = \"serious\"\nif = \"location.hit_points <= 0 or damage >= 4\"",
            ),
        ],
        &[],
    );
    let (log, _) = duel_with(
        "take_false_fight",
        &ruleset,
        "1 1\n30 30 3\n40 40 6 3 5\n",
        "",
    );
    let _ = fs::remove_dir_all(&dir);
    has(&log, "Bryn deflects 4");
    assert!(!log.contains("Bryn takes"), "{log}");
    has(&log, "Bryn: serious wound to body");
}

#[test]
fn check_refuses_a_take_that_is_not_a_condition_or_rolls() {
    let (dir, _) = fixture_copy(
        "take_check",
        &[(
            "combat.toml",
            "armour = 'if chosen.bypass_armour > 0 { 0 } else { location.armour }'\n",
            "armour = 'if chosen.bypass_armour > 0 { 0 } else { location.armour }'\ntake = \"1d6 > 3\"\n",
        )],
        &[],
    );
    let check = affray(&dir, &["check", "d100_duel"]);
    let _ = fs::remove_dir_all(&dir);
    let report = text(&check.stderr);
    assert!(!check.status.success(), "{report}");
    has(&report, "the exchange `melee`'s `take`");
}

#[test]
fn a_target_its_modifiers_move_is_no_lower_than_the_test_kinds_target_min() {
    // Unstable ground (-20), given to Bryn (the scenario's last combatant): her 70 falls
    // to 50, below the least of 68, so it is 68. Aldric's 65, which no modifier moves,
    // stays below 68; so does nothing move hers without the ground.
    let (dir, ruleset) = fixture_copy(
        "target_min",
        &[(
            "combat.toml",
            "[tests.skill]\nroll = \"1d100\"\n",
            "[tests.skill]\nroll = \"1d100\"\ntarget_min = \"60 + 8\"\n",
        )],
        &[],
    );
    let (moved, _) = duel_with(
        "target_min_moved",
        &ruleset,
        "1 1\n30 40\n",
        "modifiers = [\"unstable_ground\"]\n",
    );
    let (unmoved, _) = duel_with("target_min_unmoved", &ruleset, "1 1\n30 40\n", "");
    let _ = fs::remove_dir_all(&dir);
    has(&moved, "Bryn: attack 68, rolled 30: success");
    has(&moved, "Aldric: parry 65, rolled 40: success");
    has(&unmoved, "Bryn: attack 70, rolled 30: success");
    has(&unmoved, "Aldric: parry 65, rolled 40: success");
}

#[test]
fn check_refuses_a_target_min_that_rolls_or_reads_the_roll() {
    let (dir, _) = fixture_copy(
        "target_min_check",
        &[
            (
                "combat.toml",
                "[tests.skill]\nroll = \"1d100\"\n",
                "[tests.skill]\nroll = \"1d100\"\ntarget_min = \"1d6\"\n",
            ),
            (
                "combat.toml",
                "[tests.dodge]\nroll = \"1d100\"\n",
                "[tests.dodge]\nroll = \"1d100\"\ntarget_min = \"roll\"\n",
            ),
        ],
        &[],
    );
    let check = affray(&dir, &["check", "d100_duel"]);
    let _ = fs::remove_dir_all(&dir);
    let report = text(&check.stderr);
    assert!(!check.status.success(), "{report}");
    has(&report, "the `target_min` of the test `skill`");
    has(&report, "the `target_min` of the test `dodge`");
}

#[test]
fn a_defence_rolled_before_the_attack_sets_what_the_attack_must_beat() {
    // Aldric's dodge is rolled as he declares it (`before_attack`), and its roll, kept by
    // its `do`, comes off Bryn's skill: she must roll under 70 - 20 = 50.
    let (dir, ruleset) = fixture_copy(
        "defence_first",
        &[
            (
                "combat.toml",
                "name = \"dodge\"\ntest = \"dodge\"\nweapon = false\n",
                "name = \"dodge\"\ntest = \"dodge\"\nweapon = false\nbefore_attack = true\ndo = \"set dodged (defence.roll)\"\n",
            ),
            (
                "combat.toml",
                "target = \"self.skill.combat - if self.off_balance { 20 } else { 0 }\"",
                "target = \"self.skill.combat - other.value.dodged - if self.off_balance { 20 } else { 0 }\"",
            ),
        ],
        &[],
    );
    let choices = "[[choices]]\ndecision = \"reaction\"\nby = \"Aldric\"\nchoose = \"dodge\"\n";
    let (log, _) = duel_with("defence_first_fight", &ruleset, "1 1\n20 45\n", choices);
    let check = affray(&dir, &["check", "d100_duel"]);
    // A reaction that may be withdrawn once the attack is seen cannot come before it.
    let written = fs::read_to_string(ruleset.join("combat.toml")).unwrap();
    fs::write(
        ruleset.join("combat.toml"),
        written.replace(
            "name = \"parry\"\n",
            "name = \"parry\"\nbefore_attack = true\n",
        ),
    )
    .unwrap();
    let refused = affray(&dir, &["check", "d100_duel"]);
    let _ = fs::remove_dir_all(&dir);
    assert!(check.status.success(), "{}", text(&check.stderr));
    let dodged = log.find("Aldric: dodge 30, rolled 20").expect(&log);
    let attacked = log.find("Bryn: attack 50, rolled 45: success").expect(&log);
    assert!(dodged < attacked, "{log}");
    let report = text(&refused.stderr);
    assert!(!refused.status.success(), "{report}");
    has(
        &report,
        "the reaction `parry` cannot be rolled before the attack",
    );
    has(&report, "withdrawn once the attack is rolled (`withdraw`)");
    has(&report, "rolled before the attack");
}

/// The d100 fixture with difficulty grades: six, easiest first, a look-up scaling the
/// skill (fractions rounded up), two graded situations a scenario gives, Automatic and
/// Hopeless rolled with no die, and a shift of one grade harder for a tangled combatant
/// that moves only between Easy and Hopeless.
fn graded_fixture(case: &str) -> (PathBuf, PathBuf) {
    fixture_copy(
        case,
        &[
            (
                "ruleset.toml",
                "success_levels = [\"critical\", \"success\", \"failure\", \"fumble\"]\n",
                "success_levels = [\"critical\", \"success\", \"failure\", \"fumble\"]\ndifficulty_grades = [\"automatic\", \"easy\", \"standard\", \"hard\", \"formidable\", \"hopeless\"]\n",
            ),
            (
                "tables/combat.tables",
                "",
                "\nlookup grades \"Difficulty Grades\" {\n  | difficulty | multiply | divide |\n  | automatic  | 1 | 1 |\n  | easy       | 3 | 2 |\n  | standard   | 1 | 1 |\n  | hard       | 2 | 3 |\n  | formidable | 1 | 2 |\n  | hopeless   | 0 | 1 |\n}\n\nmodifiers graded \"Graded Situations\" {\n  helpless \"Attacking a helpless target\" grade automatic\n  confined \"Attacking in a confined situation\" grade hard\n  dark \"Fighting in partial darkness\" grade formidable\n  tangled \"Tangled in a net\" grade standard\n}\n",
            ),
            (
                "combat.toml",
                "unstable_ground = \"self.modifier.unstable_ground\"\n",
                "unstable_ground = \"self.modifier.unstable_ground\"\nhelpless = \"attacking and other.modifier.helpless\"\nconfined = \"self.modifier.confined\"\ndark = \"self.modifier.dark\"\n\n[tests.skill.grades]\ntable = \"grades\"\nstandard = \"standard\"\nround = \"up\"\nno_roll = [[\"automatic\", \"success\"], [\"hopeless\", \"failure\"]]\nshift = \"if self.modifier.tangled { 1 } else { 0 }\"\nshift_within = [\"easy\", \"hopeless\"]\n",
            ),
        ],
        &[],
    )
}

/// Fight the graded fixture's duel with the situations each combatant is given.
fn graded_duel(ruleset: &Path, case: &str, aldric: &str, bryn: &str, dice: &str) -> String {
    let scenario = ruleset.join("scenarios/duel.toml");
    let written = fs::read_to_string(&scenario).unwrap();
    let given = written
        .replace(
            "skills = { combat = 65,",
            &format!("modifiers = [{aldric}]\nskills = {{ combat = 65,"),
        )
        .replace(
            "skills = { combat = 70,",
            &format!("modifiers = [{bryn}]\nskills = {{ combat = 70,"),
        );
    fs::write(&scenario, given).unwrap();
    // The given dice run out after the stages tested.
    let (log, _) = duel_with(case, ruleset, dice, "");
    fs::write(&scenario, written).unwrap();
    log
}

#[test]
fn difficulty_grades_scale_the_skill_by_the_most_severe_and_some_grades_roll_no_die() {
    let (dir, ruleset) = graded_fixture("graded");
    // Bryn (70) strikes first; Aldric parries with 65. Bryn in partial darkness and a
    // confined place at once: the most severe counts, Formidable, half rounded up (35).
    // Aldric confined: Hard, two thirds rounded up (65 -> 44).
    let log = graded_duel(
        &ruleset,
        "graded-severe",
        "\"confined\"",
        "\"confined\", \"dark\"",
        "1 1\n30 40\n",
    );
    has(&log, "Bryn: attack 35, rolled 30: success");
    has(&log, "Aldric: parry 44, rolled 40: success");

    // Tangled, one grade harder: Standard becomes Hard (47).
    let log = graded_duel(&ruleset, "graded-shift", "", "\"tangled\"", "1 1\n47 40\n");
    has(&log, "Bryn: attack 47, rolled 47: success");
    has(&log, "Aldric: parry 65, rolled 40: success");

    // In the dark and tangled, Formidable becomes Hopeless: no die is rolled and the
    // attack fails (its target 0); the first die after the initiative is the parry's.
    let log = graded_duel(
        &ruleset,
        "graded-hopeless",
        "",
        "\"dark\", \"tangled\"",
        "1 1\n40\n",
    );
    has(&log, "Bryn: attack 0, rolled 0: failure");

    // Against a helpless Aldric, Bryn's attack is Automatic: a success with no die,
    // at the skill unscaled; the shift moves only between Easy and Hopeless, so being
    // tangled leaves it Automatic.
    let log = graded_duel(
        &ruleset,
        "graded-automatic",
        "\"helpless\"",
        "\"tangled\"",
        "1 1\n40\n",
    );
    has(&log, "Bryn: attack 70, rolled 0: success");
    has(&log, "Aldric: parry 65, rolled 40: success");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_condition_for_turns_counts_only_the_ends_of_the_combatants_own_turns() {
    // Aldric starts dazed for 2 turns and winded for 2 actions. Each round Bryn strikes
    // first and Aldric parries (an action), then takes his turn: the parry and the
    // first turn end the winding, while being dazed lasts to the end of his second
    // turn, in round 2, whatever he parried meanwhile.
    let (dir, ruleset) = fixture_copy(
        "for-turns",
        &[
            (
                "ruleset.toml",
                "[conditions]\n",
                "[conditions]\ndazed = \"Dazed for some of its own turns.\"\nwinded = \"Winded for some of its actions.\"\n",
            ),
            (
                "combat.toml",
                "[[action]]\nname = \"attack\"",
                "[[setup]]\nif = \"self.DEX < 12\"\ndo = \"condition dazed for 2 turns, condition winded for 2 actions\"\n\n[[action]]\nname = \"attack\"",
            ),
        ],
        &[],
    );
    let scenario = fs::read_to_string(ruleset.join("scenarios/duel.toml")).unwrap();
    let scenario = scenario.replace(
        "ruleset = \"d100_duel\"",
        &format!("ruleset = {:?}", ruleset.to_string_lossy()),
    );
    fs::write(dir.join("duel.toml"), scenario).unwrap();
    let output = affray(&dir, &["fight", "duel.toml", "--seed", "1"]);
    let _ = fs::remove_dir_all(&dir);
    let log = text(&output.stdout);
    has(&log, "Aldric: dazed for 2 turns");
    let lines: Vec<&str> = log.lines().collect();
    let at = |line: &str| {
        lines
            .iter()
            .position(|l| l.trim() == line)
            .unwrap_or_else(|| panic!("no line `{line}` in:\n{log}"))
    };
    let turns: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("  Aldric acts"))
        .collect();
    let parries: Vec<usize> = (0..lines.len())
        .filter(|&i| {
            lines[i]
                .trim()
                .starts_with("Aldric spends an action on parry")
        })
        .collect();
    let rounds: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("Round "))
        .collect();
    // Round 1: a parry, then his turn; winded ends with that turn.
    assert!(parries[0] < turns[0] && turns[0] < at("Aldric: winded ends"));
    assert!(at("Aldric: winded ends") < rounds[1], "{log}");
    // Round 2: another parry, then his second turn; dazed ends only at its end.
    assert!(rounds[1] < parries[1] && parries[1] < turns[1], "{log}");
    assert!(turns[1] < at("Aldric: dazed ends"), "{log}");
    assert!(at("Aldric: dazed ends") < rounds[2], "{log}");
}

#[test]
fn an_after_rule_reads_the_wound_the_blow_gave() {
    // As in the major wound above: Bryn's attack of 80 against Aldric's parry of 30
    // lands nowhere (no wound: neither rule below holds), then Aldric's 10 gives her a
    // major wound. The rules at the end of the exchange read it: the major one holds,
    // the minor one does not.
    let (dir, ruleset) = fixture_copy(
        "wound-read",
        &[(
            "combat.toml",
            "",
            "\n[[exchanges.melee.after]]\nif = 'wound == \"major\"'\nto = \"defender\"\ndo = \"condition bleeding\"\n\n[[exchanges.melee.after]]\nif = 'wound == \"minor\" or wound == \"serious\"'\nto = \"attacker\"\ndo = \"condition prone\"\n",
        )],
        &[],
    );
    let (log, _) = duel_with("wound-read", &ruleset, "1 1\n80 30\n10 1 7\n", "");
    let _ = fs::remove_dir_all(&dir);
    has(
        &log,
        "Bryn: major wound to right arm\n    Bryn: unconscious\n    Bryn: bleeding",
    );
    assert_eq!(log.matches(": bleeding").count(), 1, "{log}");
    assert!(!log.contains("prone"), "{log}");
}

#[test]
fn check_refuses_a_grade_in_a_test_that_applies_none_and_a_grades_table_without_a_scale() {
    let (dir, _) = fixture_copy(
        "check-grades",
        &[
            (
                "ruleset.toml",
                "success_levels = [\"critical\", \"success\", \"failure\", \"fumble\"]\n",
                "success_levels = [\"critical\", \"success\", \"failure\", \"fumble\"]\ndifficulty_grades = [\"standard\", \"hard\"]\n",
            ),
            (
                "tables/combat.tables",
                "",
                "\nlookup grades \"Difficulty Grades\" {\n  | difficulty | multiply | divide |\n  | standard   | 1 | 1 |\n}\n\nmodifiers graded \"Graded Situations\" {\n  confined \"Attacking in a confined situation\" grade hard\n}\n",
            ),
            (
                "combat.toml",
                "unstable_ground = \"self.modifier.unstable_ground\"\n",
                "unstable_ground = \"self.modifier.unstable_ground\"\n\n[tests.dodge.grades]\ntable = \"grades\"\nstandard = \"standard\"\nround = \"upward\"\n",
            ),
            (
                "combat.toml",
                "target = \"self.skill.dodge\"\nlevel_list = \"d100\"\n",
                "target = \"self.skill.dodge\"\nlevel_list = \"d100\"\n\n[tests.athletics.modifiers]\nconfined = \"self.modifier.confined\"\n",
            ),
        ],
        &[],
    );
    let check = affray(&dir, &["check", "d100_duel"]);
    let _ = fs::remove_dir_all(&dir);
    let report = text(&check.stderr);
    assert!(!check.status.success(), "{report}");
    assert!(
        report.contains("the modifier `confined` is a difficulty grade"),
        "{report}"
    );
    assert!(report.contains("`round = \"upward\"`"), "{report}");
    assert!(report.contains("affray::scenario::not_checked"), "{report}");
    assert!(report.contains("4 problems found"), "{report}");
    assert!(
        report.contains("the look-up `grades` gives the grade `hard` no whole `multiply`"),
        "{report}"
    );
}

#[test]
fn two_failed_opposed_rolls_tie_where_the_test_kind_says_so_and_the_one_resisting_is_unaffected() {
    // The matrix gives a failed attack against a fumbled defence one level. Bryn's 90
    // (a failure) against Aldric's dodge of 99 (a fumble): attacker 1, spent (scripted)
    // on Trip. The dagger lands (1D4 = 2 on the body, 1D10 = 5); then Aldric resists
    // with his Dodge (30): 80, a failure against Bryn's failure. Without `failures_tie`
    // the same level and the lower roll lose: prone. With it, nobody wins: he stands.
    let choices = "[[choices]]\ndecision = \"reaction\"\nby = \"Aldric\"\nchoose = \"dodge\"\n\n\
                   [[choices]]\ndecision = \"manoeuvre\"\nby = \"Bryn\"\nchoose = \"trip\"\n";
    let matrix = (
        "tables/combat.tables",
        "| fumble   | attacker 3 | attacker 2 | -          | -          |",
        "| fumble   | attacker 3 | attacker 2 | attacker 1 | -          |",
    );
    let pass = (
        "combat.toml",
        "target = \"self.skill.dodge\"\nlevel_list = \"d100\"\n",
        "target = \"self.skill.dodge\"\nlevel_list = \"d100\"\npass = [\"critical\", \"success\"]\n",
    );
    let tie = (
        "combat.toml",
        "target = \"self.skill.dodge\"\nlevel_list = \"d100\"\n",
        "target = \"self.skill.dodge\"\nlevel_list = \"d100\"\npass = [\"critical\", \"success\"]\nfailures_tie = true\n",
    );
    let dice = "1 1\n90 99\n2 5\n80\n";
    for (case, dodge, prone) in [("untied", pass, true), ("tied", tie, false)] {
        let (dir, ruleset) = fixture_copy(case, &[matrix, dodge], &[]);
        let (log, _) = duel_with(case, &ruleset, dice, choices);
        let _ = fs::remove_dir_all(&dir);
        has(&log, "Bryn: attack 70, rolled 90: failure");
        has(&log, "Aldric: dodge 30, rolled 99: fumble");
        has(&log, "Aldric: dodge 30, rolled 80: failure");
        assert_eq!(log.contains("Aldric: prone"), prone, "{case}:\n{log}");
    }
}

#[test]
fn a_modifier_in_dice_is_rolled_where_it_applies_or_counts_its_standard_value() {
    // Aldric's parry (the skill test) is harder in the dark: +2D (+6) rolled for the
    // modifier and added to his target, or its standard 6 under `standard_modifiers`.
    let (dir, ruleset) = fixture_copy(
        "dice_modifier",
        &[
            (
                "tables/combat.tables",
                "",
                "\nmodifiers lighting \"Lighting\" {\n  bright \"In bright light\" +2D (+6)\n}\n",
            ),
            (
                "combat.toml",
                "unstable_ground = \"self.modifier.unstable_ground\"\n",
                "unstable_ground = \"self.modifier.unstable_ground\"\nbright = \"not attacking\"\n",
            ),
        ],
        &[],
    );
    let (log, _) = duel_with("dice_modifier_fight", &ruleset, "1 1\n30 30 4 5\n", "");
    let combat = ruleset.join("combat.toml");
    let written = fs::read_to_string(&combat).unwrap();
    fs::write(
        &combat,
        written.replace(
            "level_list = \"d100\"\n\n# The situational",
            "level_list = \"d100\"\nstandard_modifiers = \"self.modifier.unstable_ground or true\"\n\n# The situational",
        ),
    )
    .unwrap();
    let (standard, _) = duel_with("dice_modifier_standard", &ruleset, "1 1\n30 30\n", "");
    let _ = fs::remove_dir_all(&dir);
    // Bryn attacks at 70 (no modifier: she attacks); Aldric parries at 65 + 4 + 5.
    has(&log, "Bryn: attack 70, rolled 30: success");
    has(&log, "2D6 bright for Aldric → 9 (dice showed 4, 5)");
    has(&log, "Aldric: parry 74, rolled 30: success");
    has(&standard, "Aldric: parry 71, rolled 30: success");
    assert!(!standard.contains("bright for"), "{standard}");
}

/// combat.toml's `after` rules of the d100 fixture with a riposte: a parry that wins
/// gives the defender a free strike back, the exchange `riposte` run with the roles
/// swapped; a rule after it reads the first exchange again.
const RIPOSTE: &str = r#"
[[exchanges.melee.after]]
if = 'reaction.parry and outcome.defender'
to = "defender"
do = "strike riposte"

[[exchanges.melee.after]]
if = 'reaction.parry and outcome.defender'
do = "condition off_balance for 1 round"

[exchanges.riposte]
test = "skill"
hits = 'attack.level == "critical" or attack.level == "success"'
damage = "weapon.damage"
location = "hit_location"
armour = "location.armour"
"#;

#[test]
fn a_parry_that_wins_strikes_back_with_an_exchange_run_inside_the_attack() {
    // Bryn attacks and misses (80), Aldric's parry succeeds (30): he wins a level and
    // buys Shield Bash (Bryn loses an action). Then `strike riposte`: Aldric, the
    // defender, runs the exchange `riposte` against Bryn at once, choosing no target and
    // spending no action (his parry's alone: 1 left): 20 succeeds, his broadsword's 1D8
    // = 6 on the body (5), less 1 armour. The next rule reads the attack again: it befalls
    // the attacker, Bryn, the outcome still the defender's.
    let (dir, ruleset) = fixture_copy("riposte", &[("combat.toml", "", RIPOSTE)], &[]);
    let (log, error) = duel_with("riposte_fight", &ruleset, "1 1\n80 30\n20 6 5\n", "");
    let _ = fs::remove_dir_all(&dir);
    has(
        &log,
        "    Aldric: parry 65, rolled 30: success
    Aldric chooses manoeuvre: shield bash (of stagger, trip, shield bash, redirect blow; tactics)
    Bryn loses 1 action
    Aldric strikes at Bryn (riposte)
    1D100 riposte for Aldric → 20
    Aldric: riposte 65, rolled 20: success
    1D8 damage for Aldric → 6
    hit location for Bryn: 5 → Body
    Bryn takes 5 to body, 1 HP left there
    Bryn: off balance for 1 round
  Aldric acts (1 action left)",
    );
    assert_eq!(log.matches("Aldric spends").count(), 1, "{log}");
    has(&error, "the given dice ran out");

    // Without the rule, no riposte: the same dice go on to Aldric's own turn.
    let (log, _) = duel("no_riposte", "1 1\n80 30\n20 6 5\n", "");
    assert!(!log.contains("riposte"), "{log}");
}

/// An `after` rule that asks a decision of the party it befalls: the defender who
/// parries and wins may strike back (`strike`, logged as the text after the exchange's
/// name says) or hold, paying a count the ruleset keeps.
const STRIKE_BACK: &str = r#"
[[exchanges.melee.after]]
if = 'reaction.parry and outcome.defender'
to = "defender"
do = "set strikes_back 2"
decision = "strike_back"

[[exchanges.melee.after.option]]
name = "strike"
if = "defender.value.strikes_back > 0"
do = 'set strikes_back (defender.value.strikes_back - 1), strike riposte "a riposte"'

[[exchanges.melee.after.option]]
name = "hold"

[[exchanges.melee.after.option]]
name = "never"
if = "defender.value.strikes_back > 5"
do = "condition off_balance for 1 round"

[exchanges.riposte]
test = "skill"
hits = 'attack.level == "critical" or attack.level == "success"'
damage = "weapon.damage"
location = "hit_location"
armour = "location.armour"
"#;

#[test]
fn an_after_rule_asks_its_party_a_decision_and_does_the_option_chosen() {
    // Bryn attacks and misses (80), Aldric's parry succeeds (30) and wins: the rule's
    // `do` befalls him (2 kept), then he chooses among the options whose `if` holds
    // (`never` does not), the first by default: he pays one (1 left) and strikes back,
    // the log naming the strike as the rule says.
    let (dir, ruleset) = fixture_copy("strike_back", &[("combat.toml", "", STRIKE_BACK)], &[]);
    let (log, _) = duel_with(
        "strike_back_fight",
        &ruleset,
        "1 1
80 30
20 6 5
",
        "",
    );
    has(
        &log,
        "Aldric chooses strike back: strike (of strike, hold; first option)
    Aldric strikes at Bryn (a riposte)
    1D100 riposte for Aldric → 20",
    );
    has(&log, "Bryn takes 5 to body");
    assert!(!log.contains("off balance"), "{log}");

    // Forced to hold: nothing happens, and the same dice go on to Aldric's own turn.
    let hold = "[[choices]]\ndecision = \"strike_back\"\nby = \"Aldric\"\nchoose = \"hold\"\n";
    let (log, _) = duel_with("strike_back_hold", &ruleset, "1 1\n80 30\n20 6 5\n", hold);
    let _ = fs::remove_dir_all(&dir);
    has(
        &log,
        "Aldric chooses strike back: hold (of strike, hold; scenario)",
    );
    assert!(!log.contains("strikes at"), "{log}");
    has(&log, "Aldric acts");
}

#[test]
fn check_reports_an_after_rules_decision_without_options_and_an_unnamed_option() {
    let (dir, _) = fixture_copy(
        "check-after-decision",
        &[(
            "combat.toml",
            "",
            &STRIKE_BACK.replace("name = \"hold\"\n", "").replace(
                "[[exchanges.melee.after.option]]\nname = \"never\"",
                "[[exchanges.melee.after]]\nto = \"defender\"\ndecision = \"alone\"",
            ),
        )],
        &[],
    );
    let check = affray(&dir, &["check", "d100_duel"]);
    let _ = fs::remove_dir_all(&dir);
    let report = text(&check.stderr);
    assert!(!check.status.success(), "{report}");
    has(&report, "an option with no name");
    has(
        &report,
        "a decision without options, or options without a decision",
    );
}

#[test]
fn an_exchange_that_strikes_itself_stops_at_the_limit_of_nested_exchanges() {
    // Every melee exchange makes its defender strike back with a melee exchange: each
    // attack and parry fails (97), and the third exchange inside the first is one more
    // than `[limits] nested_exchanges` allows.
    let (dir, ruleset) = fixture_copy(
        "strikes_itself",
        &[
            (
                "combat.toml",
                "",
                "\n[[exchanges.melee.after]]\nif = \"true\"\nto = \"defender\"\ndo = \"strike melee\"\n",
            ),
            ("ruleset.toml", "", "\n[limits]\nnested_exchanges = 2\n"),
        ],
        &[],
    );
    let (log, error) = duel_with(
        "strikes_itself_fight",
        &ruleset,
        "1 1\n97 97\n97 97\n97 97\n",
        "",
    );
    let _ = fs::remove_dir_all(&dir);
    assert_eq!(log.matches("strikes at").count(), 2, "{log}");
    has(&log, "Bryn strikes at Aldric (melee)");
    has(&error, "affray::fight::limit");
    has(
        &error,
        "it reached its limit of 2 exchanges run one inside another",
    );
    has(&error, "nested_exchanges");
    assert!(!error.contains("ran out"), "{error}");
}

#[test]
fn check_reports_a_misspelt_exchange_to_strike_and_a_strike_outside_an_exchange() {
    let (dir, _) = fixture_copy(
        "check-strike",
        &[
            (
                "combat.toml",
                "",
                &RIPOSTE.replace("strike riposte", "strike ripost"),
            ),
            (
                "combat.toml",
                "before = \"set guard 0\"",
                "before = \"strike melee\"",
            ),
            (
                "tables/combat.tables",
                "\"Lose the next action.\"        => lose 1 action",
                "\"Lose the next action.\"        => strike melee",
            ),
        ],
        &[],
    );
    let check = affray(&dir, &["check", "d100_duel"]);
    let _ = fs::remove_dir_all(&dir);
    let report = text(&check.stderr);
    assert!(!check.status.success(), "{report}");
    has(&report, "affray::combat::unknown_exchange");
    has(&report, "unknown exchange `ripost`");
    // The caret under the name, in combat.toml.
    has(&report, "combat.toml:");
    has(&report, "do = \"strike ripost\"");
    has(&report, "╰── no such exchange");
    has(&report, "did you mean `riposte`?");
    has(
        &report,
        "`strike melee` is done to an exchange's blow, weapon or parties",
    );
    has(&report, "`strike melee` is an action of combat.toml");
}

#[test]
fn a_value_kept_toward_an_opponent_is_read_by_the_party_it_names() {
    // `set toward struck (...)` counts, on the attacker, the blows it struck at the
    // defender; the attack test adds 20 for each blow the defender struck at the
    // attacker (`other.toward.struck`), and the damage adds the defender's count toward
    // the attacker (`defender.toward.struck`). Bryn attacks first (70, rolled 30:
    // nothing of Aldric's toward her yet), Aldric parries; then she has struck at him
    // once: Aldric attacks at 65 + 20 = 85, her parry stays 70 (Aldric struck at nobody),
    // and his 1D8 = 6 + 1D4 = 3 + 1 = 10 is half deflected (5).
    let (dir, ruleset) = fixture_copy(
        "toward",
        &[
            (
                "combat.toml",
                "[turn]\n",
                "toward = [\"struck\"]\n\n[turn]\n",
            ),
            (
                "combat.toml",
                "target = \"self.skill.combat - ",
                "target = \"self.skill.combat + 20 * other.toward.struck - ",
            ),
            (
                "combat.toml",
                "+ attacker.statistic.damage_modifier\n",
                "+ attacker.statistic.damage_modifier + defender.toward.struck\n",
            ),
            (
                "combat.toml",
                "",
                "\n[[exchanges.melee.after]]\nif = \"true\"\ndo = \"set toward struck (self.toward.struck + 1)\"\n",
            ),
        ],
        &[],
    );
    let (log, _) = duel_with("toward_fight", &ruleset, "1 1\n30 30 3\n40 40 6 3 5\n", "");
    has(&log, "Bryn: attack 70, rolled 30: success");
    has(&log, "Aldric: parry 65, rolled 30: success");
    has(&log, "Aldric: attack 85, rolled 40: success");
    has(&log, "Bryn: parry 70, rolled 40: success");
    has(&log, "Bryn deflects 5");

    // A tactics list reads them too: each opponent in turn as `other`, `self.toward.NAME`
    // is toward it. Aldric, who has struck at nobody, parries Bryn; Bryn, who has struck
    // at Aldric, dodges him.
    let tactics = ruleset.join("tactics.toml");
    let written = fs::read_to_string(&tactics).unwrap();
    fs::write(
        &tactics,
        format!("[[reaction]]\nif = \"any(opponents, self.toward.struck > 0)\"\nchoose = \"dodge\"\n{written}"),
    )
    .unwrap();
    let (log, _) = duel_with("toward_tactics", &ruleset, "1 1\n30 30 3\n40 40\n", "");
    has(&log, "Aldric chooses reaction: parry");
    has(&log, "Bryn chooses reaction: dodge");
    fs::write(&tactics, written).unwrap();

    // A name that `toward` does not list is refused where it is set and where it is read.
    let combat = ruleset.join("combat.toml");
    let written = fs::read_to_string(&combat).unwrap();
    for (from, to, help) in [
        (
            "set toward struck",
            "set toward strck",
            "did you mean `struck`?",
        ),
        (
            "other.toward.struck",
            "other.toward.strick",
            "did you mean `struck`?",
        ),
    ] {
        fs::write(&combat, written.replace(from, to)).unwrap();
        let check = affray(&dir, &["check", "d100_duel"]);
        let report = text(&check.stderr);
        assert!(!check.status.success(), "{report}");
        has(&report, help);
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_location_found_at_the_attack_is_read_by_the_defence_and_hits() {
    // `location_at = "attack"`: the hit location is rolled once the attack is rolled,
    // before the defence, whose test reads it (a parry of the head is at +30), as does
    // `hits` (a blow at the right arm misses); the blow lands where it was found, with no
    // roll of its own. Bryn (30) aims at Aldric's head (9): his parry is at 65 + 30; her
    // dagger's 3 is deflected. Aldric (40) finds Bryn's body (5): her parry stays 70
    // (not the head), his 9 is half deflected and lands at the body, no die rolled: 5
    // less 1 armour.
    let (dir, ruleset) = fixture_copy(
        "location_at",
        &[
            (
                "combat.toml",
                "location = \"hit_location\"\n",
                "location = \"hit_location\"\nlocation_at = \"attack\"\n",
            ),
            (
                "combat.toml",
                "target = \"self.skill.combat - ",
                r#"target = "self.skill.combat + if not attacking and location == \"head\" { 30 } else { 0 } - "#,
            ),
            (
                "combat.toml",
                "hits = 'outcome.attacker or",
                "hits = 'location != \"right_arm\" and outcome.attacker or location != \"right_arm\" and",
            ),
        ],
        &[],
    );
    let (log, _) = duel_with(
        "location_at_head",
        &ruleset,
        "1 1\n30 9 30 3\n40 5 40 6 3\n",
        "",
    );
    has(&log, "Bryn: attack 70, rolled 30: success");
    has(&log, "hit location for Aldric: 9 → Head");
    has(&log, "Aldric: parry 95, rolled 30: success");
    let located = log.find("hit location for Aldric").unwrap();
    assert!(located < log.find("Aldric: parry 95").unwrap(), "{log}");
    has(&log, "Aldric deflects 3");
    has(&log, "Aldric: attack 65, rolled 40: success");
    has(&log, "hit location for Bryn: 5 → Body");
    has(&log, "Bryn: parry 70, rolled 40: success");
    has(&log, "Bryn deflects 4");
    has(&log, "Bryn takes 4 to body");
    assert_eq!(log.matches("hit location for").count(), 2, "{log}");

    // A blow found at the right arm does not hit: no damage is rolled.
    let (log, _) = duel_with(
        "location_at_arm",
        &ruleset,
        "1 1\n30 7 30\n40 5 40 6 3\n",
        "",
    );
    has(&log, "hit location for Aldric: 7 → Right Arm");
    has(&log, "Aldric: parry 65, rolled 30: success");
    assert!(!log.contains("Aldric deflects"), "{log}");
    has(&log, "Bryn takes 4 to body");

    // A stage it does not know is refused.
    let combat = ruleset.join("combat.toml");
    let written = fs::read_to_string(&combat).unwrap();
    fs::write(
        &combat,
        written.replace("location_at = \"attack\"", "location_at = \"atack\""),
    )
    .unwrap();
    let check = affray(&dir, &["check", "d100_duel"]);
    let report = text(&check.stderr);
    assert!(!check.status.success(), "{report}");
    has(&report, "did you mean `attack`?");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_test_logged_with_its_margin_and_a_reaction_with_a_label_and_actions_before_its_test() {
    // `log_margin`: the skill test is logged with its margin ("success, by 40"). The
    // parry's `label` names the weapon it is made with ("Parry with Round shield",
    // "Parry with Dagger"), and its `before` asks the defender a decision once the parry
    // is declared and the attack rolled, before the parry's own test, which reads what the
    // chosen option did: bracing, +10 to the parry (Aldric's 65, Bryn's 70), not to an
    // attack.
    let (dir, ruleset) = fixture_copy(
        "reaction_label_before",
        &[
            (
                "combat.toml",
                "target = \"self.skill.combat - if self.off_balance { 20 } else { 0 }\"\nlevel_list = \"d100\"\n",
                "target = \"self.skill.combat - if self.off_balance { 20 } else { 0 } + if attacking { 0 } else { 10 * self.value.braced }\"\nlevel_list = \"d100\"\nlog_margin = true\n",
            ),
            (
                "combat.toml",
                "name = \"parry\"\ntest = \"skill\"\n",
                "name = \"parry\"\nlabel = \"Parry with {weapon}\"\nbefore = \"decide brace\"\ntest = \"skill\"\n",
            ),
            (
                "combat.toml",
                "",
                "\n[[decisions.brace.option]]\nname = \"brace\"\ndo = \"set braced 1\"\n[[decisions.brace.option]]\nname = \"stand\"\ndo = \"set braced 0\"\n",
            ),
        ],
        &[],
    );
    let (log, _) = duel_with(
        "reaction_label_before",
        &ruleset,
        "1 1\n30 30 3\n40 40 6 3 5\n",
        "",
    );
    has(&log, "Bryn: attack 70, rolled 30: success, by 40");
    has(
        &log,
        "Aldric: Parry with Round shield 75, rolled 30: success, by 45",
    );
    has(&log, "Aldric: attack 65, rolled 40: success, by 25");
    has(
        &log,
        "Bryn: Parry with Dagger 80, rolled 40: success, by 40",
    );
    let attack = log.find("Bryn: attack 70").unwrap();
    let brace = log
        .find("Aldric chooses brace: brace (of brace, stand")
        .unwrap();
    let parry = log.find("Aldric: Parry with Round shield").unwrap();
    assert!(attack < brace && brace < parry, "{log}");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn injury_says_what_is_taken_past_the_armour_worn_at_the_location() {
    // The armour stops what the armour worn at the location gives as `dr_cut`
    // (`location.worn.dr_cut`: the leather's 3), and `injury` takes half again of what
    // gets through from a weapon that gives `cut` (the broadsword). Aldric's 1D8 = 6 +
    // 1D4 = 3 = 9, 4 deflected, 5 at the body less 3: 2 get through, 3 taken.
    let (dir, ruleset) = fixture_copy(
        "injury",
        &[
            (
                "combat.toml",
                "armour = 'if chosen.bypass_armour > 0 { 0 } else { location.armour }'",
                "armour = 'location.worn.dr_cut'\ninjury = 'if weapon.value.cut > 0 { damage * 3 / 2 } else { damage }'",
            ),
            (
                "equipment.toml",
                "ap = 1",
                "ap = 1\nvalues = { dr_cut = 3 }",
            ),
            (
                "equipment.toml",
                "damage = \"1d8\"\n",
                "damage = \"1d8\"\nvalues = { cut = 1 }\n",
            ),
        ],
        &[],
    );
    let (log, _) = duel_with("injury_fight", &ruleset, "1 1\n30 30 3\n40 40 6 3 5\n", "");
    has(&log, "Bryn deflects 4");
    has(&log, "Bryn takes 3 to body, 3 HP left there");

    // A name no armour gives a number is refused, with the names that are.
    let combat = ruleset.join("combat.toml");
    let written = fs::read_to_string(&combat).unwrap();
    fs::write(&combat, written.replace("worn.dr_cut", "worn.dr_cutt")).unwrap();
    let check = affray(&dir, &["check", "d100_duel"]);
    let report = text(&check.stderr);
    assert!(!check.status.success(), "{report}");
    has(&report, "did you mean `dr_cut`?");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn one_pool_takes_every_blow_at_the_location_found_for_the_armour() {
    // `pool = "total"`: Bryn has 12 hit points in one pool beside the hit location
    // table; Aldric's blow is found at the body (5), whose armour (1) it reads, and is
    // taken from the pool: 9, 4 deflected, 5 less 1, 4 taken, 8 left; the body keeps its 6.
    let (dir, ruleset) = fixture_copy(
        "pool",
        &[
            (
                "combat.toml",
                "location = \"hit_location\"\n",
                "location = \"hit_location\"\npool = \"total\"\n",
            ),
            (
                "combat.toml",
                "if = \"location.hit_points <= 0\"",
                "if = \"defender.hit_points <= 0\"",
            ),
            (
                "scenarios/duel.toml",
                "body = 6, right_arm = 3, left_arm = 3, head = 4 }",
                "body = 6, right_arm = 3, left_arm = 3, head = 4, total = 12 }",
            ),
        ],
        &[],
    );
    let (log, _) = duel_with("pool_fight", &ruleset, "1 1\n30 30 3\n40 40 6 3 5\n", "");
    has(&log, "hit location for Bryn: 5 → Body");
    has(&log, "Bryn deflects 4");
    has(&log, "Bryn takes 4, 8 HP left");
    assert!(!log.contains("Bryn takes 4 to body"), "{log}");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_rule_repeated_is_done_that_many_times_while_its_guard_holds() {
    // An `after` rule with `repeat = "5"` adds 1 to the attacker's `count` while it is
    // under 3: after Bryn's attack it is done three times, not five (its guard read
    // again before each time), and her parry adds 10 for each: 70 + 30.
    let (dir, ruleset) = fixture_copy(
        "repeat",
        &[
            (
                "combat.toml",
                "target = \"self.skill.combat - ",
                "target = \"self.skill.combat + 10 * self.value.count - ",
            ),
            (
                "combat.toml",
                "",
                "\n[[exchanges.melee.after]]\nif = \"self.value.count < 3\"\nrepeat = \"5\"\ndo = \"set count (self.value.count + 1)\"\n",
            ),
        ],
        &[],
    );
    let (log, _) = duel_with("repeat_fight", &ruleset, "1 1\n30 30 3\n40 40 6 3 5\n", "");
    has(&log, "Bryn: attack 70, rolled 30: success");
    has(&log, "Aldric: attack 65, rolled 40: success");
    has(&log, "Bryn: parry 100, rolled 40: success");

    // A count may not roll dice.
    let combat = ruleset.join("combat.toml");
    let written = fs::read_to_string(&combat).unwrap();
    fs::write(
        &combat,
        written.replace("repeat = \"5\"", "repeat = \"1d6\""),
    )
    .unwrap();
    let check = affray(&dir, &["check", "d100_duel"]);
    let report = text(&check.stderr);
    assert!(!check.status.success(), "{report}");
    has(&report, "repeat");
    let _ = fs::remove_dir_all(&dir);
}

/// A third combatant, Cael, on Bryn's side, who starts prone: the scenario of the
/// fixture at `ruleset`, written in `dir`.
fn three_with_cael_prone(dir: &Path, ruleset: &Path) -> PathBuf {
    let scenario = fs::read_to_string(root().join("tests/fixtures/d100_duel/scenarios/duel.toml"))
        .unwrap()
        .replace(
            "ruleset = \"d100_duel\"",
            &format!("ruleset = {:?}", ruleset.to_string_lossy()),
        );
    let path = dir.join("three.toml");
    fs::write(
        &path,
        format!(
            "{scenario}
[[combatants]]
name = \"Cael\"
side = \"blue\"
characteristics = {{ STR = 11, CON = 12, SIZ = 10, DEX = 16 }}
skills = {{ combat = 50, dodge = 55, athletics = 60 }}
weapons = [\"dagger\"]
armour = {{ all = \"leather\" }}
hit_points = {{ right_leg = 4, left_leg = 4, body = 6, right_arm = 3, left_arm = 3, head = 4 }}
statistics = {{ damage_modifier = \"0\" }}
conditions = [\"prone\"]
"
        ),
    )
    .unwrap();
    path
}

/// An action's `targets`: the exchange is run only against the foes for which it holds
/// (`other` each foe), so Aldric, who may not strike a foe on the ground, is never
/// offered the prone Cael; the fixture as it is offers both.
#[test]
fn an_actions_targets_are_the_foes_its_guard_holds_for() {
    let (dir, ruleset) = fixture_copy(
        "action_targets",
        &[(
            "combat.toml",
            "exchange = \"melee\"\n",
            "exchange = \"melee\"\ntargets = \"not other.prone\"\n",
        )],
        &[],
    );
    let filtered = three_with_cael_prone(&dir, &ruleset);
    let plain = dir.join("plain");
    fs::create_dir_all(&plain).unwrap();
    let unfiltered = three_with_cael_prone(&plain, &root().join("tests/fixtures/d100_duel"));
    let fight = |scenario: &Path| {
        text(&affray(&dir, &["fight", &scenario.to_string_lossy(), "--seed", "2"]).stdout)
    };
    let (with, without) = (fight(&filtered), fight(&unfiltered));
    let _ = fs::remove_dir_all(&dir);
    has(
        &without,
        "Aldric chooses target: Bryn (of Bryn, Cael; tactics)",
    );
    has(&with, "Aldric target: Bryn");
    assert!(!with.contains("of Bryn, Cael"), "Cael offered:\n{with}");
    assert!(
        !with.contains("Aldric target: Cael"),
        "Cael struck:\n{with}"
    );
}

/// `engaged_foes (...)` in a turn rule: each foe at hand of the combatant whose turn
/// it is does the actions, and a `strike` of theirs is aimed at that combatant (a free
/// attack on whoever lowers his guard). Refused in an exchange, as `strike` is outside
/// the foes' actions in a turn rule.
#[test]
fn the_foes_at_hand_strike_at_whoever_takes_an_action_that_draws_free_attacks() {
    let (dir, ruleset) = fixture_copy(
        "engaged_foes",
        &[(
            "combat.toml",
            "before = \"set guard 1\"",
            "before = 'set guard 1, engaged_foes (strike melee \"free attack\")'",
        )],
        &[],
    );
    let choices = "[[choices]]\ndecision = \"action\"\nby = \"Aldric\"\nchoose = \"guard\"\n";
    let (log, _) = duel_with(
        "engaged_foes_fight",
        &ruleset,
        "1 1\n30 30 3\n40 40\n",
        choices,
    );
    // Bryn (DEX 16) acts first and attacks; Aldric then guards, and Bryn strikes at
    // him at once with the exchange `melee`, which Aldric parries.
    has(&log, "Bryn: attack 70, rolled 30: success");
    has(&log, "Aldric chooses action: guard");
    has(&log, "Bryn strikes at Aldric (free attack)");
    let after = &log[log.find("Bryn strikes at Aldric (free attack)").unwrap()..];
    has(after, "Bryn: attack 70, rolled 40: success");
    has(after, "Aldric: parry 65, rolled 40: success");

    let combat = ruleset.join("combat.toml");
    let written = fs::read_to_string(&combat).unwrap();
    fs::write(
        &combat,
        written.replace(
            "before = 'set guard 1, engaged_foes (strike melee \"free attack\")'",
            "before = 'set guard 1, strike melee'",
        ) + "\n[[exchanges.melee.after]]\nif = \"true\"\ndo = \"engaged_foes (set guard 0)\"\n",
    )
    .unwrap();
    let check = affray(&dir, &["check", "d100_duel"]);
    let _ = fs::remove_dir_all(&dir);
    let errors = text(&check.stderr);
    has(&errors, "only in an exchange");
    has(&errors, "`strike melee` is done to an exchange's blow");
    has(&errors, "only in a turn rule");
    has(
        &errors,
        "`engaged_foes (set guard 0)` is done by the foes at hand",
    );
}

/// `decide NAME` in `engaged_foes (...)`: each foe at hand chooses among the options of
/// `[decisions.NAME]` whose guards hold, read with the foe as `self` (Aldric, who has
/// just set his guard, would be offered no attack), and the chosen option's `strike` is
/// aimed at the combatant whose turn it is; a scenario's `[[choices]]` answers it.
/// `check` refuses a decision that `[decisions]` lacks.
#[test]
fn each_foe_at_hand_decides_by_the_options_of_a_named_decision() {
    let decisions = "\n[[decisions.free_attack.option]]\nname = \"attack\"\nif = \"self.value.guard == 0\"\ndo = 'strike melee \"free attack\"'\n\n[[decisions.free_attack.option]]\nname = \"hold\"\n";
    let (dir, ruleset) = fixture_copy(
        "decide",
        &[
            (
                "combat.toml",
                "before = \"set guard 1\"",
                "before = 'set guard 1, engaged_foes (decide free_attack)'",
            ),
            ("combat.toml", "", decisions),
        ],
        &[],
    );
    let choices = |free: &str| {
        format!(
            "[[choices]]\ndecision = \"action\"\nby = \"Aldric\"\nchoose = \"guard\"\n\n[[choices]]\ndecision = \"free_attack\"\nby = \"Bryn\"\nchoose = \"{free}\"\n"
        )
    };
    let dice = "1 1\n30 30 3\n40 40\n";
    // Bryn (DEX 16) attacks first; Aldric then guards, and Bryn, asked, strikes at him.
    let (log, _) = duel_with("decide_attack", &ruleset, dice, &choices("attack"));
    has(&log, "Aldric chooses action: guard");
    has(
        &log,
        "Bryn chooses free attack: attack (of attack, hold; scenario)",
    );
    has(&log, "Bryn strikes at Aldric (free attack)");
    let after = &log[log.find("Bryn strikes at Aldric (free attack)").unwrap()..];
    has(after, "Bryn: attack 70, rolled 40: success");
    // Let go, nothing is struck.
    let (log, _) = duel_with("decide_hold", &ruleset, dice, &choices("hold"));
    has(
        &log,
        "Bryn chooses free attack: hold (of attack, hold; scenario)",
    );
    assert!(!log.contains("strikes at"), "a strike:\n{log}");

    let combat = ruleset.join("combat.toml");
    let written = fs::read_to_string(&combat).unwrap();
    fs::write(
        &combat,
        written.replace("(decide free_attack)", "(decide free_atack)"),
    )
    .unwrap();
    let check = affray(&dir, &["check", "d100_duel"]);
    let _ = fs::remove_dir_all(&dir);
    let errors = text(&check.stderr);
    has(&errors, "free_atack");
    has(&errors, "free_attack");
}

/// An `[[action]]` may ask the actor a decision after its `before` actions, as a round
/// rule does: the options whose guards hold, the chosen one's actions done to it
/// before the exchange; a scenario's `[[choices]]` may answer it.
#[test]
fn an_action_asks_its_actor_a_decision_among_its_options() {
    let (_dir, ruleset) = fixture_copy(
        "action_decision",
        &[(
            "combat.toml",
            "before = \"set guard 1\"\n",
            "before = \"set guard 1\"\ndecision = \"stance\"\n\n[[action.option]]\nname = \"crouch\"\ndo = \"condition prone\"\n\n[[action.option]]\nname = \"stand\"\n\n[[action.option]]\nname = \"leap\"\nif = \"self.skill.combat > 100\"\n",
        )],
        &[],
    );
    let choices = "[[choices]]\ndecision = \"action\"\nby = \"Aldric\"\nchoose = \"guard\"\n\n[[choices]]\ndecision = \"stance\"\nby = \"Aldric\"\nchoose = \"crouch\"\n";
    let (log, errors) = duel_with("action_decision_fight", &ruleset, "1 1\n30 30 3\n", choices);
    // Leap is not offered: Aldric's combat is 65.
    has(&log, "Aldric chooses action: guard");
    has(
        &log,
        "Aldric chooses stance: crouch (of crouch, stand; scenario)",
    );
    has(&log, "Aldric: prone");
    assert!(!errors.contains("stance"), "{errors}");
}

/// The fixture with a Luck Point each: a failed test of `skill` may be rolled again for
/// one (`[tests.skill.reroll]`), once.
fn fixture_with_luck(case: &str) -> (PathBuf, PathBuf) {
    fixture_copy(
        case,
        &[
            (
                "combat.toml",
                "[tests.dodge]",
                r#"[tests.skill.reroll]
if = 'level == "failure" and self.value.luck > 0'
decision = "use_luck_point"
options = ["reroll", "accept"]
do = "set luck (self.value.luck - 1)"

[tests.dodge]"#,
            ),
            ("combat.toml", "", "\n[[setup]]\ndo = \"set luck 1\"\n"),
        ],
        &[],
    )
}

#[test]
fn a_failed_test_may_be_rolled_again_once_for_what_its_reroll_costs() {
    // Bryn attacks at 70 and rolls 80, a failure: her Luck Point buys a second roll, 30,
    // a success, which stands. Aldric parries at 65 with 30: no reroll for a success.
    // His own attack at 65: 97 fails, his Luck Point rolls again, 99 fumbles, and the
    // fumble stands (one reroll). Her parry: 98 fails, and her point is spent: it stands.
    let (dir, ruleset) = fixture_with_luck("luck");
    let (log, _) = duel_with("luck_fight", &ruleset, "1 1\n80 30 30 3\n97 99 98\n", "");
    has(&log, "Bryn: attack 70, rolled 80: failure");
    has(
        &log,
        "Bryn chooses use luck point: reroll (of reroll, accept; first option)",
    );
    has(&log, "Bryn: attack 70, rolled 30: success");
    has(&log, "Aldric: parry 65, rolled 30: success");
    has(&log, "Aldric: attack 65, rolled 97: failure");
    has(&log, "Aldric: attack 65, rolled 99: fumble");
    has(&log, "Bryn: parry 70, rolled 98: failure");
    assert_eq!(log.matches("use luck point").count(), 2, "{log}");

    // Declined (a scenario's choice): the first roll stands and the point is kept.
    let (log, _) = duel_with(
        "luck_declined",
        &ruleset,
        "1 1\n80 30 3\n",
        "[[choices]]\ndecision = \"use_luck_point\"\nchoose = \"accept\"\n",
    );
    let _ = fs::remove_dir_all(&dir);
    has(&log, "Bryn chooses use luck point: accept");
    has(&log, "Bryn: attack 70, rolled 80: failure");
    assert!(!log.contains("Bryn: attack 70, rolled 30"), "{log}");
}

#[test]
fn a_reroll_reads_the_level_of_its_test_and_nothing_else_does() {
    // `level` is the test's only once it has one: in a level's guard it is unknown.
    let (dir, ruleset) = fixture_copy(
        "level_in_a_target",
        &[(
            "combat.toml",
            "target = \"self.skill.dodge\"",
            "target = 'if level == \"failure\" { 1 } else { self.skill.dodge }'",
        )],
        &[],
    );
    let output = common::affray(&dir, &["check", ruleset.to_str().unwrap()]);
    let _ = fs::remove_dir_all(&dir);
    let error = text(&output.stderr);
    assert!(!output.status.success(), "{error}");
    assert!(error.contains("`level`"), "{error}");
}

#[test]
fn targets_over_the_limit_lower_both_tests_and_each_is_read_again() {
    // Bryn's combat 120 against Aldric's 65, with `excess_over = 100`: 20 comes off
    // both. Her 6, a critical at 120 (a twentieth, 6), is a success at 100 (5); his
    // parry's 50, a success at 65, a failure at 45.
    let (dir, ruleset) = fixture_copy(
        "excess",
        &[
            (
                "combat.toml",
                "[tests.skill]\n",
                "[tests.skill]\nexcess_over = 100\n",
            ),
            (
                "scenarios/duel.toml",
                "skills = { combat = 70,",
                "skills = { combat = 120,",
            ),
        ],
        &[],
    );
    let (log, _) = duel_with("excess_fight", &ruleset, "1 1\n6 50\n", "");
    let _ = fs::remove_dir_all(&dir);
    has(&log, "Bryn: attack 120, rolled 6: critical");
    has(&log, "Aldric: parry 65, rolled 50: success");
    has(
        &log,
        "targets over 100: both lowered by 20 (Bryn success, Aldric failure)",
    );
    has(&log, "Bryn chooses manoeuvre");
}

#[test]
fn a_bonus_gives_the_attacker_effects_where_the_defender_did_not_win() {
    // A surprise's "bonus Special Effect" on the first round: Bryn's 30 and Aldric's
    // parry 30 both succeed, and the matrix gives nobody a level; the bonus gives her
    // one, and a manoeuvre. Where the defender wins (her 80 fails), none.
    let (dir, ruleset) = fixture_copy(
        "bonus",
        &[(
            "combat.toml",
            "effects = { list = \"manoeuvres\", decision = \"manoeuvre\" }",
            "effects = { list = \"manoeuvres\", decision = \"manoeuvre\", bonus = \"if round == 1 { 1 } else { 0 }\" }",
        )],
        &[],
    );
    let (log, _) = duel_with("bonus_fight", &ruleset, "1 1\n30 30\n", "");
    has(&log, "Bryn: attack 70, rolled 30: success");
    has(&log, "Aldric: parry 65, rolled 30: success");
    has(&log, "Bryn gains 1 bonus level");
    has(&log, "Bryn chooses manoeuvre");
    let (log, _) = duel_with("bonus_lost", &ruleset, "1 1\n80 30\n", "");
    let _ = fs::remove_dir_all(&dir);
    has(&log, "Bryn: attack 70, rolled 80: failure");
    has(&log, "Aldric chooses manoeuvre");
    assert!(!log.contains("bonus level"), "{log}");
}

/// The d20 fixture (no hit location table) with a called location: a look-up `aim`
/// whose rows are where a blow may be aimed and what it adds to the damage, a modifier
/// list that makes each harder to hit, an action `aimed_attack` that aims the strike,
/// and a blow to the head that throws the defender off balance (`after`, at the wound).
/// `check` edits the copy's combat.toml further (file text, replacement). The folder
/// and the ruleset's path.
fn aimed_copy(case: &str, edits: &[(&str, &str)]) -> (PathBuf, PathBuf) {
    let dir = scratch(case);
    let ruleset = dir.join("d20_skirmish");
    copy_dir(&root().join("tests/fixtures/d20_skirmish"), &ruleset);
    fs::write(
        ruleset.join("tables/aim.tables"),
        "modifiers aiming \"Aimed blows: how much harder\" {\n  \
           aim_head \"Aimed at the head\" +4\n  \
           aim_arm  \"Aimed at an arm\"   +2\n}\n\n\
         lookup aim \"Aimed blows: damage\" {\n  \
           | location | damage |\n  \
           | head     | 3      |\n  \
           | arm      | -1     |\n}\n",
    )
    .unwrap();
    let path = ruleset.join("combat.toml");
    let mut combat = fs::read_to_string(&path).unwrap();
    for (from, to) in [
        (
            "exchange = \"strike\"\n",
            "exchange = \"strike\"\n\n[[action]]\nname = \"aimed_attack\"\nexchange = \"strike\"\nlocation = \"aim\"\n",
        ),
        (
            "+ attacker.statistic.damage_bonus",
            "+ attacker.statistic.damage_bonus + lookup(\"aim\", location, \"damage\")",
        ),
        (
            "[exchanges.strike]",
            "[tests.attack.modifiers]\naim_head = 'attacking and location == \"head\"'\naim_arm = 'attacking and location == \"arm\"'\n\n[exchanges.strike]",
        ),
    ]
    .iter()
    .chain(edits)
    {
        let edited = combat.replacen(from, to, 1);
        assert_ne!(combat, edited, "`{from}` moved in combat.toml");
        combat = edited;
    }
    combat.push_str(
        "\n[[exchanges.strike.after]]\nat = \"wound\"\nto = \"defender\"\nif = 'location == \"head\"'\ndo = \"condition off_balance for 1 round\"\n",
    );
    fs::write(&path, combat).unwrap();
    let duel = fs::read_to_string(ruleset.join("scenarios/skirmish.toml"))
        .unwrap()
        .replace(
            "ruleset = \"d20_skirmish\"",
            &format!("ruleset = {:?}", ruleset.to_string_lossy()),
        );
    // Kara against one raider.
    let duel = duel.replace("count = 2\n", "");
    let duel = match duel.find("[[combatants]]\nname = \"Dunmore\"") {
        Some(at) => {
            let end = duel[at..].find("\n\n").map_or(duel.len(), |e| at + e + 2);
            format!("{}{}", &duel[..at], &duel[end..])
        }
        None => duel,
    };
    fs::write(dir.join("duel.toml"), duel).unwrap();
    (dir, ruleset)
}

/// Kara's turn with `dice`, her action and location scripted: the log and errors.
fn aimed_fight(dir: &Path, dice: &str, location: &str) -> (String, String) {
    let scenario = fs::read_to_string(dir.join("duel.toml")).unwrap();
    let choices = format!(
        "\n[[choices]]\ndecision = \"action\"\nby = \"Kara\"\nchoose = \"aimed_attack\"\n\n\
         [[choices]]\ndecision = \"location\"\nby = \"Kara\"\nchoose = \"{location}\"\n"
    );
    fs::write(dir.join("aimed.toml"), format!("{scenario}{choices}")).unwrap();
    fs::write(dir.join("dice.txt"), dice).unwrap();
    let output = affray(dir, &["fight", "aimed.toml", "--dice", "dice.txt"]);
    (text(&output.stdout), text(&output.stderr))
}

#[test]
fn a_called_location_with_no_roll_table_is_chosen_with_the_attack_and_read_by_its_rules() {
    // Initiative: Kara 15 + 3, the raider 5 + 1. Kara aims at the head: the raider's
    // defence 12 + 4 = 16. A roll of 11 + 5 = 16 hits; 1D6 = 4 + 1 + 3 at the head = 8
    // off the pool of 12 (no location table: no location die, and the hit points are
    // the pool's), and the blow to the head throws him off balance.
    let (dir, _) = aimed_copy("called_location", &[]);
    let (head, error) = aimed_fight(&dir, "15 5\n11 4\n", "head");
    // At an arm: 12 + 2 = 14; 9 + 5 = 14 hits; 1D6 = 4 + 1 - 1 = 4; nobody off balance.
    let (arm, _) = aimed_fight(&dir, "15 5\n9 4\n", "arm");
    // At the head, 10 + 5 = 15 does not reach 16.
    let (missed, _) = aimed_fight(&dir, "15 5\n10\n", "head");
    let _ = fs::remove_dir_all(&dir);
    has(&head, "Kara chooses action: aimed attack");
    has(&head, "Kara chooses location: head");
    has(&head, "Kara: attack against defence 16, rolled 16: hit");
    has(&head, "Raider takes 8, 4 HP left");
    has(&head, "Raider: off balance");
    assert!(!head.contains("hit location"), "{head}");
    has(&error, "the given dice ran out");
    has(&arm, "Kara chooses location: arm");
    has(&arm, "Kara: attack against defence 14, rolled 14: hit");
    has(&arm, "Raider takes 4, 8 HP left");
    assert!(!arm.contains("off balance"), "{arm}");
    has(&missed, "Kara: attack against defence 16, rolled 15: miss");
    assert!(!missed.contains("Raider takes"), "{missed}");
}

#[test]
fn check_reports_a_called_location_that_names_no_table_of_locations_or_aims_no_exchange() {
    let (dir, ruleset) = aimed_copy(
        "called_location_check",
        &[(
            "location = \"aim\"\n",
            "location = \"aiming\"\n\n[[action]]\nname = \"aim_only\"\nlocation = \"aim\"\n\n\
             [[action]]\nname = \"aim_nowhere\"\nexchange = \"strike\"\nlocation = \"aimm\"\n",
        )],
    );
    let check = affray(&dir, &["check", ruleset.to_str().unwrap()]);
    let _ = fs::remove_dir_all(&dir);
    let report = flat(&text(&check.stderr));
    assert!(!check.status.success(), "{report}");
    has(
        &report,
        "`aiming` is a modifiers table; a called location needs a look-up",
    );
    has(
        &report,
        "`aim_only` names a called location but runs no exchange",
    );
    has(&report, "did you mean `aim`?");
}

#[test]
fn check_reports_a_called_location_the_exchanges_own_location_table_lacks() {
    // The d100 fixture lands its blows on the rows of `hit_location`: an action aiming
    // at a row it lacks is refused.
    let (dir, ruleset) = fixture_copy(
        "called_location_rows",
        &[(
            "combat.toml",
            "",
            "\n[[action]]\nname = \"aimed\"\nexchange = \"melee\"\nlocation = \"aim\"\n",
        )],
        &[],
    );
    fs::write(
        ruleset.join("tables/aim.tables"),
        "lookup aim \"Aim\" {\n  | location | damage |\n  | head | 1 |\n  | tail | 2 |\n}\n",
    )
    .unwrap();
    let check = affray(&dir, &["check", "d100_duel"]);
    let _ = fs::remove_dir_all(&dir);
    let report = flat(&text(&check.stderr));
    assert!(!check.status.success(), "{report}");
    has(&report, "`tail`, a row of `aim`, is not a row of");
}

#[test]
fn an_exchange_may_name_the_decision_its_reactions_are_declared_by() {
    // The parried blow of the first test, with the reaction declared by the decision
    // `defend`: a scenario forces it by that name, and the engine asks no `reaction`.
    let (dir, ruleset) = fixture_copy(
        "reaction_decision",
        &[(
            "combat.toml",
            "[exchanges.melee]\n",
            "[exchanges.melee]\nreaction_decision = \"defend\"\n",
        )],
        &[],
    );
    let choices = "[[choices]]\ndecision = \"defend\"\nby = \"Aldric\"\nchoose = \"dodge\"\n";
    let (log, _) = duel_with("reaction_decision_fight", &ruleset, "1 1\n30 30\n", choices);
    let check = affray(&dir, &["check", "d100_duel"]);
    let _ = fs::remove_dir_all(&dir);
    has(
        &log,
        "Aldric chooses defend: dodge (of parry, dodge, none; scenario)",
    );
    assert!(!log.contains("chooses reaction"), "{log}");
    assert!(check.status.success(), "{}", text(&check.stderr));
}

#[test]
fn a_weapon_read_tells_a_value_given_as_0_from_one_not_given() {
    // The dagger's `values` give `swing = 0`: `weapon.value.swing` is 0 for it and for the
    // broadsword alike, `weapon.given.swing` only for it. Bryn's attack with it is +5
    // (75), and so is her parry with it; Aldric's with the broadsword is not (65).
    let (dir, ruleset) = fixture_copy(
        "given",
        &[
            (
                "combat.toml",
                "target = \"self.skill.combat - ",
                "target = \"self.skill.combat + (if weapon.given.swing { 5 } else { 0 }) + weapon.value.swing - ",
            ),
            (
                "equipment.toml",
                "damage = \"1d4\"\n",
                "damage = \"1d4\"\nvalues = { swing = 0 }\n",
            ),
        ],
        &[],
    );
    let (log, _) = duel_with("given_fight", &ruleset, "1 1\n30 30 3\n40 40 6 3 5\n", "");
    let _ = fs::remove_dir_all(&dir);
    has(&log, "Bryn: attack 75, rolled 30: success");
    has(&log, "Aldric: parry 65, rolled 30: success");
    has(&log, "Aldric: attack 65, rolled 40: success");
    has(&log, "Bryn: parry 75, rolled 40: success");
}

#[test]
fn a_turn_with_more_plays_every_action_left_in_one_turn() {
    // `[turn] more`: Aldric (11 + 8) acts first with both his actions. He attacks; Bryn
    // parries (her first action) and takes 2 at the right arm. The turn goes on: he
    // chooses again, the action is spent as chosen, and he attacks again (76, a
    // failure); Bryn parries with her last action. Nobody acts after: Bryn spent both
    // actions on parries, Aldric both on his one turn. Without `more` the second attack
    // would wait for a second turn, after hers.
    let (dir, ruleset) = fixture_copy(
        "more_actions",
        &[(
            "combat.toml",
            "actions = \"2\"\n",
            "actions = \"2\"\nmore = \"true\"\n",
        )],
        &[],
    );
    let dice = "8 1\n12 30 2 3 7\n76 14\n";
    let (log, error) = duel_with("more_actions_fight", &ruleset, dice, "");
    let _ = fs::remove_dir_all(&dir);
    has(&error, "the given dice ran out");
    let round = log.split("Round 2").next().unwrap();
    assert_eq!(round.matches("Aldric acts").count(), 1, "{round}");
    assert!(!round.contains("Bryn acts"), "{round}");
    has(round, "Bryn takes 2 to right arm, 1 HP left there");
    has(
        round,
        "Aldric chooses action: attack (of attack, guard; first option)\n    Aldric spends an action on attack (0 left)\n    Aldric target: Bryn",
    );
    has(round, "Aldric: attack 65, rolled 76: failure");
    has(round, "Bryn spends an action on parry (0 left)");

    // The same dice without `more`: Aldric's turn is one action, and Bryn's turn follows
    // (her attack rolls the 76).
    let (log, _) = duel("no_more_actions", dice, "");
    let round = log.split("Round 2").next().unwrap();
    has(round, "Bryn acts (1 action left)");
    has(round, "Bryn: attack 70, rolled 76: failure");
    assert!(!round.contains("spends an action on attack"), "{round}");
}

#[test]
fn an_exchange_may_let_the_attacker_choose_among_the_weapons_in_hand() {
    // `choose_weapon = true`: Aldric holds the broadsword and the round shield, both of
    // which the exchange's `weapon` (the first in hand) fits, so he chooses (decision
    // `weapon`): the shield. Bryn's parry fails (90); Maximise Damage on the shield's
    // 1D3 is 3, his damage modifier's 1D4 rolls 2: 5 less the leather's 1 at the body.
    let (dir, ruleset) = fixture_copy(
        "choose_weapon",
        &[(
            "combat.toml",
            "label = \"attack\"\ntest = \"skill\"\n",
            "label = \"attack\"\ntest = \"skill\"\nchoose_weapon = true\n",
        )],
        &[],
    );
    let choices =
        "[[choices]]\ndecision = \"weapon\"\nby = \"Aldric\"\nchoose = \"round_shield\"\n";
    let dice = "10 1\n20 90 2 5\n";
    let (log, _) = duel_with("choose_weapon_fight", &ruleset, dice, choices);
    let _ = fs::remove_dir_all(&dir);
    has(
        &log,
        "Aldric chooses weapon: round shield (of broadsword, round shield; scenario)",
    );
    has(&log, "Bryn takes 4 to body, 2 HP left there");

    // Without it, no decision: the first in hand, the broadsword's 1D8 at its most, 8.
    let (log, _) = duel("no_weapon_choice", dice, "");
    assert!(!log.contains("chooses weapon"), "{log}");
    has(&log, "Bryn takes 9 to body");
}

#[test]
fn a_script_keeps_and_reads_a_value_toward_an_opponent() {
    // `fight.set_toward(who, NAME, other, value)` keeps what combat.toml's `set toward
    // NAME (...)` keeps, and `fight.toward(who, NAME, other)` reads it: a setup script
    // gives Aldric 20 toward Bryn, which his tests read as `self.toward.marked` (his
    // parry 65 + 20 = 85); Bryn's toward him stays 0 (her attack 70). A name that
    // combat.toml's `toward` does not list stops the fight with the names it lists.
    let (dir, ruleset) = fixture_copy(
        "script_toward",
        &[
            (
                "combat.toml",
                "[turn]\n",
                "toward = [\"marked\"]\n\n[turn]\n",
            ),
            (
                "combat.toml",
                "target = \"self.skill.combat - ",
                "target = \"self.skill.combat + self.toward.marked - ",
            ),
            (
                "combat.toml",
                "",
                "\n[[setup]]\ndo = \"script probe::mark\"\n",
            ),
        ],
        &[(
            "probe.rhai",
            "fn mark(ctx) {\n    let fight = ctx.fight;\n    if ctx.who == 0 {\n        \
             fight.set_toward(0, \"marked\", 1, 20);\n        \
             fight.log(`probe: ${fight.toward(0, \"marked\", 1)} toward Bryn, ${fight.toward(1, \"marked\", 0)} back`);\n    \
             }\n}\n",
        )],
    );
    let (log, _) = duel_with("script_toward_fight", &ruleset, "1 1\n30 30 3\n", "");
    has(&log, "probe: 20 toward Bryn, 0 back");
    has(&log, "Bryn: attack 70, rolled 30: success");
    has(&log, "Aldric: parry 85, rolled 30: success");

    let script = ruleset.join("scripts/probe.rhai");
    let written = fs::read_to_string(&script).unwrap();
    fs::write(
        &script,
        written.replace("set_toward(0, \"marked\"", "set_toward(0, \"markd\""),
    )
    .unwrap();
    let (_, error) = duel_with("script_toward_misspelt", &ruleset, "1 1\n30 30 3\n", "");
    let _ = fs::remove_dir_all(&dir);
    has(
        &error,
        "fight.set_toward: combat.toml's `toward` does not list `markd`",
    );
}

#[test]
fn a_script_sees_the_effects_the_winner_chose() {
    // `ctx.chosen` lists the effects chosen in the exchange, each as many times as it was
    // chosen, in the list's order: Bryn's critical against no defence wins two levels,
    // Bleed (scripted) then Bypass Armour (the tactics); the script Bleed calls sees
    // both, Bypass Armour first as the list has it.
    let (dir, ruleset) = fixture_copy(
        "script_chosen",
        &[(
            "combat.toml",
            "do = \"condition bleeding\"",
            "do = \"condition bleeding, script probe::note\"",
        )],
        &[(
            "probe.rhai",
            "fn note(ctx) {\n    ctx.fight.log(`probe: chosen ${ctx.chosen}`);\n}\n",
        )],
    );
    let choices = "[[choices]]\ndecision = \"reaction\"\nby = \"Aldric\"\nchoose = \"none\"\n\n\
                   [[choices]]\ndecision = \"manoeuvre\"\nby = \"Bryn\"\nchoose = \"bleed\"\n";
    let (log, _) = duel_with("script_chosen_fight", &ruleset, "1 1\n3 4 4 4\n", choices);
    let _ = fs::remove_dir_all(&dir);
    has(&log, "probe: chosen [\"bypass_armour\", \"bleed\"]");
}

#[test]
fn a_weapon_read_gives_its_range_and_load() {
    // The dagger is given `range = 10` and `load = 2` in equipment.toml: Bryn's attack
    // with it is 70 + 10 + 2 = 82, her parry with it the same; Aldric's broadsword gives
    // neither (0): his attack and parry stay at 65.
    let (dir, ruleset) = fixture_copy(
        "range_load",
        &[
            (
                "combat.toml",
                "target = \"self.skill.combat - ",
                "target = \"self.skill.combat + weapon.range + weapon.load - ",
            ),
            (
                "equipment.toml",
                "damage = \"1d4\"\n",
                "damage = \"1d4\"\nrange = 10\nload = 2\n",
            ),
        ],
        &[],
    );
    let (log, _) = duel_with(
        "range_load_fight",
        &ruleset,
        "1 1\n30 30 3\n40 40 6 3 5\n",
        "",
    );
    let _ = fs::remove_dir_all(&dir);
    has(&log, "Bryn: attack 82, rolled 30: success");
    has(&log, "Aldric: parry 65, rolled 30: success");
    has(&log, "Aldric: attack 65, rolled 40: success");
    has(&log, "Bryn: parry 82, rolled 40: success");
}

#[test]
fn an_after_rule_at_target_comes_before_the_defence_is_declared() {
    // An `after` rule written `at = "target"` is done once Bryn's target is found, before
    // Aldric declares his parry: it gives him a parry held ready (`set guard 1`), so the
    // parry he then makes against her 80 (his 30) costs no action. The same rule at the
    // end of the exchange comes too late for this parry.
    let rule = "\n[[exchanges.melee.after]]\nat = \"target\"\nto = \"defender\"\nif = \"true\"\ndo = \"set guard 1\"\n";
    let (dir, ruleset) = fixture_copy("at_target", &[("combat.toml", "", rule)], &[]);
    let choices =
        "[[choices]]\ndecision = \"withdraw_parry\"\nby = \"Aldric\"\nchoose = \"complete\"\n";
    let (log, _) = duel_with("at_target_fight", &ruleset, "1 1\n80 30\n", choices);
    let _ = fs::remove_dir_all(&dir);
    has(&log, "Aldric: parry 65, rolled 30: success");
    assert!(!log.contains("Aldric spends an action on parry"), "{log}");

    let late = rule.replace("at = \"target\"\n", "");
    let (dir, ruleset) = fixture_copy("at_end", &[("combat.toml", "", &late)], &[]);
    let (log, _) = duel_with("at_end_fight", &ruleset, "1 1\n80 30\n", choices);
    let _ = fs::remove_dir_all(&dir);
    has(&log, "Aldric spends an action on parry");
}

#[test]
fn an_action_that_ends_the_turn_chosen_after_the_first_ends_it_unspent() {
    // `[turn] more` and an action `wait` with `ends_turn = true`. Aldric (11 + 8) acts
    // first and attacks (12, Bryn parries); then, with an action left, he chooses
    // `wait`: his turn ends there, nothing done and nothing spent, and Bryn's turn
    // follows (her attack rolls the 76), Aldric parrying it with the action he kept.
    // Without `ends_turn`, `wait` is spent as any action is, and done.
    let wait = "\n[[action]]\nname = \"wait\"\nbefore = \"set waited 1\"\n";
    let choices = "[[choices]]\ndecision = \"action\"\nby = \"Aldric\"\nchoose = \"attack\"\n\n\
                   [[choices]]\ndecision = \"action\"\nby = \"Aldric\"\nchoose = \"wait\"\n";
    let dice = "8 1\n12 30 2 3 7\n76 14\n";
    let (dir, ruleset) = fixture_copy(
        "ends_turn",
        &[
            (
                "combat.toml",
                "actions = \"2\"\n",
                "actions = \"2\"\nmore = \"true\"\n",
            ),
            (
                "combat.toml",
                "",
                &wait.replace("name = \"wait\"\n", "name = \"wait\"\nends_turn = true\n"),
            ),
        ],
        &[],
    );
    let (log, _) = duel_with("ends_turn_fight", &ruleset, dice, choices);
    let _ = fs::remove_dir_all(&dir);
    let round = log.split("Round 2").next().unwrap();
    has(
        round,
        "Aldric chooses action: wait (of attack, guard, wait; scenario)\n  Bryn acts (1 action left)",
    );
    assert!(!round.contains("spends an action on wait"), "{round}");
    has(round, "Bryn: attack 70, rolled 76: failure");
    has(round, "Aldric spends an action on parry (0 left)");

    let (dir, ruleset) = fixture_copy(
        "no_ends_turn",
        &[
            (
                "combat.toml",
                "actions = \"2\"\n",
                "actions = \"2\"\nmore = \"true\"\n",
            ),
            ("combat.toml", "", wait),
        ],
        &[],
    );
    let (log, _) = duel_with("no_ends_turn_fight", &ruleset, dice, choices);
    let _ = fs::remove_dir_all(&dir);
    has(&log, "Aldric spends an action on wait (0 left)");
}

#[test]
fn before_first_is_done_once_a_turn_before_its_first_action() {
    // `[turn] before_first = "decide shout"` with `more`: Aldric's turn is two attacks
    // (12, then 76), and he is asked `shout` once, after choosing the first attack and
    // before it is rolled; not before the second. Bryn, with no action left on her
    // turn's start (both spent on parries), is never asked.
    let decisions = "\n[[decisions.shout.option]]\nname = \"roar\"\n\n\
                     [[decisions.shout.option]]\nname = \"hush\"\n";
    let (dir, ruleset) = fixture_copy(
        "before_first",
        &[
            (
                "combat.toml",
                "actions = \"2\"\n",
                "actions = \"2\"\nmore = \"true\"\nbefore_first = \"decide shout\"\n",
            ),
            ("combat.toml", "", decisions),
        ],
        &[],
    );
    let (log, error) = duel_with(
        "before_first_fight",
        &ruleset,
        "8 1\n12 30 2 3 7\n76 14\n",
        "",
    );
    let _ = fs::remove_dir_all(&dir);
    has(&error, "the given dice ran out");
    let round = log.split("Round 2").next().unwrap();
    assert_eq!(round.matches("chooses shout").count(), 1, "{round}");
    has(
        round,
        "Aldric chooses action: attack (of attack, guard; first option)\n    Aldric chooses shout: roar (of roar, hush; first option)\n    Aldric target: Bryn",
    );
    has(round, "Aldric: attack 65, rolled 76: failure");
}

#[test]
fn a_rule_at_the_attack_comes_once_the_attack_is_rolled() {
    // Bryn's critical (3) is seen at once: the rule `at = "attack"` lays Aldric prone
    // before anything else of the exchange (his parry, declared before the roll, comes
    // after it), as a defender who sees the roll before choosing would read it.
    let (dir, ruleset) = fixture_copy(
        "at_attack",
        &[(
            "combat.toml",
            "",
            "\n[[exchanges.melee.after]]\nat = \"attack\"\nto = \"defender\"\n\
             if = 'attack.level == \"critical\"'\ndo = \"condition prone\"\n",
        )],
        &[],
    );
    let check = affray(&dir, &["check", "d100_duel"]);
    let (log, _) = duel_with("at_attack_fight", &ruleset, "1 1\n3 30 4 4 50\n", "");
    let _ = fs::remove_dir_all(&dir);
    assert!(check.status.success(), "{}", text(&check.stderr));
    has(&log, "rolled 3: critical\n    Aldric: prone\n");
}

#[test]
fn wounds_after_effects_judges_the_wound_at_the_blow_and_logs_it_after_the_effects() {
    // As in the critical below, Bryn's 3 wins 2 levels over the unparried defence and
    // buys Bleed; its actions here come after the blow (no `at = "blow"`). The 8 on the
    // left leg (5 HP) is a serious wound: logged before Bleed's actions, unless the
    // exchange says `wounds_after_effects`, where it comes after them ("Endurance rolls
    // are resolved after the application of the effect"). The knockback's Athletics
    // fails with a 50.
    let choices = "[[choices]]\ndecision = \"reaction\"\nby = \"Aldric\"\nchoose = \"none\"\n\n\
                   [[choices]]\ndecision = \"manoeuvre\"\nby = \"Bryn\"\nchoose = \"bleed\"\n";
    let bleed_after = (
        "combat.toml",
        "[exchanges.melee.effect.bleed]\nat = \"blow\"\n",
        "[exchanges.melee.effect.bleed]\n",
    );
    let (dir, ruleset) = fixture_copy("wounds_before", &[bleed_after], &[]);
    let dice = "1 1\n3 4 4 4 50\n";
    let (before, _) = duel_with("wounds_before_fight", &ruleset, dice, choices);
    let _ = fs::remove_dir_all(&dir);
    let (dir, ruleset) = fixture_copy(
        "wounds_after",
        &[
            bleed_after,
            (
                "combat.toml",
                "location = \"hit_location\"\n",
                "location = \"hit_location\"\nwounds_after_effects = true\n",
            ),
        ],
        &[],
    );
    let check = affray(&dir, &["check", "d100_duel"]);
    let (after, _) = duel_with("wounds_after_fight", &ruleset, dice, choices);
    let _ = fs::remove_dir_all(&dir);
    assert!(check.status.success(), "{}", text(&check.stderr));
    has(
        &before,
        "Aldric takes 8 to left leg, -3 HP left there\n    Aldric: serious wound to left leg",
    );
    let at = |log: &str, line: &str| {
        log.find(line)
            .unwrap_or_else(|| panic!("no `{line}` in:\n{log}"))
    };
    assert!(
        at(&before, "serious wound") < at(&before, "Aldric: bleeding"),
        "{before}"
    );
    // The knockback (judged once the blow is, here) comes between.
    has(
        &after,
        "Aldric takes 8 to left leg, -3 HP left there\n    Aldric is knocked back 1 m",
    );
    assert!(
        at(&after, "Aldric: bleeding") < at(&after, "serious wound"),
        "{after}"
    );
    has(
        &after,
        "Aldric: bleeding\n    Aldric: serious wound to left leg",
    );
}

#[test]
fn a_location_found_at_the_damage_is_found_for_a_blow_the_parry_takes_whole() {
    // The blow of the knockback test above, which the large shield deflects whole:
    // found no location (no die) where the location is found at the blow; with
    // `location_at = "damage"` the location die (5) is rolled once the damage is, and
    // the blow still takes nothing.
    let choices = "[[choices]]\ndecision = \"manoeuvre\"\nby = \"Bryn\"\nchoose = \"stagger\"\n";
    let (dir, ruleset) = fixture_copy(
        "location_at_damage",
        &[(
            "combat.toml",
            "location = \"hit_location\"\n",
            "location = \"hit_location\"\nlocation_at = \"damage\"\n",
        )],
        &[],
    );
    let check = affray(&dir, &["check", "d100_duel"]);
    let (log, _) = duel_with(
        "location_at_damage_fight",
        &ruleset,
        "1 1\n3 30 4 4 5 50\n",
        choices,
    );
    let _ = fs::remove_dir_all(&dir);
    assert!(check.status.success(), "{}", text(&check.stderr));
    has(&log, "hit location for Aldric: 5");
    has(&log, "Aldric deflects 8");
    assert!(!log.contains("Aldric takes"), "{log}");
    has(
        &log,
        "Aldric: athletics 40, rolled 50: failure\n    Aldric: prone for 1 round",
    );
}

#[test]
fn a_negative_dice_literal_is_rolled_as_negative_dice() {
    // Bryn's damage less a die: `-1d4` is rolled as the dice -1D4 (logged so, its total
    // negative), as a statistic's "-1D4" is, not as 1D4 taken away.
    let (dir, ruleset) = fixture_copy(
        "negative_dice",
        &[(
            "combat.toml",
            "+ attacker.statistic.damage_modifier\n",
            "+ attacker.statistic.damage_modifier + -1d4\n",
        )],
        &[],
    );
    let choices = "[[choices]]\ndecision = \"reaction\"\nby = \"Aldric\"\nchoose = \"none\"\n";
    let (log, _) = duel_with("negative_dice_fight", &ruleset, "1 1\n30 4 1 5\n", choices);
    let _ = fs::remove_dir_all(&dir);
    // Her success buys Maximise Damage (the dagger's 4, no die); the next die, 4, is the
    // negative one's.
    has(&log, "-1D4 damage for Bryn → -4 (dice showed 4)");
}
