//! The exchange pipeline run from `combat.toml` alone: the d100 fixture
//! (`tests/fixtures/d100_duel`, no script at all) fought with given dice, one test per
//! stage — reactions and their cost, the outcome matrix, damage with a dice statistic, a
//! critical's extra dice, hit location, armour, wound thresholds and their actions, the
//! `after` rules.

mod common;

use common::{affray, root, scratch, text};

use std::fs;

/// Fight the fixture's duel with `dice` (and `choices`, TOML `[[choices]]` entries
/// appended to a copy of the scenario); its log and its error output.
fn duel(case: &str, dice: &str, choices: &str) -> (String, String) {
    let dir = scratch(case);
    let fixture = root().join("tests/fixtures/d100_duel");
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

fn has(log: &str, line: &str) {
    assert!(log.contains(line), "no line `{line}` in:\n{log}");
}

#[test]
fn a_parry_that_matches_the_attack_stops_it_and_costs_an_action() {
    // Initiative: Bryn 16 + 1, Aldric 11 + 1. Bryn attacks at 70 and rolls 30, Aldric
    // parries at 65 and rolls 30: both succeed, the matrix gives nobody a level.
    let (log, error) = duel("parried", "1 1\n30 30\n", "");
    has(
        &log,
        "Aldric chooses reaction: parry (of parry, dodge, none; tactics)",
    );
    has(&log, "Aldric spends an action on parry (1 left)");
    has(&log, "Bryn: attack 70, rolled 30: success");
    has(&log, "Aldric: parry 65, rolled 30: success");
    assert!(!log.contains("takes"), "{log}");
    // The dice run out at Aldric's own attack, with the one action the parry left him.
    has(&error, "attack for Aldric needs a 1D100");
}

#[test]
fn a_blow_that_wins_the_matrix_lands_through_armour_and_wounds_by_the_hit_points_left() {
    // Bryn misses (parried or not, nothing lands); Aldric attacks with a 10 (success)
    // against Bryn's parry of 98 (a failure): attacker 1. Damage: broadsword 1D8 = 5 and
    // the damage modifier 1D4 = 2; the location 1D10 = 5 is the body (6 HP), leather
    // stops 1: 6 taken, 0 left there, a serious wound: stunned and an action lost.
    let (log, _) = duel("serious", "1 1\n80 30\n10 98 5 2 5\n", "");
    has(&log, "Bryn: attack 70, rolled 80: failure");
    has(&log, "Aldric: attack 65, rolled 10: success");
    has(&log, "Bryn: parry 70, rolled 98: failure");
    has(&log, "1D8 damage for Aldric → 5");
    has(&log, "1D4 damage for Aldric → 2");
    has(&log, "hit_location for Bryn: 5 → Body");
    has(&log, "Bryn takes 6 to body, 0 HP left there");
    has(&log, "Bryn: serious wound to body");
    has(&log, "Bryn: stunned for 1 action");
    has(&log, "Bryn loses 1 action");
}

#[test]
fn a_critical_rolls_the_weapon_again_and_no_reaction_is_a_failed_defence() {
    // Aldric leaves Bryn's attack unparried (a scripted `none`): no action spent, and
    // the defence counts as a failure. Her critical (3: at most 70 / 20 rounded up = 4)
    // wins. Damage: dagger 1D4 = 4, damage modifier 0, the dagger again for the critical
    // = 4; the head (1D10 = 10, 5 HP) takes 8 - 1 = 7: -2 left, a serious wound.
    let choices = "[[choices]]\ndecision = \"reaction\"\nby = \"Aldric\"\nchoose = \"none\"\n";
    let (log, _) = duel("critical", "1 1\n3 4 4 10\n", choices);
    has(&log, "Bryn: attack 70, rolled 3: critical");
    assert!(!log.contains("Aldric spends an action"), "{log}");
    has(&log, "Aldric takes 7 to head, -2 HP left there");
    has(&log, "Aldric: serious wound to head");
}

#[test]
fn a_major_wound_knocks_out() {
    // Bryn fails (80) against Aldric's parry (30); Aldric then wins with 10 against
    // Bryn's parry of 98: 1D8 = 7 and 1D4 = 1, on the right arm (1D10 = 7, 3 HP) less
    // 1 armour: -4, at or below minus its 3 hit points: a major wound, unconscious.
    let (log, _) = duel("major", "1 1\n80 30\n10 98 7 1 7\n", "");
    has(&log, "Bryn takes 7 to right_arm, -4 HP left there");
    has(&log, "Bryn: major wound to right_arm");
    has(&log, "Bryn: unconscious");
    has(&log, "Bryn is out of the fight");
    has(&log, "red win after 1 round");
}

#[test]
fn a_dodge_is_its_own_test_without_a_weapon_and_outclassing_unbalances() {
    // Aldric dodges (scripted) at 30 with a 2: a critical against Bryn's failure (90):
    // defender 2. Bryn is off balance for the round.
    let choices = "[[choices]]\ndecision = \"reaction\"\nby = \"Aldric\"\nchoose = \"dodge\"\n";
    let (log, _) = duel("dodge", "1 1\n90 2\n", choices);
    has(&log, "Aldric chooses reaction: dodge");
    has(&log, "Aldric: dodge 30, rolled 2: critical");
    has(&log, "Bryn: off_balance for 1 round");
}

#[test]
fn a_fumbled_attack_rolls_on_the_fumble_table() {
    // Bryn rolls 99 (a fumble), Aldric parries with 50: defender 2 as well, so Bryn is
    // off balance from the outclassing and stumbles on the fumble table's 2.
    let (log, _) = duel("fumble", "1 1\n99 50 2\n", "");
    has(&log, "Bryn: attack 70, rolled 99: fumble");
    has(&log, "fumble for Bryn: 2 → Stumble");
    has(&log, "Bryn loses 1 action");
}
