//! The 3d6 hex ruleset: it checks clean; the Base Damage For Strength table and the
//! text's bastard-sword example come out of real fights with given dice; the margin,
//! the Active Defence rule, cutting and impaling after DR, hit locations and the
//! critical tables do what the text prints.

mod common;

use common::{affray, fight_with_dice, root, ruleset_path, scratch, text};

use std::fs;

#[test]
fn hex3d6_checks_clean() {
    let output = affray(root(), &["check", "rulesets/3d6-hex"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    assert!(stdout.contains("5 roll"), "{stdout}");
    assert!(stdout.contains("5 scenarios"), "{stdout}");
}

/// A one-exchange scenario: Aldric (ST `st`, Broadsword 14, a bastard sword, or another
/// weapon) attacks Target, who is unaware of him (no active defence) unless `defence`
/// names one. Every blow lands on the torso (no_random_location) unless `extra` says
/// otherwise. The fight stops when the given dice run out; what matters is what the
/// exchange printed.
fn exchange(case: &str, st: u32, weapon: &str, choices: &str, dice: &str, extra: &str) -> String {
    exchange_with("attack", case, st, weapon, choices, dice, extra)
}

fn exchange_with(
    action: &str,
    case: &str,
    st: u32,
    weapon: &str,
    choices: &str,
    dice: &str,
    extra: &str,
) -> String {
    let scenario = format!(
        r#"ruleset = "{ruleset}"
title = "One exchange"
options = ["no_random_location"]

[[combatants]]
name = "Aldric"
side = "a"
characteristics = {{ ST = {st}, DX = 14, IQ = 10, HT = 10 }}
skills = {{ broadsword = 14, bow = 14, knife = 14 }}
weapons = ["{weapon}"]
hit_points = {{ total = 10 }}

[[combatants]]
name = "Target"
side = "b"
characteristics = {{ ST = 10, DX = 10, IQ = 10, HT = 10 }}
skills = {{ broadsword = 12, shield = 12 }}
hit_points = {{ total = 100 }}
engaged = ["Aldric"]
{extra}

[[choices]]
decision = "action"
by = "Aldric"
choose = "{action}"
{choices}
"#,
        ruleset = ruleset_path("3d6-hex"),
    );
    fight_with_dice(&format!("hex-{case}"), &scenario, dice)
}

fn mode(mode: &str) -> String {
    format!("[[choices]]\ndecision = \"damage_mode\"\nby = \"Aldric\"\nchoose = \"{mode}\"\n")
}

const UNAWARE: &str = "options = [\"unaware\"]";

/// "Base Damage For Strength", as the text prints it: ST, thrust, swing.
const BASE_DAMAGE: [(u32, u32, u32); 24] = [
    (4, 0, 0),
    (5, 1, 1),
    (6, 2, 2),
    (7, 3, 3),
    (8, 3, 4),
    (9, 4, 5),
    (10, 4, 6),
    (11, 5, 7),
    (12, 5, 8),
    (13, 6, 10),
    (14, 6, 11),
    (15, 7, 13),
    (16, 7, 14),
    (17, 8, 16),
    (18, 8, 17),
    (19, 9, 19),
    (20, 10, 20),
    (21, 10, 22),
    (22, 11, 24),
    (23, 12, 26),
    (24, 12, 28),
    (25, 13, 30),
    (26, 14, 32),
    (27, 14, 34),
];

/// Every row of the Strength table, read by a fight: a bastard sword (Sw+2 cut, Thr+1
/// imp) hits with 3 successes (3d6 = 11 against 14), so the normal damage is printed.
#[test]
fn base_damage_for_strength_is_the_printed_table() {
    for (st, thrust, swing) in BASE_DAMAGE {
        let cut = exchange(
            &format!("st{st}c"),
            st,
            "bastard_sword",
            &mode("swing_cut"),
            "4 4 3",
            UNAWARE,
        );
        let expected = format!("Aldric: {} cut x 100% = {}", swing + 2, swing + 2);
        assert!(
            cut.contains(&expected),
            "ST {st} swing: expected `{expected}` in\n{cut}"
        );
        let imp = exchange(
            &format!("st{st}i"),
            st,
            "bastard_sword",
            &mode("thrust_imp"),
            "4 4 3",
            UNAWARE,
        );
        let normal = thrust + 1;
        let expected = format!("Aldric: {normal} imp x 100% = {normal}");
        assert!(
            imp.contains(&expected),
            "ST {st} thrust: expected `{expected}` in\n{imp}"
        );
    }
}

/// "a combatant with STR 12 has a base Thrust damage of 5, and a base Swing damage of 8.
/// He carries a bastard sword ... Sw+2 ... Thr+1. If he rolls 3 successes for a full hit,
/// he can do 10 Cutting or 7 Impaling damage. If he rolls only 1 success on his attack
/// roll, he can do 5 Cutting or 3 Impaling damage." The printed 7 is not what the
/// printed table and modifier give (5 + 1 = 6; README.md); 6 x 50% = 3 as printed.
#[test]
fn the_bastard_sword_example() {
    let full_cut = exchange(
        "bs3c",
        12,
        "bastard_sword",
        &mode("swing_cut"),
        "4 4 3",
        UNAWARE,
    );
    assert!(
        full_cut.contains("Bastard sword 14, rolled 11: success, by 3"),
        "{full_cut}"
    );
    assert!(
        full_cut.contains("Aldric: 10 cut x 100% = 10 (net margin 3)"),
        "{full_cut}"
    );
    let full_imp = exchange(
        "bs3i",
        12,
        "bastard_sword",
        &mode("thrust_imp"),
        "4 4 3",
        UNAWARE,
    );
    assert!(
        full_imp.contains("Aldric: 6 imp x 100% = 6 (net margin 3)"),
        "{full_imp}"
    );
    let one_cut = exchange(
        "bs1c",
        12,
        "bastard_sword",
        &mode("swing_cut"),
        "5 4 4",
        UNAWARE,
    );
    assert!(
        one_cut.contains("Bastard sword 14, rolled 13: success, by 1"),
        "{one_cut}"
    );
    assert!(
        one_cut.contains("Aldric: 10 cut x 50% = 5 (net margin 1)"),
        "{one_cut}"
    );
    let one_imp = exchange(
        "bs1i",
        12,
        "bastard_sword",
        &mode("thrust_imp"),
        "5 4 4",
        UNAWARE,
    );
    assert!(
        one_imp.contains("Aldric: 6 imp x 50% = 3 (net margin 1)"),
        "{one_imp}"
    );
}

/// The damage adjustment by margin (0: 25%, 2: 75%), rounding down with cutting and
/// impaling never below 1, then "increased by 50%, rounded down" and "doubled" after DR.
#[test]
fn damage_adjustment_and_wounding() {
    let zero = exchange(
        "m0",
        12,
        "bastard_sword",
        &mode("swing_cut"),
        "5 5 4",
        UNAWARE,
    );
    assert!(
        zero.contains("Aldric: 10 cut x 25% = 2 (net margin 0)"),
        "{zero}"
    );
    assert!(
        zero.contains("2 - DR 0 = 2 through, 3 hit points"),
        "{zero}"
    );
    let two = exchange(
        "m2",
        12,
        "bastard_sword",
        &mode("thrust_imp"),
        "4 4 4",
        UNAWARE,
    );
    assert!(
        two.contains("Aldric: 6 imp x 75% = 4 (net margin 2)"),
        "{two}"
    );
    assert!(two.contains("4 - DR 0 = 4 through, 8 hit points"), "{two}");
    // ST 5 thrusts for 1, a dagger Thr-1: 0 damage, but impaling does not round below 1.
    let weak = exchange("weak", 5, "dagger", "", "5 5 4", UNAWARE);
    assert!(weak.contains("Aldric: 0 imp x 25% = 0"), "{weak}");
    let weak2 = exchange("weak2", 6, "dagger", "", "5 5 4", UNAWARE);
    assert!(weak2.contains("Aldric: 1 imp x 25% = 1"), "{weak2}");
}

/// AD = 2 + successes; net margin = attack successes - AD; below 0 the attack is
/// stopped, otherwise the net margin sets the damage. Target parries at 12/2 = 6: a 4
/// gives 2 successes, AD 4; the attack's 5 successes leave a net margin of 1 (50%).
#[test]
fn active_defence_against_the_margin() {
    let parry = "weapons = [\"broadsword\"]\n\n[[choices]]\ndecision = \"defence\"\nby = \"Target\"\nchoose = \"parry\"\n\n[[choices]]\ndecision = \"retreat\"\nby = \"Target\"\nchoose = \"stand\"";
    let net1 = exchange(
        "ad1",
        12,
        "bastard_sword",
        &mode("swing_cut"),
        "3 3 3  1 1 2",
        parry,
    );
    assert!(
        net1.contains("Parry with Broadsword 6, rolled 4: success, by 2"),
        "{net1}"
    );
    assert!(net1.contains("AD 4 (parry)"), "{net1}");
    assert!(
        net1.contains("net margin: 5 successes - AD 4 = 1"),
        "{net1}"
    );
    assert!(
        net1.contains("Aldric: 10 cut x 50% = 5 (net margin 1)"),
        "{net1}"
    );
    // The parry rolls 3: 3 successes, AD 5 against 4 successes: stopped.
    let stopped = exchange(
        "ad2",
        12,
        "bastard_sword",
        &mode("swing_cut"),
        "4 3 3  1 1 1",
        parry,
    );
    assert!(
        stopped.contains("net margin: 4 successes - AD 5 = -1"),
        "{stopped}"
    );
    assert!(
        stopped.contains("Target stops the attack (parry)"),
        "{stopped}"
    );
}

/// A margin of 6 or more rolls on the critical hit table: 6 is "x2 damage".
#[test]
fn critical_hit_doubles() {
    let crit = exchange(
        "crit",
        12,
        "bastard_sword",
        &mode("swing_cut"),
        "2 3 3  1 2 3",
        UNAWARE,
    );
    assert!(crit.contains("success, by 6"), "{crit}");
    assert!(
        crit.contains("critical hit for Aldric: 6 → x2 damage"),
        "{crit}"
    );
    assert!(
        crit.contains("20 - DR 0 = 20 through, 30 hit points"),
        "{crit}"
    );
}

/// A roll of 18 is a critical failure: the critical miss table; 9-11 drops the weapon.
#[test]
fn critical_miss_drops_the_weapon() {
    let miss = exchange(
        "fumble",
        12,
        "bastard_sword",
        &mode("swing_cut"),
        "6 6 6  3 3 4",
        UNAWARE,
    );
    assert!(miss.contains("rolled 18: critical failure"), "{miss}");
    assert!(
        miss.contains("critical miss for Aldric: 10 → Dropped weapon"),
        "{miss}"
    );
    assert!(miss.contains("Aldric drops the Bastard sword"), "{miss}");
}

/// Piecemeal armour and hit locations: chainmail on the torso (DR 4, 2 against
/// impaling), nothing on the arm; a random location of 7 is the near arm.
#[test]
fn piecemeal_armour_by_location() {
    let armour = "armour = { torso = \"chainmail\" }";
    let torso = exchange(
        "torso",
        12,
        "bastard_sword",
        &mode("thrust_imp"),
        "4 4 3",
        &format!("{armour}\n{UNAWARE}"),
    );
    assert!(
        torso.contains("6 - DR 2 = 4 through, 8 hit points"),
        "{torso}"
    );
    let cut = exchange(
        "torso_cut",
        12,
        "bastard_sword",
        &mode("swing_cut"),
        "4 4 3",
        &format!("{armour}\n{UNAWARE}"),
    );
    assert!(cut.contains("10 - DR 4 = 6 through, 9 hit points"), "{cut}");
}

/// A seeded fight of a scenario written here, with scripted choices: the maneuvers the
/// default tactics seldom pick still run and print what the text says.
fn seeded(case: &str, body: &str, seed: &str) -> String {
    let dir = scratch(&format!("hex-seeded-{case}"));
    let ruleset = root().join("rulesets/3d6-hex");
    let scenario = format!(
        "ruleset = \"{}\"\ntitle = \"{case}\"\n{body}",
        ruleset.display().to_string().replace('\\', "/")
    );
    fs::write(dir.join("s.toml"), scenario).unwrap();
    let output = affray(&dir, &["fight", "s.toml", "--seed", seed]);
    let _ = fs::remove_dir_all(&dir);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    text(&output.stdout)
}

const KNIGHT: &str = r#"
[[combatants]]
name = "Knight"
side = "a"
characteristics = { ST = 12, DX = 12, IQ = 10, HT = 12 }
skills = { broadsword = 14, shield = 14 }
weapons = ["broadsword", "spiked_shield"]
armour = { all = "chainmail" }
hit_points = { total = 12 }
"#;

const BRUTE: &str = r#"
[[combatants]]
name = "Brute"
side = "b"
characteristics = { ST = 13, DX = 11, IQ = 9, HT = 12 }
skills = { axe_mace = 13, brawling = 12 }
weapons = ["mace"]
armour = { all = "leather" }
hit_points = { total = 12 }
"#;

fn choice(by: &str, decision: &str, choose: &str) -> String {
    format!("\n[[choices]]\ndecision = \"{decision}\"\nby = \"{by}\"\nchoose = \"{choose}\"\n")
}

#[test]
fn shield_bash_and_brace() {
    let body = format!(
        "{KNIGHT}engaged = [\"Brute\"]\n{BRUTE}{}{}",
        choice("Knight", "action", "shield_bash"),
        choice("Brute", "action", "brace")
    );
    let log = seeded("bash", &body, "3");
    assert!(log.contains("Spiked medium shield: attack Brute"), "{log}");
    assert!(log.contains("Brute braces for impact"), "{log}");
}

#[test]
fn all_out_charge_feint_then_slam() {
    let body = format!(
        "distance = 4\n{KNIGHT}{BRUTE}{}{}{}",
        choice("Knight", "action", "all_out_defense_multiple"),
        choice("Brute", "action", "all_out_charge"),
        choice("Brute", "charge", "feint_then_slam")
    );
    let log = seeded("charge", &body, "1");
    assert!(log.contains("Feint with Mace"), "{log}");
    assert!(log.contains("Slam (DX)"), "{log}");
}

#[test]
fn flying_tackle_and_wild_swing() {
    let body = format!(
        "distance = 5\n{KNIGHT}{BRUTE}{}{}",
        choice("Knight", "action", "all_out_defense_multiple"),
        choice("Brute", "action", "flying_tackle")
    );
    let log = seeded("tackle", &body, "2");
    assert!(
        log.contains("Flying Tackle (ST)") || log.contains("a dodged flying tackle"),
        "{log}"
    );
    let body = format!(
        "distance = 4\n{KNIGHT}{BRUTE}{}",
        choice("Knight", "action", "wild_swing")
    );
    let log = seeded("wild", &body, "2");
    assert!(log.contains("Broadsword: attack Brute"), "{log}");
}

#[test]
fn wait_strikes_the_one_who_comes() {
    let body = format!(
        "distance = 3\n{KNIGHT}{BRUTE}{}",
        choice("Knight", "action", "wait")
    );
    let log = seeded("wait", &body, "4");
    assert!(log.contains("Knight waits to interrupt Brute"), "{log}");
    assert!(log.contains("who attacks first (Wait)"), "{log}");
    assert!(log.contains("Knight action: strike entering"), "{log}");
    assert!(log.contains("Knight meets Brute as he comes in"), "{log}");
}

const ARCHER: &str = r#"
[[combatants]]
name = "Archer"
side = "a"
characteristics = { ST = 11, DX = 13, IQ = 10, HT = 11 }
skills = { bow = 15 }
weapons = ["short_bow"]
hit_points = { total = 11 }
statistics = { cover = "half_body" }
"#;

#[test]
fn rapid_attack_and_pop_up() {
    let body = format!(
        "distance = 20\n{ARCHER}{BRUTE}{}",
        choice("Archer", "action", "ranged_rapid_attack")
    );
    let log = seeded("rapid", &body, "5");
    // A short bow is a fast missile: three shots with a Ranged Rapid Attack.
    assert!(
        log.matches("Short bow: shoot at Brute").count() >= 2,
        "{log}"
    );
    let body = format!(
        "distance = 20\n{ARCHER}{BRUTE}{}",
        choice("Archer", "action", "pop_up_attack")
    );
    let log = seeded("popup", &body, "5");
    assert!(log.contains("Short bow: shoot at Brute"), "{log}");
}

#[test]
fn bleeding_after_the_battle() {
    let body = format!("options = [\"bleeding\"]\n{KNIGHT}engaged = [\"Brute\"]\n{BRUTE}");
    let mut found = false;
    for seed in ["1", "2", "3", "4", "5", "6"] {
        let log = seeded("bleeding", &body, seed);
        if let Some(at) = log.find("After the battle") {
            let result = log.find("Won by ").expect("a winner");
            assert!(at > result, "the aftermath follows the result:\n{log}");
            found = true;
        }
    }
    assert!(found, "After the battle is logged");
}

/// A called shot at the head: -5 to hit, and the blow lands on the head.
#[test]
fn called_shot_at_the_head() {
    let body = format!(
        "{KNIGHT}options = [\"called_shots\"]\nengaged = [\"Brute\"]\n{BRUTE}{}{}",
        choice("Knight", "action", "attack"),
        choice("Knight", "called_shot", "head")
    );
    let log = seeded("called", &body, "1");
    assert!(log.contains("Broadsword 9, rolled"), "{log}");
    assert!(
        log.contains("attack Brute (swing cut) at the head"),
        "{log}"
    );
}

/// Equipment `values` and a weapon without damage dice are read by the ruleset (dump),
/// and a weapon with dice rolls them: "a bite does 1d-4 crushing".
#[test]
fn equipment_values_and_dice_damage() {
    let output = affray(root(), &["dump", "rulesets/3d6-hex"]);
    let dump = text(&output.stdout);
    let sword = &dump[dump.find("\"bastard_sword\"").expect("the bastard sword")..];
    // Up to the end of its entry: the next closing brace at the entry's indentation.
    let sword = &sword[..sword.find("\n      }").expect("the end of the entry")];
    for figure in ["\"swing_cut\": 2", "\"thrust_imp\": 1", "\"min_st\": 11"] {
        assert!(sword.contains(figure), "{figure} in {sword}");
    }
    assert!(!sword.contains("\"damage\":"), "no damage dice: {sword}");
    let bite = exchange_with("bite", "bite", 12, "bite", "", "4 4 3  6", UNAWARE);
    assert!(bite.contains("1D6-4 Bite damage for Aldric → 2"), "{bite}");
    assert!(bite.contains("Aldric: 2 cr x 100% = 2"), "{bite}");
}

#[test]
fn opportunity_fire_at_one_who_comes() {
    let body = format!(
        "distance = 10\n{ARCHER}{BRUTE}{}{}",
        choice("Archer", "action", "opportunity_fire"),
        choice("Archer", "per_check", "check_target")
    );
    let log = seeded("opportunity", &body, "2");
    assert!(log.contains("Archer waits to interrupt Brute"), "{log}");
    assert!(
        log.contains("Archer action: fire at entering") || log.contains("Archer holds fire"),
        "{log}"
    );
}

// ------------------------------------------------------------------ wounds (issue 20)

/// One blow: Aldric (ST `st`, Broadsword 14, one `weapon`, damage mode `mode`) attacks
/// Target (HT `ht`, as many hit points, `taken` of them already lost). `target` is more
/// of Target's lines (skills, weapons, options) and scripted choices; `options` the
/// fight's. The hit location is rolled unless `options` says `no_random_location`.
#[derive(Clone, Copy)]
struct Blow<'a> {
    st: u32,
    weapon: &'a str,
    mode: &'a str,
    ht: u32,
    taken: u32,
    options: &'a str,
    target: &'a str,
}

/// ST 12 with a broadsword, Thr+1 crushing: 6 at margin 3 or more, at an unaware
/// Target of HT 11.
const CRUSH: Blow = Blow {
    st: 12,
    weapon: "broadsword",
    mode: "thrust_cr",
    ht: 11,
    taken: 0,
    options: "",
    target: "skills = { broadsword = 12 }\noptions = [\"unaware\"]",
};

/// ST 12 with the bastard sword, Sw+2 cutting: 10 at margin 3 or more (x1.5 through),
/// at an unaware Target of HT 10, blows landing on the torso.
const CUT: Blow = Blow {
    st: 12,
    weapon: "bastard_sword",
    mode: "swing_cut",
    ht: 10,
    options: "\"no_random_location\"",
    ..CRUSH
};

impl Blow<'_> {
    /// The log of the fight with these dice (it stops where they run out).
    fn fight(&self, case: &str, dice: &str) -> String {
        let Blow {
            st,
            weapon,
            mode,
            ht,
            taken,
            options,
            target,
        } = *self;
        let scenario = format!(
            r#"ruleset = "{ruleset}"
title = "One blow"
options = [{options}]

[[combatants]]
name = "Aldric"
side = "a"
characteristics = {{ ST = {st}, DX = 14, IQ = 10, HT = 10 }}
skills = {{ broadsword = 14 }}
weapons = ["{weapon}"]
hit_points = {{ total = 10 }}

[[combatants]]
name = "Target"
side = "b"
characteristics = {{ ST = 10, DX = 10, IQ = 10, HT = {ht} }}
hit_points = {{ total = {ht} }}
damage_taken = {{ total = {taken} }}
engaged = ["Aldric"]
{target}

[[choices]]
who = "Aldric"
decision = "action"
choose = "attack"

[[choices]]
who = "Aldric"
decision = "damage_mode"
choose = "{mode}"
"#,
            ruleset = ruleset_path("3d6-hex"),
        );
        fight_with_dice(&format!("hex-blow-{case}"), &scenario, dice)
    }
}

/// "HT/2 damage cripples a leg or arm, excess damage is lost." "HT/3 damage cripples a
/// hand or foot": a wound of at least HT/2 (HT/3), HT not rounded. With HT 11, 5 is
/// less than 5.5 and leaves the arm whole, 6 cripples it, and 15 into the leg is 6 (the
/// least that cripples), the rest lost. With HT 10, 5 is HT/2 and cripples.
#[test]
fn crippling_takes_half_ht_unrounded() {
    // ST 10: 5 crushing; margin 3 (11 against 14); 7 = the near arm; then knockback.
    let five = Blow { st: 10, ..CRUSH }.fight("arm5", "3 3 5  1 1 5  1 1 1");
    assert!(
        five.contains("Target hit in the near arm: 5 - DR 0 = 5 through, 5 hit points"),
        "{five}"
    );
    assert!(
        !five.contains("crippled"),
        "5 < 11/2 cripples nothing:\n{five}"
    );
    let six = CRUSH.fight("arm6", "3 3 5  1 1 5  1 1 1");
    assert!(
        six.contains("Target hit in the near arm: 6 - DR 0 = 6 through, 6 hit points"),
        "{six}"
    );
    assert!(six.contains("Target: crippled wound to near arm"), "{six}");
    let even = Blow {
        st: 10,
        ht: 10,
        ..CRUSH
    }
    .fight("arm5ht10", "3 3 5  1 1 5  1 1 1");
    assert!(
        even.contains("Target: crippled wound to near arm"),
        "{even}"
    );
    // 10 cut x1.5 = 15 into the near leg (13).
    let leg = Blow {
        ht: 11,
        options: "",
        ..CUT
    }
    .fight("leg", "3 3 5  4 4 5  1 1 1");
    assert!(leg.contains("excess damage lost: 15 -> 6"), "{leg}");
    assert!(leg.contains("Target takes 6, 5 HP left"), "{leg}");
    assert!(leg.contains("Target: crippled wound to near leg"), "{leg}");
    // Margin 1 (13): 50% of 6 = 3 into the hand (6, then 1: the weapon hand).
    // HT 11: 3 < 3.67; HT 10: 3 < 3.33; HT 9: 3 is HT/3.
    for (ht, cripples) in [(11, false), (10, false), (9, true)] {
        let hand = Blow { ht, ..CRUSH }.fight(&format!("hand{ht}"), "4 4 5  1 1 4  1  1 1 1");
        assert!(
            hand.contains("Target hit in the hand: 3 - DR 0 = 3 through, 3 hit points"),
            "{hand}"
        );
        assert_eq!(
            hand.contains("crippled wound to hand"),
            cripples,
            "HT {ht}:\n{hand}"
        );
    }
    // Margin 2 (12): 75% of 6 = 4 into the foot (15, then 1: the weapon foot).
    // HT 12: 4 is HT/3; HT 13: 4 < 4.33.
    for (ht, cripples) in [(12, true), (13, false)] {
        let foot = Blow { ht, ..CRUSH }.fight(&format!("foot{ht}"), "4 4 4  4 5 6  1  1 1 1");
        assert!(
            foot.contains("Target hit in the foot: 4 - DR 0 = 4 through, 4 hit points"),
            "{foot}"
        );
        assert_eq!(
            foot.contains("crippled wound to foot"),
            cripples,
            "HT {ht}:\n{foot}"
        );
    }
}

/// "Knockout: If the target takes HT/2 or more damage to the head, he must roll HT or be
/// knocked unconscious." HT 11: 5 to the head (4) is less than 5.5, no roll (the stun
/// roll for "a head blow for more than 1/3 his HT" is made); 6 calls for it.
#[test]
fn knockout_takes_half_ht_unrounded() {
    let dice = "3 3 5  1 1 2  1 1 1  1 1 1  1 1 1";
    let five = Blow { st: 10, ..CRUSH }.fight("head5", dice);
    assert!(
        five.contains("Target hit in the head: 5 - DR 0 = 5 through, 5 hit points"),
        "{five}"
    );
    assert!(
        !five.contains("knockout"),
        "5 < 11/2: no knockout roll:\n{five}"
    );
    assert!(five.contains("resist stun"), "{five}");
    let six = CRUSH.fight("head6", dice);
    assert!(six.contains("6 - DR 0 = 6 through, 6 hit points"), "{six}");
    assert!(six.contains("HT: knockout for Target"), "{six}");
}

/// "-HT hit points: roll HT or die, roll again for each 5 hit points lost": with HT 10,
/// an HT roll at -10, again at -15, -20, ...; a loss that passes two of them rolls
/// twice, one that passes none rolls nothing.
#[test]
fn death_checks_at_minus_ht_and_each_5_more() {
    // From -9: margin 1 (13), 50% of 10 = 5 cut, x1.5 = 7: -16. Will against stun, then
    // HT at -10 and at -15.
    let two = Blow { taken: 19, ..CUT }.fight("death2", "4 4 5  1 1 1  1 1 1  1 1 1");
    assert!(two.contains("Target takes 7, -16 HP left"), "{two}");
    assert!(two.contains("death check at -10 HP"), "{two}");
    assert!(two.contains("death check at -15 HP"), "{two}");
    assert!(!two.contains("death check at -20 HP"), "{two}");
    // Margin 0 (14): 25% of 10 = 2 cut, x1.5 = 3: from -9 to -12, one roll; from -11
    // (the scenario starts him there, the roll at -10 not yet made) to -14, the roll at
    // -10 and none at -15.
    let one = Blow { taken: 19, ..CUT }.fight("death1", "5 5 4  1 1 1  1 1 1");
    assert!(one.contains("Target takes 3, -12 HP left"), "{one}");
    assert!(one.contains("death check at -10 HP"), "{one}");
    assert!(!one.contains("death check at -15 HP"), "{one}");
    let short = Blow { taken: 21, ..CUT }.fight("death0", "5 5 4  1 1 1  1 1 1");
    assert!(short.contains("Target takes 3, -14 HP left"), "{short}");
    assert!(short.contains("death check at -10 HP"), "{short}");
    assert!(!short.contains("death check at -15 HP"), "{short}");
}

/// The blow that takes him to -HT makes the death check also when it knocks him out: 15
/// to the head (4) from 1 HP (-14) and the knockout roll failed (18), then HT at -10;
/// a critical hit on the torso (8 against 14; 3: "target is knocked unconscious", normal
/// damage) from 1 HP to -14, then HT at -10.
#[test]
fn a_knockout_blow_still_makes_the_death_check() {
    let head = Blow {
        taken: 9,
        options: "",
        ..CUT
    }
    .fight("kohead", "3 3 5  1 1 2  6 6 6  1 1 1");
    assert!(head.contains("Target takes 15, -14 HP left"), "{head}");
    assert!(head.contains("Target: unconscious"), "{head}");
    assert!(head.contains("death check at -10 HP"), "{head}");
    let torso = Blow { taken: 9, ..CUT }.fight("kotorso", "2 3 3  1 1 1  1 1 1");
    assert!(torso.contains("critical hit for Aldric: 3"), "{torso}");
    assert!(
        torso.contains("knocked unconscious by the torso blow"),
        "{torso}"
    );
    assert!(torso.contains("Target takes 15, -14 HP left"), "{torso}");
    assert!(torso.contains("death check at -10 HP"), "{torso}");
}

/// "When an attack roll succeeds by 6 or more, the combatant scores a critical hit": the
/// attack roll's own successes, not what the Active Defence leaves of them. Target
/// parries (Broadsword 12: 6) and rolls 4: AD 4; the attack succeeded by 6 (8 against
/// 14): net margin 2, and a critical hit (9: normal damage) at the full damage. A parry
/// that stops the blow (Broadsword 16: parry 8, rolled 3, AD 7 against 6) leaves no hit
/// and no critical.
#[test]
fn a_critical_hit_is_the_attack_rolls_margin() {
    let parry = |skill: u32| {
        format!(
            "skills = {{ broadsword = {skill} }}\nweapons = [\"broadsword\"]\n{}{}",
            "\n[[choices]]\nwho = \"Target\"\ndecision = \"defence\"\nchoose = \"parry\"\n",
            "\n[[choices]]\nwho = \"Target\"\ndecision = \"retreat\"\nchoose = \"stand\"\n"
        )
    };
    let twelve = parry(12);
    let crit = Blow {
        target: &twelve,
        ..CUT
    }
    .fight("critparry", "2 3 3  1 1 2  3 3 3  1 1 1");
    assert!(crit.contains("success, by 6"), "{crit}");
    assert!(
        crit.contains("net margin: 6 successes - AD 4 = 2"),
        "{crit}"
    );
    assert!(crit.contains("critical hit for Aldric: 9"), "{crit}");
    assert!(crit.contains("Aldric: 10 cut x 100% = 10"), "{crit}");
    assert!(
        crit.contains("10 - DR 0 = 10 through, 15 hit points"),
        "{crit}"
    );
    let sixteen = parry(16);
    let stopped = Blow {
        target: &sixteen,
        ..CUT
    }
    .fight("critstopped", "2 3 3  1 1 1  3 3 3");
    assert!(
        stopped.contains("net margin: 6 successes - AD 7 = -1"),
        "{stopped}"
    );
    assert!(
        stopped.contains("Target stops the attack (parry)"),
        "{stopped}"
    );
    assert!(!stopped.contains("critical hit"), "{stopped}");
}

/// Aldric (HT 10, 10 hit points, `taken` lost) with a bastard sword, and Bert, an ally
/// without First Aid, against Target (HT 2, 2 hit points, unaware). `options` are the
/// fight's; the scripted choices make Aldric swing to cut.
fn wounded_swordsman(case: &str, taken: u32, options: &str, dice: &str) -> String {
    let scenario = format!(
        r#"ruleset = "{ruleset}"
title = "A wounded swordsman"
options = [{options}]

[[combatants]]
name = "Aldric"
side = "a"
characteristics = {{ ST = 12, DX = 14, IQ = 10, HT = 10 }}
skills = {{ broadsword = 14 }}
weapons = ["bastard_sword"]
hit_points = {{ total = 10 }}
damage_taken = {{ total = {taken} }}

[[combatants]]
name = "Bert"
side = "a"
characteristics = {{ ST = 10, DX = 8, IQ = 10, HT = 10 }}
hit_points = {{ total = 10 }}

[[combatants]]
name = "Target"
side = "b"
characteristics = {{ ST = 10, DX = 10, IQ = 10, HT = 2 }}
hit_points = {{ total = 2 }}
engaged = ["Aldric"]
options = ["unaware"]

[[choices]]
who = "Aldric"
decision = "action"
choose = "attack"

[[choices]]
who = "Aldric"
decision = "damage_mode"
choose = "swing_cut"
"#,
        ruleset = ruleset_path("3d6-hex"),
    );
    fight_with_dice(&format!("hex-wounded-{case}"), &scenario, dice)
}

/// "-HT hit points: roll HT or die, roll again for each 5 hit points lost": a wound
/// dealt to oneself is a loss like a blow's. Aldric at -3 HP stays conscious (Will, 3),
/// rolls 18 (critical failure) and 5 on the critical miss table, "Hit self for ½
/// damage": 50% of 10 cut = 5, x1.5 = 7, to -10. He is incapacitated and rolls HT at
/// -10. Before, a wound to oneself met neither.
#[test]
fn hitting_oneself_makes_the_death_check() {
    let log = wounded_swordsman(
        "hitself",
        13,
        "\"no_random_location\"",
        "1 1 1  6 6 6  1 1 3  1 1 1",
    );
    assert!(
        log.contains("critical miss for Aldric: 5 → Hit self for ½ damage"),
        "{log}"
    );
    assert!(log.contains("Aldric takes 7, -10 HP left"), "{log}");
    assert!(log.contains("Aldric is at -10 HP: incapacitated"), "{log}");
    assert!(log.contains("death check at -10 HP"), "{log}");
}

/// After the battle, "someone without the First Aid or Physician skills can roll IQ-5 to
/// restore 1 hit point. On a critical failure, they cause 1 hit point of additional
/// damage": a loss like any other, that meets the death check at -HT. Aldric (at -9,
/// conscious: Will 3) cuts Target down (11 against 14: 10 cut, x1.5 = 15; Target's stun
/// roll 3, then -13: obliterated); Bert tends Aldric and rolls 18: -10, and the HT roll
/// at -10 (3) comes before the first minute's bleeding roll. Before, the loss met no
/// death check unless a bleeding roll failed later.
#[test]
fn a_botched_first_aid_makes_the_death_check() {
    let log = wounded_swordsman(
        "firstaid",
        19,
        "\"no_random_location\", \"bleeding\"",
        "1 1 1  3 3 5  1 1 1  6 6 6  1 1 1  1 1 1",
    );
    assert!(log.contains("Target takes 15, -13 HP left"), "{log}");
    let after = log.find("After the battle").expect("the aftermath runs");
    let aftermath = &log[after..];
    assert!(aftermath.contains("IQ-5: tend Aldric"), "{log}");
    assert!(aftermath.contains("Aldric takes 1, -10 HP left"), "{log}");
    assert!(aftermath.contains("death check at -10 HP"), "{log}");
}

/// The plain Attack of a duel plays from combat.toml (`[[action]] attack`, exchange
/// `melee`): the attack test logged under the weapon's name with its margin, the Random
/// Hit Location rolled once the attack succeeds and before the defence is chosen, the
/// Retreat asked before the Block is rolled ("+3 ... stepping back a yard"), the Block
/// at Shield 12 + leather PD 2 + the small shield's PD 2 + Retreat's 3 = 19, a natural 17
/// a failure even by 2, the net margin 4 (a failed Block gives no AD) at 100%. An attack
/// that fails rolls no hit location.
#[test]
fn the_plain_attack_plays_from_combat_toml() {
    let scenario = format!(
        r#"ruleset = "{ruleset}"
title = "One exchange"

[[combatants]]
name = "Aldric"
side = "a"
characteristics = {{ ST = 12, DX = 14, IQ = 10, HT = 10 }}
skills = {{ broadsword = 14 }}
weapons = ["bastard_sword"]
hit_points = {{ total = 10 }}

[[combatants]]
name = "Target"
side = "b"
characteristics = {{ ST = 10, DX = 10, IQ = 10, HT = 10 }}
skills = {{ broadsword = 12, shield = 12 }}
weapons = ["broadsword", "small_shield"]
armour = {{ all = "leather" }}
hit_points = {{ total = 100 }}
engaged = ["Aldric"]

[[choices]]
decision = "action"
by = "Aldric"
choose = "attack"

[[choices]]
decision = "damage_mode"
by = "Aldric"
choose = "swing_cut"

[[choices]]
decision = "defence"
by = "Target"
choose = "block"
"#,
        ruleset = ruleset_path("3d6-hex"),
    );
    let log = fight_with_dice("hex-native-attack", &scenario, "4 3 3  3 3 4  6 6 5");
    let at = |line: &str| {
        log.find(line)
            .unwrap_or_else(|| panic!("no `{line}` in:\n{log}"))
    };
    let attack = at("Aldric: Bastard sword 14, rolled 10: success, by 4");
    let location = at("random hit location for Target: 10 → Torso");
    let defence = at("Target chooses defence: block (of parry, block, dodge, none; scenario)");
    let retreat = at("Target chooses retreat: retreat");
    let step = at("Target and Aldric are 1 apart");
    let block = at("Target: Block with Small shield 19, rolled 17: failure, by 2");
    assert!(attack < location && location < defence, "{log}");
    assert!(defence < retreat && retreat < step && step < block, "{log}");
    at("Aldric: 10 cut x 100% = 10 (net margin 4)");
    at("Target takes 12, 88 HP left");

    let missed = fight_with_dice("hex-native-miss", &scenario, "6 6 4");
    assert!(
        missed.contains("Aldric: Bastard sword 14, rolled 16: failure, missed by 2"),
        "{missed}"
    );
    assert!(!missed.contains("random hit location"), "{missed}");
}
