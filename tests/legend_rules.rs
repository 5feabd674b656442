//! An audit of the Legend ruleset (`rulesets/legend`) against its text, the combat
//! chapter of the Legend Core Rulebook (`../shared/rules/legend-combat.md`): one
//! given-dice test per rule of the text that the ruleset implements.
//!
//! Each test sets up a small scenario — Ann (red) and Bob (blue) unless it says
//! otherwise — fights it with given dice (`--dice`) and, where a decision must go one
//! way, scripted `[[choices]]`, and checks the log. The fight stops where the given
//! dice run out, so a test gives only the dice of the exchange it is about.
//!
//! Ann has Strike Rank 20 and Bob 5, so with initiative dice of 5 and 5 Ann always acts
//! first (25 against 10, less any armour penalty). Ann's combat style is 60% (a critical
//! on 01-06), Bob's 50% (01-05); both have Evade, Unarmed, Resilience, Athletics and
//! Brawn 40% unless a test says otherwise, SIZ and STR 12, and no Damage Modifier.
//!
//! Rules where the ruleset departs from the text are left out of this file (they are
//! listed in the audit's report), so that no test holds a wrong behaviour in place.
//!
//! `AUDIT_SHOW=1 cargo test --test legend_rules NAME -- --nocapture` prints each fight's
//! log, to work out the order of the dice of a new test.

mod common;

use common::{affray, scratch, text};

use std::fs;

use serde_json::Value;

/// The ruleset, by absolute path, for scenarios written to a scratch folder.
fn legend() -> String {
    common::ruleset_path("legend")
}

/// One combatant of a scenario, as in `rulesets/legend/scenarios/*.toml`.
#[derive(Clone)]
struct Fighter {
    name: String,
    side: String,
    characteristics: Vec<(String, i64)>,
    skills: Vec<(String, i64)>,
    statistics: Vec<(String, String)>,
    /// Other keys, each a whole TOML line: `weapons = [...]`, `armour = {...}`, ...
    lines: Vec<(String, String)>,
}

fn set<T: Clone>(list: &mut Vec<(String, T)>, key: &str, value: T) {
    match list.iter_mut().find(|(k, _)| k == key) {
        Some(entry) => entry.1 = value,
        None => list.push((key.to_string(), value)),
    }
}

impl Fighter {
    fn new(name: &str, side: &str, style: i64, strike_rank: i64) -> Self {
        let mut fighter = Fighter {
            name: name.into(),
            side: side.into(),
            characteristics: Vec::new(),
            skills: Vec::new(),
            statistics: Vec::new(),
            lines: Vec::new(),
        };
        for c in ["STR", "CON", "SIZ", "INT", "POW", "DEX", "CHA"] {
            set(&mut fighter.characteristics, c, 12);
        }
        set(&mut fighter.skills, "style", style);
        for s in ["evade", "unarmed", "resilience", "athletics", "brawn"] {
            set(&mut fighter.skills, s, 40);
        }
        set(&mut fighter.statistics, "combat_style", "\"style\"".into());
        set(
            &mut fighter.statistics,
            "strike_rank",
            strike_rank.to_string(),
        );
        set(&mut fighter.statistics, "combat_actions", "2".into());
        set(&mut fighter.statistics, "damage_modifier", "\"0\"".into());
        fighter
            .line("weapons", r#"["longsword", "heater"]"#)
            .line(
                "hit_points",
                "{ right_leg = 5, left_leg = 5, abdomen = 6, chest = 7, right_arm = 4, left_arm = 4, head = 5 }",
            )
    }

    fn ann() -> Self {
        Fighter::new("Ann", "red", 60, 20)
    }

    fn bob() -> Self {
        Fighter::new("Bob", "blue", 50, 5)
    }

    fn line(mut self, key: &str, value: &str) -> Self {
        set(&mut self.lines, key, value.to_string());
        self
    }

    fn weapons(self, weapons: &str) -> Self {
        self.line("weapons", weapons)
    }

    fn skill(mut self, name: &str, value: i64) -> Self {
        set(&mut self.skills, name, value);
        self
    }

    fn characteristic(mut self, name: &str, value: i64) -> Self {
        set(&mut self.characteristics, name, value);
        self
    }

    fn statistic(mut self, name: &str, value: &str) -> Self {
        set(&mut self.statistics, name, value.to_string());
        self
    }

    fn toml(&self) -> String {
        let table = |pairs: Vec<String>| format!("{{ {} }}", pairs.join(", "));
        let mut out = format!(
            "[[combatants]]\nname = {:?}\nside = {:?}\n",
            self.name, self.side
        );
        out += &format!(
            "characteristics = {}\n",
            table(
                self.characteristics
                    .iter()
                    .map(|(k, v)| format!("{k} = {v}"))
                    .collect()
            )
        );
        out += &format!(
            "skills = {}\n",
            table(
                self.skills
                    .iter()
                    .map(|(k, v)| format!("{k} = {v}"))
                    .collect()
            )
        );
        for (key, value) in &self.lines {
            out += &format!("{key} = {value}\n");
        }
        out += &format!(
            "statistics = {}\n\n",
            table(
                self.statistics
                    .iter()
                    .map(|(k, v)| format!("{k} = {v}"))
                    .collect()
            )
        );
        out
    }
}

/// A scenario: `header` (top-level keys such as `distance = 10`), the combatants, and
/// scripted choices `(decision, by, choose)`, used in order.
fn scenario(header: &str, fighters: &[Fighter], choices: &[(&str, &str, &str)]) -> String {
    let mut out = format!(
        "ruleset = {:?}\ntitle = \"Legend rules audit\"\n{header}\n\n",
        legend()
    );
    for fighter in fighters {
        out += &fighter.toml();
    }
    for (decision, by, choose) in choices {
        out +=
            &format!("[[choices]]\ndecision = {decision:?}\nby = {by:?}\nchoose = {choose:?}\n\n");
    }
    out
}

/// A fight's log as text and as JSON events.
struct Fight {
    log: String,
    events: Vec<Value>,
}

/// Fight `scenario` with `dice` (whitespace-separated values, `#` comments) in a
/// scratch folder, twice: for the text log and for the JSON events.
fn fight(case: &str, scenario: &str, dice: &str) -> Fight {
    let dir = scratch(case);
    fs::write(dir.join("audit.toml"), scenario).unwrap();
    fs::write(dir.join("dice.txt"), dice).unwrap();
    let log = affray(&dir, &["fight", "audit.toml", "--dice", "dice.txt"]);
    let json = affray(
        &dir,
        &["fight", "audit.toml", "--dice", "dice.txt", "--json"],
    );
    let _ = fs::remove_dir_all(&dir);
    let stderr = text(&log.stderr);
    if std::env::var_os("AUDIT_SHOW").is_some() {
        eprintln!("{}\n{stderr}", text(&log.stdout));
    }
    assert!(
        !stderr.contains("panicked") && !stderr.contains("is not one of"),
        "{stderr}\n{}",
        text(&log.stdout)
    );
    let events = text(&json.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect();
    Fight {
        log: text(&log.stdout),
        events,
    }
}

/// A duel of Ann and Bob, with the first two initiative dice (5 and 5) put in front of
/// `dice`.
fn duel(
    case: &str,
    ann: Fighter,
    bob: Fighter,
    choices: &[(&str, &str, &str)],
    dice: &str,
) -> Fight {
    fight(
        case,
        &scenario("", &[ann, bob], choices),
        &format!("5 5\n{dice}"),
    )
}

impl Fight {
    /// The log holds `line` (one line or several consecutive ones, without their indent).
    fn has(&self, line: &str) -> &Self {
        let flat: String = self
            .log
            .lines()
            .map(str::trim_start)
            .collect::<Vec<_>>()
            .join("\n");
        assert!(flat.contains(line), "no line `{line}` in:\n{}", self.log);
        self
    }

    fn lacks(&self, text: &str) -> &Self {
        assert!(!self.log.contains(text), "`{text}` in:\n{}", self.log);
        self
    }

    fn of_kind(&self, kind: &str) -> Vec<&Value> {
        self.events.iter().filter(|e| e["event"] == kind).collect()
    }

    /// Every test: (who, skill, target, roll, result).
    fn tests(&self) -> Vec<(String, String, i64, i64, String)> {
        self.of_kind("test")
            .iter()
            .map(|e| {
                (
                    s(&e["who"]),
                    s(&e["test"]),
                    e["target"].as_i64().unwrap(),
                    e["roll"].as_i64().unwrap(),
                    s(&e["result"]),
                )
            })
            .collect()
    }

    /// Every damage event: (who, location, amount, hit points left there).
    fn damage(&self) -> Vec<(String, String, i64, i64)> {
        self.of_kind("damage")
            .iter()
            .map(|e| {
                (
                    s(&e["who"]),
                    s(&e["location"]),
                    e["amount"].as_i64().unwrap(),
                    e["hit_points"].as_i64().unwrap(),
                )
            })
            .collect()
    }

    /// Every deflection: (who, damage deflected).
    fn deflected(&self) -> Vec<(String, i64)> {
        self.of_kind("deflected")
            .iter()
            .map(|e| (s(&e["who"]), e["amount"].as_i64().unwrap()))
            .collect()
    }

    /// Every wound: (who, location or "", level).
    fn wounds(&self) -> Vec<(String, String, String)> {
        self.of_kind("wound")
            .iter()
            .map(|e| (s(&e["who"]), s(&e["location"]), s(&e["level"])))
            .collect()
    }

    /// Every condition set: (who, condition, how long or "").
    fn conditions(&self) -> Vec<(String, String, String)> {
        self.of_kind("condition_set")
            .iter()
            .map(|e| (s(&e["who"]), s(&e["condition"]), s(&e["lasts"])))
            .collect()
    }

    fn has_condition(&self, who: &str, condition: &str) -> bool {
        self.conditions()
            .iter()
            .any(|(w, c, _)| w == who && c == condition)
    }

    /// Every table row rolled: (table, result, row).
    fn rows(&self) -> Vec<(String, i64, String)> {
        self.of_kind("table_row")
            .iter()
            .map(|e| (s(&e["table"]), e["result"].as_i64().unwrap(), s(&e["row"])))
            .collect()
    }

    /// The manoeuvres chosen, (who, manoeuvre), in order.
    fn manoeuvres(&self) -> Vec<(String, String)> {
        self.choices("manoeuvre")
            .into_iter()
            .map(|(who, chosen, _)| (who, chosen))
            .collect()
    }

    /// The choices of one decision: (who, chosen, options).
    fn choices(&self, decision: &str) -> Vec<(String, String, Vec<String>)> {
        self.of_kind("choice")
            .iter()
            .filter(|e| e["decision"] == decision)
            .map(|e| {
                (
                    s(&e["who"]),
                    s(&e["chosen"]),
                    e["options"].as_array().unwrap().iter().map(s).collect(),
                )
            })
            .collect()
    }

    /// The options of `who`'s `n`th action decision (0 the first).
    fn action_options(&self, who: &str, n: usize) -> Vec<String> {
        let actions: Vec<_> = self
            .choices("action")
            .into_iter()
            .filter(|(w, _, _)| w == who)
            .collect();
        assert!(
            actions.len() > n,
            "{who} decides fewer actions:\n{}",
            self.log
        );
        actions[n].2.clone()
    }
}

fn s(value: &Value) -> String {
    value.as_str().unwrap_or_default().to_string()
}

fn t(
    who: &str,
    skill: &str,
    target: i64,
    roll: i64,
    result: &str,
) -> (String, String, i64, i64, String) {
    (who.into(), skill.into(), target, roll, result.into())
}

fn d(who: &str, location: &str, amount: i64, left: i64) -> (String, String, i64, i64) {
    (who.into(), location.into(), amount, left)
}

fn pair(who: &str, what: &str) -> (String, String) {
    (who.into(), what.into())
}

const BOB_NO_PARRY: (&str, &str, &str) = ("reaction", "Bob", "none");
const ANN_NO_PARRY: (&str, &str, &str) = ("reaction", "Ann", "none");
/// Ann buys Choose Location (with her one level) and aims at the chest: the two
/// scripted choices in a row, as `[CHOOSE_LOCATION, CHEST]`.
const CHOOSE_LOCATION: (&str, &str, &str) = ("manoeuvre", "Ann", "choose_location");
const CHEST: (&str, &str, &str) = ("location", "Ann", "chest");

// ================================================================ attacks and parries

/// Attacks and Parries: "Parrying an attack with a weapon or shield of equal or greater
/// size deflects all damage." Ann's long sword (Medium) hits (30 against 60), Bob's
/// heater (Large) parries (40 against 50): the same level, no manoeuvre, and the 1D8 = 6
/// is all deflected.
#[test]
fn a_parry_with_a_larger_shield_deflects_all_damage() {
    let f = duel("parry-all", Fighter::ann(), Fighter::bob(), &[], "30 40 6");
    assert_eq!(
        f.tests(),
        [
            t("Ann", "style", 60, 30, "success"),
            t("Bob", "style", 50, 40, "success")
        ]
    );
    assert_eq!(f.deflected(), [("Bob".to_string(), 6)]);
    assert!(f.manoeuvres().is_empty());
    assert!(f.damage().is_empty());
}

/// "Parrying with a weapon or shield of one size less only deflects half damage."
/// "parrying it [a great axe] with a target shield would halve the damage": Ann's great
/// axe (Huge, 2D6+2) against Bob's target shield (Large): 4 + 5 + 2 = 11, half deflected
/// leaves 5 (rounded down), on the chest (1D20 = 11, 7 HP): 2 left, a minor wound.
#[test]
fn a_parry_one_size_less_deflects_half() {
    let ann = Fighter::ann().weapons(r#"["great_axe"]"#);
    let bob = Fighter::bob().weapons(r#"["longsword", "target"]"#);
    let f = duel("parry-half", ann, bob, &[], "30 40 4 5 11");
    assert_eq!(f.deflected(), [("Bob".to_string(), 6)]);
    assert_eq!(f.damage(), [d("Bob", "chest", 5, 2)]);
    assert_eq!(f.wounds(), [("Bob".into(), "chest".into(), "minor".into())]);
}

/// "Parrying with a weapon or shield two or more sizes less fails to deflect any
/// damage" ("parrying it with a dagger would stop no damage at all"): the great axe
/// (Huge) against Bob's dagger (Small): 3 + 2 + 2 = 7 on the right leg (1D20 = 2, 5 HP).
#[test]
fn a_parry_two_sizes_less_deflects_nothing() {
    let ann = Fighter::ann().weapons(r#"["great_axe"]"#);
    let bob = Fighter::bob().weapons(r#"["dagger"]"#);
    let f = duel("parry-none", ann, bob, &[], "30 40 3 2 2");
    assert!(f.deflected().is_empty());
    assert_eq!(f.damage()[0], d("Bob", "right_leg", 7, -2));
}

/// "if the attack misses then the parrying participant can opt not to complete the
/// parry, thereby saving his CA from being spent. This does mean, though, that he will
/// not gain a defensive Combat Manoeuvre". Ann misses (80); Bob withdraws: no parry
/// roll, no action spent, and he acts with all 3 of his Combat Actions.
#[test]
fn a_parry_can_be_withdrawn_after_a_miss() {
    let f = duel(
        "withdraw",
        Fighter::ann(),
        Fighter::bob(),
        &[("parry_after_miss", "Bob", "withdraw")],
        "80",
    );
    assert_eq!(f.tests(), [t("Ann", "style", 60, 80, "failure")]);
    f.lacks("Bob spends an action");
    f.has("Bob acts (3 actions left)");
    assert!(f.manoeuvres().is_empty());
}

/// "If the attacker has missed then obviously no damage will be inflicted. However, the
/// defender should still roll to see if his parry succeeds, in case he manages to beat
/// the attacker's level of success": Ann's 80 fails, Bob's completed parry (40)
/// succeeds: defender 1, one defensive manoeuvre, and no damage roll.
#[test]
fn a_completed_parry_against_a_miss_wins_a_defensive_manoeuvre() {
    let f = duel(
        "complete",
        Fighter::ann(),
        Fighter::bob(),
        &[
            ("parry_after_miss", "Bob", "complete"),
            ("manoeuvre", "Bob", "stand_fast"),
        ],
        "80 40",
    );
    f.has("Bob spends an action on parry (2 left)");
    assert_eq!(f.manoeuvres(), [pair("Bob", "stand_fast")]);
    let options = &f.choices("manoeuvre")[0].2;
    // Defensive options only; Pin Weapon and Blind Opponent need a critical.
    assert!(options.contains(&"riposte".to_string()), "{options:?}");
    assert!(!options.contains(&"impale".to_string()), "{options:?}");
    assert!(!options.contains(&"pin_weapon".to_string()), "{options:?}");
    f.lacks("damage for Ann");
}

// ================================================================ levels of success

/// Levels of Success: "an attacker rolling a critical success against the defender's
/// success gives the attacker a level of success and therefore 1 Combat Manoeuvre."
/// Ann's 05 is a critical (60%: 01-06), Bob's 40 a success: one offensive manoeuvre.
#[test]
fn a_critical_against_a_success_wins_one_manoeuvre() {
    let f = duel(
        "crit-vs-success",
        Fighter::ann(),
        Fighter::bob(),
        &[("manoeuvre", "Ann", "bypass_parry")],
        "5 40 6",
    );
    assert_eq!(
        f.tests(),
        [
            t("Ann", "style", 60, 5, "critical"),
            t("Bob", "style", 50, 40, "success")
        ]
    );
    assert_eq!(f.manoeuvres(), [pair("Ann", "bypass_parry")]);
}

/// "A defender rolls a success against an attacker's fumble giving the defender two
/// levels of success and therefore 2 Combat Manoeuvres." Ann's 00 is a fumble, Bob's
/// completed parry of 40 a success: two defensive manoeuvres, then Ann's fumble roll
/// (1D20 = 2, Falter).
#[test]
fn a_success_against_a_fumble_wins_two_manoeuvres() {
    let f = duel(
        "success-vs-fumble",
        Fighter::ann(),
        Fighter::bob(),
        &[
            ("parry_after_miss", "Bob", "complete"),
            ("manoeuvre", "Bob", "overextend_opponent"),
            ("manoeuvre", "Bob", "stand_fast"),
        ],
        "100 40 2",
    );
    assert_eq!(f.tests()[0], t("Ann", "style", 60, 100, "fumble"));
    assert_eq!(
        f.manoeuvres(),
        [
            pair("Bob", "overextend_opponent"),
            pair("Bob", "stand_fast")
        ]
    );
    assert_eq!(
        f.rows()[0],
        ("close_combat_fumble".into(), 2, "falter".into())
    );
}

/// "if both combatants roll a critical, then the difference between them is 0": Ann's
/// 03 and Bob's 02 are both criticals: no manoeuvre, and the parry deflects the blow.
#[test]
fn two_criticals_win_nothing() {
    let f = duel("crit-vs-crit", Fighter::ann(), Fighter::bob(), &[], "3 2 7");
    assert_eq!(
        f.tests(),
        [
            t("Ann", "style", 60, 3, "critical"),
            t("Bob", "style", 50, 2, "critical")
        ]
    );
    assert!(f.manoeuvres().is_empty());
    assert_eq!(f.deflected(), [("Bob".to_string(), 7)]);
}

/// Levels of Success, "Attacker gets 2": a critical against a failed parry. Ann's 04
/// against Bob's 90: two offensive manoeuvres, and the critical opens Bypass Armour and
/// Maximise Damage.
#[test]
fn a_critical_against_a_failure_wins_two_manoeuvres() {
    let f = duel(
        "crit-vs-failure",
        Fighter::ann(),
        Fighter::bob(),
        &[
            ("manoeuvre", "Ann", "bypass_armour"),
            ("manoeuvre", "Ann", "choose_location"),
            ("location", "Ann", "chest"),
        ],
        "4 90 6",
    );
    assert_eq!(
        f.manoeuvres(),
        [pair("Ann", "bypass_armour"), pair("Ann", "choose_location")]
    );
    assert!(
        f.choices("manoeuvre")[0]
            .2
            .contains(&"maximise_damage".to_string())
    );
    assert_eq!(f.damage(), [d("Bob", "chest", 6, 1)]);
}

/// "If both combatants fail, then the attack/parry sequence ends ... No opportunistic
/// Combat Manoeuvres may be selected." Ann's 80 and Bob's 70 both fail.
#[test]
fn two_failures_end_the_exchange() {
    let f = duel(
        "both-fail",
        Fighter::ann(),
        Fighter::bob(),
        &[("parry_after_miss", "Bob", "complete")],
        "80 70",
    );
    assert_eq!(
        f.tests(),
        [
            t("Ann", "style", 60, 80, "failure"),
            t("Bob", "style", 50, 70, "failure")
        ]
    );
    assert!(f.manoeuvres().is_empty());
    f.lacks("damage for");
    f.has("Bob acts (2 actions left)");
}

// ================================================================ fumbles

/// "There are three Fumble tables; one for Close Combat fumbles ..." A fumbled attack
/// with a long sword rolls on the Close Combat Fumble Table: 1D20 = 4, "04–06 Drop
/// Weapon: Weapon falls 1D4 metres away" (1D4 = 3).
#[test]
fn a_fumbled_sword_blow_rolls_on_the_close_combat_fumble_table() {
    let f = duel(
        "fumble-close",
        Fighter::ann(),
        Fighter::bob(),
        &[BOB_NO_PARRY],
        "100 4 3",
    );
    assert_eq!(
        f.rows(),
        [("close_combat_fumble".into(), 4, "drop_weapon".into())]
    );
    f.has("Ann drops the Long Sword").has("it lands 3 m away");
}

/// "one for Close Combat fumbles (including parries and evading)": Bob fumbles a parry
/// with his heater (00) against Ann's success (attacker 2 levels): his roll is on the
/// Close Combat table, 1D20 = 8, "07–09 Lose Balance: Lose next 1D3 Combat Actions"
/// (1D3 = 2).
#[test]
fn a_fumbled_parry_rolls_on_the_close_combat_fumble_table() {
    let f = duel(
        "fumble-parry",
        Fighter::ann(),
        Fighter::bob(),
        &[
            ("manoeuvre", "Ann", "choose_location"),
            ("manoeuvre", "Ann", "bypass_parry"),
        ],
        "30 100 8 2",
    );
    assert_eq!(f.tests()[1], t("Bob", "style", 50, 100, "fumble"));
    assert_eq!(f.manoeuvres().len(), 2);
    assert_eq!(
        f.rows(),
        [("close_combat_fumble".into(), 8, "lose_balance".into())]
    );
    f.has("Bob loses 2 actions");
}

/// "... one for Natural Weapons": Ann, with no weapon, fumbles an unarmed blow: 1D20 =
/// 13, "13–14 Sprawl: Trip and fall prone. Forfeit next 1D3 Combat Actions" (1D3 = 1).
#[test]
fn a_fumbled_unarmed_blow_rolls_on_the_natural_weapon_fumble_table() {
    let ann = Fighter::ann().weapons("[]");
    let f = duel(
        "fumble-natural",
        ann,
        Fighter::bob(),
        &[BOB_NO_PARRY],
        "100 13 1",
    );
    assert_eq!(f.tests()[0], t("Ann", "unarmed", 40, 100, "fumble"));
    assert_eq!(
        f.rows(),
        [("natural_weapon_fumble".into(), 13, "sprawl".into())]
    );
    assert!(f.has_condition("Ann", "prone"));
    f.has("Ann loses 1 action");
}

/// "... and one for Ranged Weapons": Ann fumbles a sling shot: 1D20 = 17, "17–18
/// Misfire: Inflict normal damage on self": 1D8 = 5 on her own chest (1D20 = 11, 7 HP).
#[test]
fn a_fumbled_shot_rolls_on_the_ranged_weapon_fumble_table() {
    let ann = Fighter::ann().weapons(r#"["sling"]"#);
    let bob = Fighter::bob().weapons(r#"["longsword"]"#);
    let f = fight(
        "fumble-ranged",
        &scenario(
            "distance = 10",
            &[ann, bob],
            &[("action", "Ann", "attack"), BOB_NO_PARRY],
        ),
        "5 5 100 17 5 11",
    );
    assert_eq!(
        f.rows()[0],
        ("ranged_weapon_fumble".into(), 17, "misfire".into())
    );
    assert_eq!(f.damage(), [d("Ann", "chest", 5, 2)]);
}

/// Close Combat Fumble Table: "19 Unlucky: Roll twice, ignoring any rolls of 19 or 20."
/// After the 19: 1 (Falter) and 10 (Damage Weapon: the long sword does 1D8 = 3 to
/// itself). (A 19 or 20 among the rerolls is not used here: the engine then swallows the
/// next given dice; see the audit's report.)
#[test]
fn an_unlucky_fumble_rolls_twice_more() {
    let f = duel(
        "fumble-unlucky",
        Fighter::ann(),
        Fighter::bob(),
        &[BOB_NO_PARRY],
        "100 19 1 10 3",
    );
    let rows: Vec<String> = f.rows().into_iter().map(|(_, _, row)| row).collect();
    assert_eq!(rows, ["unlucky", "falter", "damage_weapon"]);
    f.has("Long Sword takes 3 damage");
}

// ================================================================ no Combat Actions

/// "In a situation where a defender has no Combat Actions remaining or taking no action,
/// or elects not to parry, he is treated as having automatically rolled a Failure."
/// Bob (long sword only, 1 Combat Action) spends his one action on a parry; Ann's
/// second blow (30, a success) meets no defence: attacker 1 level, as against a failure.
#[test]
fn a_defender_without_combat_actions_fails_automatically() {
    let bob = Fighter::bob()
        .weapons(r#"["longsword"]"#)
        .statistic("combat_actions", "1");
    let f = duel(
        "no-actions",
        Fighter::ann(),
        bob,
        &[
            ("manoeuvre", "Ann", "choose_location"),
            ("location", "Ann", "chest"),
        ],
        "30 40 6 30 5",
    );
    assert_eq!(f.choices("reaction").len(), 1, "{}", f.log);
    assert_eq!(f.tests().len(), 3);
    assert_eq!(f.manoeuvres(), [pair("Ann", "choose_location")]);
    assert_eq!(f.damage(), [d("Bob", "chest", 5, 2)]);
}

/// The same rule, "or elects not to parry": Bob declines to parry (scripted `none`) and
/// Ann's 30 wins a level over his automatic failure.
#[test]
fn a_defender_who_does_not_parry_fails_automatically() {
    let f = duel(
        "no-parry",
        Fighter::ann(),
        Fighter::bob(),
        &[
            BOB_NO_PARRY,
            ("manoeuvre", "Ann", "choose_location"),
            ("location", "Ann", "head"),
        ],
        "30 4",
    );
    assert_eq!(f.tests(), [t("Ann", "style", 60, 30, "success")]);
    f.lacks("Bob spends an action");
    assert_eq!(f.damage(), [d("Bob", "head", 4, 1)]);
    assert_eq!(f.wounds(), [("Bob".into(), "head".into(), "minor".into())]);
}

// ================================================================ offensive manoeuvres

/// Bash Opponent: "The recipient is forced backwards by one metre for every five points
/// (or fraction thereof) of damage rolled ... The calculation uses the damage value
/// originally rolled by the attacker, before any subtractions due to armour". Ann's
/// 1D8 = 6 (4 through Bob's 2 AP on the chest) pushes him back 2 m, not 1.
#[test]
fn bash_pushes_back_a_metre_per_five_points_rolled() {
    let bob = Fighter::bob().line("armour", r#"{ all = "soft_leather" }"#);
    let f = duel(
        "bash",
        Fighter::ann(),
        bob,
        &[BOB_NO_PARRY, ("manoeuvre", "Ann", "bash_opponent")],
        "30 6 11",
    );
    assert_eq!(f.damage(), [d("Bob", "chest", 4, 3)]);
    f.has("Bob is bashed back 2 m");
}

/// "Bashing works only on creatures up to twice the attacker's SIZ": Bob at SIZ 25
/// (Ann 12) cannot be bashed; at 24 he can.
#[test]
fn bash_works_only_on_creatures_up_to_twice_the_size() {
    let options = |siz| {
        let bob = Fighter::bob().characteristic("SIZ", siz);
        let f = duel("bash-siz", Fighter::ann(), bob, &[BOB_NO_PARRY], "30");
        f.choices("manoeuvre")[0].2.clone()
    };
    assert!(!options(25).contains(&"bash_opponent".to_string()));
    assert!(options(24).contains(&"bash_opponent".to_string()));
}

/// Bleed (Cutting Weapons): "The defender must make an opposed roll of Resilience vs.
/// the attacker's original attack roll. If the defender fails, then ... the wound
/// inflicts a level of Fatigue at the start of each new Combat Round." Ann's long sword
/// (cutting) hits for 5 on the chest; Bob's Resilience 60 fails against her 30: bleeding,
/// and at the start of round 2 he is Winded (the first Fatigue level).
#[test]
fn bleed_costs_a_level_of_fatigue_each_new_round() {
    let ann = Fighter::ann()
        .weapons(r#"["longsword"]"#)
        .statistic("combat_actions", "1");
    let bob = Fighter::bob()
        .weapons(r#"["longsword"]"#)
        .statistic("combat_actions", "1");
    let f = duel(
        "bleed",
        ann,
        bob,
        &[
            BOB_NO_PARRY,
            ("manoeuvre", "Ann", "bleed"),
            ("action", "Bob", "defend"),
        ],
        "30 5 11 60",
    );
    assert_eq!(f.damage(), [d("Bob", "chest", 5, 2)]);
    assert_eq!(f.tests()[1], t("Bob", "resilience", 40, 60, "failure"));
    assert!(f.has_condition("Bob", "bleeding"));
    f.has("Round 2").has("Bob is Winded (blood loss)");
}

/// Bypass Armour (Critical Success Only): "The blow finds a gap in the defender's
/// protection." Ann's 04 against no parry wins 2 levels: Bypass Armour and Choose
/// Location (chest): the 1D8 = 6 ignores Bob's 2 AP there. On a plain success (30) the
/// manoeuvre is not offered.
#[test]
fn bypass_armour_needs_a_critical_and_ignores_the_armour() {
    let bob = Fighter::bob().line("armour", r#"{ all = "soft_leather" }"#);
    let f = duel(
        "bypass-armour",
        Fighter::ann(),
        bob.clone(),
        &[
            BOB_NO_PARRY,
            ("manoeuvre", "Ann", "bypass_armour"),
            ("manoeuvre", "Ann", "choose_location"),
            ("location", "Ann", "chest"),
        ],
        "4 6",
    );
    f.lacks("AP on the chest");
    assert_eq!(f.damage(), [d("Bob", "chest", 6, 1)]);
    let plain = duel(
        "bypass-armour-plain",
        Fighter::ann(),
        bob,
        &[BOB_NO_PARRY],
        "30",
    );
    assert!(
        !plain.choices("manoeuvre")[0]
            .2
            .contains(&"bypass_armour".to_string())
    );
}

/// Bypass Parry: "The defender's parrying weapon is treated as being one size level
/// less." Bob's buckler (Medium) would stop all of Ann's long sword (Medium); Ann's
/// critical (05) against his success (40) buys Bypass Parry: half of the 1D8 = 7 gets
/// through, 3, to the chest (1D20 = 11).
#[test]
fn bypass_parry_makes_the_parrying_weapon_a_size_smaller() {
    let bob = Fighter::bob().weapons(r#"["shortsword", "buckler"]"#);
    let f = duel(
        "bypass-parry",
        Fighter::ann(),
        bob,
        &[("manoeuvre", "Ann", "bypass_parry")],
        "5 40 7 11",
    );
    assert_eq!(f.deflected(), [("Bob".to_string(), 4)]);
    assert_eq!(f.damage(), [d("Bob", "chest", 3, 4)]);
}

/// Choose Location: "The attacker may freely select the location where the blow lands":
/// no hit location is rolled; Ann's 1D8 = 4 lands on the head she chose.
#[test]
fn choose_location_picks_where_the_blow_lands() {
    let f = duel(
        "choose-location",
        Fighter::ann(),
        Fighter::bob(),
        &[
            BOB_NO_PARRY,
            ("manoeuvre", "Ann", "choose_location"),
            ("location", "Ann", "left_leg"),
        ],
        "30 4",
    );
    assert!(f.rows().is_empty(), "no location rolled: {:?}", f.rows());
    assert_eq!(f.damage(), [d("Bob", "left_leg", 4, 1)]);
}

/// Damage Weapon: "The winner rolls the damage for his weapon and applies it to his
/// opponent's. The opponent's weapon uses its own Armour Points for resisting the
/// damage." Ann's 1D8 = 8 against Bob's long sword (6 AP): 2 damage.
#[test]
fn damage_weapon_rolls_damage_against_the_weapons_armour() {
    let f = duel(
        "damage-weapon",
        Fighter::ann(),
        Fighter::bob(),
        &[BOB_NO_PARRY, ("manoeuvre", "Ann", "damage_weapon")],
        "30 3 11 8",
    );
    f.has("1D8 damage to the weapon for Ann → 8")
        .has("Long Sword takes 2 damage");
}

/// Disarm Opponent: "The opponent must roll an opposed test of his Combat Skill vs. the
/// original attack roll ... If the recipient of the disarm fails, he loses his weapon."
/// Bob's 60 fails against Ann's 30: he drops his long sword.
#[test]
fn disarm_takes_the_weapon_of_a_loser_of_the_opposed_test() {
    let f = duel(
        "disarm",
        Fighter::ann(),
        Fighter::bob(),
        &[BOB_NO_PARRY, ("manoeuvre", "Ann", "disarm_opponent")],
        "30 3 11 60",
    );
    assert_eq!(f.tests()[1], t("Bob", "style", 50, 60, "failure"));
    f.has("Bob drops the Long Sword");
}

/// "Two handed or entangling weapon wielders may add a bonus of +20% to their skill for
/// this check." Bob with a greatsword resists at 50 + 20 = 70: his 60 succeeds and beats
/// Ann's 30 (a success with a higher roll).
#[test]
fn disarm_is_resisted_at_plus_twenty_with_a_two_handed_weapon() {
    let bob = Fighter::bob().weapons(r#"["greatsword"]"#);
    let f = duel(
        "disarm-two-handed",
        Fighter::ann(),
        bob,
        &[BOB_NO_PARRY, ("manoeuvre", "Ann", "disarm_opponent")],
        "30 3 11 60",
    );
    assert_eq!(f.tests()[1], t("Bob", "style", 70, 60, "success"));
    f.has("Bob resists").lacks("drops");
}

/// "Disarming works only on creatures of up to twice the attacker's STR": Bob at STR 25
/// (Ann 12) is not offered to her as a disarm; at 24 he is.
#[test]
fn disarm_works_only_on_creatures_up_to_twice_the_strength() {
    let options = |str_| {
        let bob = Fighter::bob().characteristic("STR", str_);
        let f = duel("disarm-str", Fighter::ann(), bob, &[BOB_NO_PARRY], "30");
        f.choices("manoeuvre")[0].2.clone()
    };
    assert!(!options(25).contains(&"disarm_opponent".to_string()));
    assert!(options(24).contains(&"disarm_opponent".to_string()));
}

/// Grip (Unarmed): "requires that the limb used is not holding anything ... Breaking
/// free requires the spending of a CA and winning an Opposed Test of the Unarmed skill."
/// Ann, fighting unarmed (the `unarmed` weapon, her only one), hits (30) and grips Bob;
/// on his turn Bob breaks free: his Unarmed 30 succeeds, her 50 fails (combat.toml's
/// `break_free`, the test kind `unarmed_struggle`).
#[test]
fn grip_holds_until_an_opposed_unarmed_test_breaks_it() {
    let ann = Fighter::ann().weapons(r#"["unarmed"]"#);
    let f = duel(
        "grip",
        ann,
        Fighter::bob(),
        &[
            BOB_NO_PARRY,
            ("manoeuvre", "Ann", "grip"),
            ("unarmed_success", "Ann", "damage"),
            ("action", "Bob", "break_free"),
        ],
        "30 2 11 30 50",
    );
    assert!(f.has_condition("Bob", "gripped"));
    assert!(
        f.action_options("Bob", 0)
            .contains(&"break_free".to_string())
    );
    assert_eq!(
        f.tests()[1..3],
        [
            t("Bob", "unarmed_struggle", 40, 30, "success"),
            t("Ann", "unarmed_struggle", 40, 50, "failure")
        ]
    );
    f.has("Bob: gripped ends");
}

/// Grip needs an empty limb: Ann with a long sword and shield is not offered it, nor
/// any armed attacker (Grip is an unarmed manoeuvre).
#[test]
fn grip_is_not_offered_to_an_armed_attacker() {
    let f = duel(
        "grip-armed",
        Fighter::ann(),
        Fighter::bob(),
        &[BOB_NO_PARRY],
        "30",
    );
    assert!(!f.choices("manoeuvre")[0].2.contains(&"grip".to_string()));
}

/// Impale: "Impaling weapons may roll damage twice with the attacker choosing which
/// damage result to use ... Leaving the weapon in the wound inflicts a skill penalty;
/// –10% per size category of the weapon (... –20% for medium weapons)". Ann's long sword
/// rolls 2 and 5, keeps 5 (chest, 2 left) and is left in the wound: Bob then attacks at
/// 50 − 20 = 30.
#[test]
fn impale_rolls_damage_twice_and_a_weapon_left_in_the_wound_hampers() {
    let f = duel(
        "impale-leave",
        Fighter::ann(),
        Fighter::bob(),
        &[
            BOB_NO_PARRY,
            ("manoeuvre", "Ann", "impale"),
            ("impaled_weapon", "Ann", "leave"),
        ],
        "30 2 5 11 40",
    );
    let rolls: Vec<i64> = f
        .of_kind("roll")
        .iter()
        .filter(|e| e["dice"] == "1D8")
        .map(|e| e["total"].as_i64().unwrap())
        .collect();
    assert_eq!(rolls, [2, 5]);
    assert_eq!(f.damage(), [d("Bob", "chest", 5, 2)]);
    f.has("Long Sword stays in Bob's chest");
    assert_eq!(f.tests()[1], t("Bob", "style", 30, 40, "failure"));
}

/// Impale, yanking free: "Successfully withdrawing an impaled weapon during melee costs
/// a Combat Action and requires a successful Brawn roll. This causes further injury to
/// the same location equal to the normal damage roll for that weapon but without any
/// Damage Modifier. Armour does not reduce withdrawal damage." Ann (+1D4) keeps the 5 of
/// 2 and 5, +1 = 6 less Bob's 2 AP: 4 (chest, 3 left); Brawn 30 succeeds; 1D8 = 4 more,
/// no modifier, no armour: −1, a Serious Wound.
#[test]
fn impale_yanked_free_costs_an_action_and_does_the_weapons_damage_again() {
    let ann = Fighter::ann().statistic("damage_modifier", "\"+1D4\"");
    let bob = Fighter::bob().line("armour", r#"{ all = "soft_leather" }"#);
    let f = duel(
        "impale-yank",
        ann,
        bob,
        &[
            BOB_NO_PARRY,
            ("manoeuvre", "Ann", "impale"),
            ("impaled_weapon", "Ann", "yank"),
        ],
        "30 2 5 1 11 30 4",
    );
    f.has("Ann spends an action on yanking the weapon free (1 left)");
    assert_eq!(f.tests()[1], t("Ann", "brawn", 40, 30, "success"));
    assert_eq!(
        f.damage(),
        [d("Bob", "chest", 4, 3), d("Bob", "chest", 4, -1)]
    );
    assert_eq!(
        f.wounds(),
        [("Bob".into(), "chest".into(), "serious".into())]
    );
    assert_eq!(
        f.of_kind("roll")
            .iter()
            .filter(|e| e["dice"] == "1D4")
            .count(),
        1
    );
}

/// Impale, a failed yank: the Combat Action is spent and the Brawn roll fails, so the
/// weapon stays in the wound as if left there ("requires a successful Brawn roll"): no
/// withdrawal damage, Bob impaled, the long sword stuck in him, and his next attack at
/// 50 − 20 = 30.
#[test]
fn impale_yank_that_fails_its_brawn_roll_leaves_the_weapon_in_the_wound() {
    let f = duel(
        "impale-yank-fails",
        Fighter::ann(),
        Fighter::bob(),
        &[
            BOB_NO_PARRY,
            ("manoeuvre", "Ann", "impale"),
            ("impaled_weapon", "Ann", "yank"),
        ],
        "30 2 5 11 80 40",
    );
    f.has("Ann spends an action on yanking the weapon free (1 left)")
        .has("Bob: impaled")
        .has("Long Sword stays in Bob's chest");
    assert_eq!(f.tests()[1], t("Ann", "brawn", 40, 80, "failure"));
    assert_eq!(f.damage(), [d("Bob", "chest", 5, 2)]);
    assert_eq!(f.tests()[2], t("Bob", "style", 30, 40, "failure"));
}

/// Impale with no Combat Action left to yank with: the weapon stays, asked of no one
/// (the only option is taken without a decision). Ann has 0 + 1 (her shield) Combat
/// Actions, all spent on the attack.
#[test]
fn impale_without_an_action_to_spare_leaves_the_weapon_unasked() {
    let ann = Fighter::ann().statistic("combat_actions", "0");
    let f = duel(
        "impale-no-action",
        ann,
        Fighter::bob(),
        &[BOB_NO_PARRY, ("manoeuvre", "Ann", "impale")],
        "30 2 5 11 40",
    );
    assert!(f.choices("impaled_weapon").is_empty());
    f.has("Long Sword stays in Bob's chest");
}

/// Ready Weapon: "draw, sheath or reload a weapon". Bob starts with a heater shield in
/// hand and his greatsword carried (it needs both hands: `[hands]`); readying it stows
/// the shield, and costs no more than the one Combat Action, being carried, not dropped.
#[test]
fn ready_weapon_draws_a_two_handed_weapon_and_stows_the_shield() {
    let bob = Fighter::bob().weapons(r#"["heater", "greatsword"]"#);
    let f = duel(
        "ready-two-handed",
        Fighter::ann(),
        bob,
        &[
            ("action", "Ann", "defend"),
            ("action", "Bob", "ready_weapon"),
        ],
        "",
    );
    assert_eq!(
        f.choices("weapon_to_ready"),
        [("Bob".into(), "greatsword".into(), vec!["greatsword".into()])]
    );
    f.has("Bob stows the Heater Shield")
        .has("Bob readies the Greatsword")
        .lacks("picking up");
}

/// Maximise Damage (Critical Success Only): "a greatsword with 2D8 damage would inflict
/// 1D8+8". Ann's critical (04) buys Maximise Damage and Choose Location (left leg): one
/// die is 8, the other rolls 3: 11.
#[test]
fn maximise_damage_makes_one_die_its_maximum() {
    let ann = Fighter::ann().weapons(r#"["greatsword"]"#);
    let bob = Fighter::bob().line(
        "hit_points",
        "{ right_leg = 15, left_leg = 15, abdomen = 16, chest = 17, right_arm = 14, left_arm = 14, head = 15 }",
    );
    let f = duel(
        "maximise",
        ann,
        bob,
        &[
            BOB_NO_PARRY,
            ("manoeuvre", "Ann", "maximise_damage"),
            ("manoeuvre", "Ann", "choose_location"),
            ("location", "Ann", "left_leg"),
        ],
        "4 3",
    );
    assert_eq!(f.damage(), [d("Bob", "left_leg", 11, 4)]);
}

/// "Some manoeuvres can be stacked. For instance, a successful attacker with two levels
/// of success could choose Maximise Damage twice": 2D8 twice maximised is 16, no die
/// rolled. A 1D8 long sword has one die: Maximise Damage is not offered a second time.
#[test]
fn maximise_damage_stacks_up_to_the_weapons_dice() {
    let ann = Fighter::ann().weapons(r#"["greatsword"]"#);
    let bob = Fighter::bob().line(
        "hit_points",
        "{ right_leg = 15, left_leg = 15, abdomen = 16, chest = 17, right_arm = 14, left_arm = 14, head = 15 }",
    );
    let f = duel(
        "maximise-twice",
        ann,
        bob,
        &[
            BOB_NO_PARRY,
            ("manoeuvre", "Ann", "maximise_damage"),
            ("manoeuvre", "Ann", "maximise_damage"),
        ],
        "4 11",
    );
    assert_eq!(f.damage(), [d("Bob", "chest", 16, 1)]);
    let sword = duel(
        "maximise-once",
        Fighter::ann(),
        Fighter::bob(),
        &[BOB_NO_PARRY, ("manoeuvre", "Ann", "maximise_damage")],
        "4",
    );
    assert!(
        !sword.choices("manoeuvre")[1]
            .2
            .contains(&"maximise_damage".to_string())
    );
}

/// Bob with more hit points, for blows that must not end the fight.
fn tough_bob() -> Fighter {
    Fighter::bob().line(
        "hit_points",
        "{ right_leg = 15, left_leg = 15, abdomen = 16, chest = 17, right_arm = 14, left_arm = 14, head = 15 }",
    )
}

/// Stun Location (Bludgeon Weapons, Attacker Only): "The defender must roll an opposed
/// test of his Resilience vs. the original attack roll. If the defender fails, then ...
/// a torso blow causes the foe to stagger winded (may only defend) ... The duration of
/// incapacitation is equal, in Combat Actions, to the damage that penetrated the armour."
/// Ann's mace does 1D8 = 4 to the chest; Bob's Resilience 60 fails: winded for 4
/// actions, and on his turn he is not offered an attack.
#[test]
fn stun_location_on_the_torso_leaves_the_foe_only_able_to_defend() {
    let ann = Fighter::ann().weapons(r#"["mace", "heater"]"#);
    let f = duel(
        "stun",
        ann,
        Fighter::bob(),
        &[BOB_NO_PARRY, ("manoeuvre", "Ann", "stun_location")],
        "30 4 11 60",
    );
    assert_eq!(f.damage(), [d("Bob", "chest", 4, 3)]);
    assert_eq!(f.tests()[1], t("Bob", "resilience", 40, 60, "failure"));
    assert!(
        f.conditions()
            .contains(&("Bob".into(), "winded".into(), "4 actions".into()))
    );
    assert!(!f.action_options("Bob", 0).contains(&"attack".to_string()));
}

/// Stun Location is for bludgeons: Ann's long sword is not offered it.
#[test]
fn stun_location_needs_a_bludgeon() {
    let f = duel(
        "stun-sword",
        Fighter::ann(),
        Fighter::bob(),
        &[BOB_NO_PARRY],
        "30",
    );
    assert!(
        !f.choices("manoeuvre")[0]
            .2
            .contains(&"stun_location".to_string())
    );
}

/// Trip Opponent: "The opponent must roll an Opposed Test of Evade vs. the original
/// attack roll ... If the opponent fails, he falls prone." Bob's Evade of 20 succeeds but
/// is lower than Ann's 30: he falls.
#[test]
fn trip_fells_a_foe_who_does_not_beat_the_attack_roll() {
    let f = duel(
        "trip",
        Fighter::ann(),
        Fighter::bob(),
        &[BOB_NO_PARRY, ("manoeuvre", "Ann", "trip_opponent")],
        "30 3 11 20",
    );
    assert_eq!(f.tests()[1], t("Bob", "evade", 40, 20, "success"));
    assert!(f.has_condition("Bob", "prone"));
}

/// Trip Opponent as a defensive manoeuvre, as in the goblin fight: "The goblin chooses
/// 'Trip Opponent'. Alaric ... must roll against his Evade skill against the goblin's
/// original parry of 19 to avoid losing balance. With a 46 Alaric succeeds and easily
/// wins the Opposed Test, thankfully remaining upright." Ann (Evade 50) misses with 94.
#[test]
fn a_defensive_trip_is_resisted_against_the_parry_roll() {
    let ann = Fighter::ann().skill("evade", 50);
    let f = duel(
        "trip-defensive",
        ann,
        Fighter::bob(),
        &[
            ("parry_after_miss", "Bob", "complete"),
            ("manoeuvre", "Bob", "trip_opponent"),
        ],
        "94 19 46",
    );
    assert_eq!(
        f.tests(),
        [
            t("Ann", "style", 60, 94, "failure"),
            t("Bob", "style", 50, 19, "success"),
            t("Ann", "evade", 50, 46, "success")
        ]
    );
    assert!(!f.has_condition("Ann", "prone"));
}

/// Sunder (Two-handed Weapons, Attacker Only): "Any surplus damage in excess of the AP
/// is then used to reduce the AP value of that armour location. If any damage remains
/// after the armour has been reduced to zero AP, it carries over onto the Hit Points."
/// Ann's greatsword rolls 5 + 4 = 9 on Bob's chest (2 AP): the armour goes to 0 and the
/// remaining 9 − 2 − 2 = 5 reaches the chest.
#[test]
fn sunder_destroys_armour_and_carries_the_rest_over() {
    let ann = Fighter::ann().weapons(r#"["greatsword"]"#);
    let bob = Fighter::bob().line("armour", r#"{ all = "soft_leather" }"#);
    let f = duel(
        "sunder",
        ann,
        bob,
        &[BOB_NO_PARRY, ("manoeuvre", "Ann", "sunder")],
        "30 5 4 11",
    );
    let armour: Vec<(String, i64)> = f
        .of_kind("armour")
        .iter()
        .map(|e| (s(&e["location"]), e["armour"].as_i64().unwrap()))
        .collect();
    assert_eq!(armour, [("chest".to_string(), 0)]);
    assert_eq!(f.damage(), [d("Bob", "chest", 5, 2)]);
}

/// Sunder needs a two-handed weapon: not offered with a long sword.
#[test]
fn sunder_needs_a_two_handed_weapon() {
    let f = duel(
        "sunder-sword",
        Fighter::ann(),
        Fighter::bob(),
        &[BOB_NO_PARRY],
        "30",
    );
    assert!(!f.choices("manoeuvre")[0].2.contains(&"sunder".to_string()));
}

// ================================================================ defensive manoeuvres

/// Enhance Parry: "The size of the parrying weapon is treated as one step larger for the
/// sake of blocking damage." Bob's target shield (Large) would halve Ann's great axe
/// (Huge); his critical parry (03) against her success (30) buys Enhance Parry: all of
/// the 2D6+2 = 9 is deflected.
#[test]
fn enhance_parry_makes_the_parrying_weapon_a_size_larger() {
    let ann = Fighter::ann().weapons(r#"["great_axe"]"#);
    let bob = Fighter::bob().weapons(r#"["longsword", "target"]"#);
    let f = duel(
        "enhance",
        ann,
        bob,
        &[("manoeuvre", "Bob", "enhance_parry")],
        "30 3 3 4",
    );
    assert_eq!(f.deflected(), [("Bob".to_string(), 9)]);
    assert!(f.damage().is_empty());
}

/// Redirect Blow: "The Defender redirects the attack so that it strikes him in a
/// different location ... The Defender cannot avoid the damage; he merely chooses where
/// it will land." Bob's dagger (Small) halves Ann's long sword (Medium); his critical
/// (03) buys Redirect Blow: half of 1D8 = 7, 3, lands on the left leg he chooses, with no
/// location rolled.
#[test]
fn redirect_blow_lets_the_defender_choose_where_the_blow_lands() {
    let bob = Fighter::bob().weapons(r#"["dagger"]"#);
    let f = duel(
        "redirect",
        Fighter::ann(),
        bob,
        &[
            ("manoeuvre", "Bob", "redirect_blow"),
            ("redirect_location", "Bob", "left_leg"),
        ],
        "30 3 7",
    );
    assert_eq!(f.deflected(), [("Bob".to_string(), 4)]);
    assert!(f.rows().is_empty());
    assert_eq!(f.damage(), [d("Bob", "left_leg", 3, 2)]);
}

/// Regain Footing: "A prone or similarly disadvantaged Defender uses the momentum of the
/// attack to roll back up to their feet". Tripped by Ann (his Evade 20 against her 30),
/// Bob holds his action; Ann's next blow is at 60 + 20 against the prone target and
/// misses (85); Bob's held parry, at 50 − 20 while prone, succeeds (25): he regains his
/// footing.
#[test]
fn regain_footing_stands_a_prone_defender_up() {
    let f = duel(
        "regain-footing",
        Fighter::ann(),
        Fighter::bob(),
        &[
            BOB_NO_PARRY,
            ("manoeuvre", "Ann", "trip_opponent"),
            ("action", "Bob", "defend"),
            ("reaction", "Bob", "parry"),
            ("parry_after_miss", "Bob", "complete"),
            ("manoeuvre", "Bob", "regain_footing"),
        ],
        "30 3 11 20 85 25",
    );
    assert!(f.has_condition("Bob", "prone"));
    assert_eq!(
        f.tests()[2..],
        [
            t("Ann", "style", 80, 85, "failure"),
            t("Bob", "style", 30, 25, "success")
        ]
    );
    f.has("Bob: prone ends");
}

/// Riposte: "The Defender uses a CA to make an immediate counter attack with one of his
/// defending weapons or shield." Ann misses (80), Bob parries (40) and ripostes: an
/// action spent and his attack (30) rolled at once, before his own turn.
#[test]
fn riposte_spends_an_action_on_an_immediate_counter_attack() {
    let f = duel(
        "riposte",
        Fighter::ann(),
        Fighter::bob(),
        &[
            ("parry_after_miss", "Bob", "complete"),
            ("manoeuvre", "Bob", "riposte"),
            ANN_NO_PARRY,
        ],
        "80 40 30",
    );
    f.has("Bob spends an action on riposte (1 left)");
    assert_eq!(f.tests()[2], t("Bob", "style", 50, 30, "success"));
    f.lacks("Bob acts");
}

/// Slip Free: "An Entangled, Gripped or Pinned character may break the hold on himself
/// or his weapon." Ann (unarmed) grips Bob; he holds his action; Ann's next blow misses
/// (80), his parry (40) buys Slip Free: the grip ends.
#[test]
fn slip_free_ends_a_grip() {
    let ann = Fighter::ann().weapons(r#"["unarmed"]"#);
    let f = duel(
        "slip-free",
        ann,
        Fighter::bob(),
        &[
            BOB_NO_PARRY,
            ("manoeuvre", "Ann", "grip"),
            ("unarmed_success", "Ann", "damage"),
            ("action", "Bob", "defend"),
            ("action", "Ann", "attack"),
            ("reaction", "Bob", "parry"),
            ("parry_after_miss", "Bob", "complete"),
            ("manoeuvre", "Bob", "slip_free"),
        ],
        "30 2 11 80 40",
    );
    assert!(f.has_condition("Bob", "gripped"));
    f.has("Bob: gripped ends");
}

/// Pin Weapon (Critical Success Only): "Prevents the opponent from using the pinned
/// weapon or shield, until he spends a CA to wrestle or manoeuvre the weapon free."
/// Ann misses (80); Bob's critical parry (03) buys Pin Weapon and Stand Fast. On her next
/// turn Ann is offered to free the weapon, not to attack.
#[test]
fn pin_weapon_stops_attacks_until_the_weapon_is_freed() {
    let f = duel("pin", Fighter::ann(), Fighter::bob(), &PIN, "80 3");
    assert!(f.has_condition("Ann", "pinned_weapon"));
    let options = f.action_options("Ann", 1);
    assert!(options.contains(&"free_weapon".to_string()), "{options:?}");
    assert!(!options.contains(&"attack".to_string()), "{options:?}");
}

/// Freeing a pinned weapon "requires an Opposed Test of combat skills, the winner of
/// which can free their weapon": both roll now. Ann is pinned as above; on her turn she
/// frees the weapon (her style 60, or Brawn 40 if it were better) with 55 against Bob's
/// combat skill (50) of 45: both succeed, and the higher roll wins. She may attack again.
#[test]
fn a_pinned_weapon_is_freed_by_winning_the_opposed_test() {
    let f = pinned_then_free("55 45");
    assert_eq!(
        f.tests()[2..],
        [
            t("Ann", "style", 60, 55, "success"),
            t("Bob", "style", 50, 45, "success")
        ]
    );
    f.has("Ann wins the contest against Bob")
        .has("Ann: pinned weapon ends");
}

/// The same struggle lost: Ann's 70 fails against Bob's success of 45. The weapon stays
/// pinned.
#[test]
fn a_pinned_weapon_stays_pinned_when_the_opposed_test_is_lost() {
    let f = pinned_then_free("70 45");
    f.has("Ann loses the contest against Bob")
        .lacks("pinned weapon ends");
}

/// Both fail (Ann 90 against 60, Bob 80 against 50): the same level, but not a successful
/// one, so the higher roll does not win it (README.md, "Opposed tests"): the pin holds.
#[test]
fn a_struggle_both_fail_leaves_the_weapon_pinned() {
    let f = pinned_then_free("90 80");
    f.has("Ann loses the contest against Bob")
        .lacks("pinned weapon ends");
}

/// Bob's choices when Ann misses (80) and his critical parry (03) pins her weapon.
const PIN: [(&str, &str, &str); 4] = [
    ("parry_after_miss", "Bob", "complete"),
    ("manoeuvre", "Bob", "pin_weapon"),
    ("manoeuvre", "Bob", "stand_fast"),
    ("action", "Bob", "defend"),
];

/// Ann pinned by Bob's critical parry (as in the test above), then Ann's turn: Free
/// Weapon, with `dice` for the struggle.
fn pinned_then_free(dice: &str) -> Fight {
    let mut choices = PIN.to_vec();
    choices.push(("action", "Ann", "free_weapon"));
    duel(
        "free-pinned",
        Fighter::ann(),
        Fighter::bob(),
        &choices,
        &format!("80 3 {dice}"),
    )
}

// ================================================================ knockback

/// Knockback: "Any attack which causes more damage than the SIZ of the recipient
/// automatically results in a knockback. The recipient must immediately make an
/// Athletics test to avoid falling prone ... shoved one metre for each five points of
/// damage (or fraction thereof) exceeding the target's SIZ." Ann's greatsword rolls
/// 8 + 8 = 16 against SIZ 12: 1 m; Bob's Athletics (60) fails: prone.
#[test]
fn a_blow_above_the_siz_knocks_back_and_tests_athletics() {
    let ann = Fighter::ann().weapons(r#"["greatsword"]"#);
    let f = duel(
        "knockback",
        ann,
        tough_bob(),
        &[BOB_NO_PARRY, CHOOSE_LOCATION, CHEST],
        "30 8 8 60",
    );
    assert_eq!(f.damage(), [d("Bob", "chest", 16, 1)]);
    f.has("Bob is knocked back 1 m");
    assert_eq!(f.tests()[1], t("Bob", "athletics", 40, 60, "failure"));
    assert!(f.has_condition("Bob", "prone"));
}

/// Knockback counts the damage rolled, "before armour and parries": a blow Bob's heater
/// (Large) takes whole still knocks him back. Ann's long spear (Large) hits (30), Bob's
/// parry succeeds (40): 1D10+1 = 10 + 1 = 11, all deflected, against his SIZ 10: 1 m;
/// his Athletics (40) fails with 60: prone.
#[test]
fn a_blow_a_parry_takes_whole_still_knocks_back() {
    let ann = Fighter::ann().weapons(r#"["long_spear"]"#);
    let bob = Fighter::bob().characteristic("SIZ", 10);
    let f = duel("knockback-parried", ann, bob, &[], "30 40 10 60");
    assert_eq!(f.deflected(), [("Bob".to_string(), 11)]);
    assert!(f.damage().is_empty());
    f.has("Bob is knocked back 1 m");
    assert_eq!(f.tests()[2], t("Bob", "athletics", 40, 60, "failure"));
    assert!(f.has_condition("Bob", "prone"));
}

/// "... causes more damage than the SIZ": 6 + 6 = 12 against SIZ 12 is no knockback.
#[test]
fn a_blow_equal_to_the_siz_does_not_knock_back() {
    let ann = Fighter::ann().weapons(r#"["greatsword"]"#);
    let f = duel(
        "no-knockback",
        ann,
        tough_bob(),
        &[BOB_NO_PARRY, CHOOSE_LOCATION, CHEST],
        "30 6 6",
    );
    assert_eq!(f.damage(), [d("Bob", "chest", 12, 5)]);
    f.lacks("knocked back");
    assert_eq!(f.tests().len(), 1);
}

/// Stand Fast: "Skilful or braced footwork allows the defender to avoid the Knockback
/// effects of any damage received." The same 16 rolled, half through Bob's target shield
/// (his critical parry, 03, buys Stand Fast): 8 to the chest and no knockback.
#[test]
fn stand_fast_avoids_knockback() {
    let ann = Fighter::ann().weapons(r#"["greatsword"]"#);
    let bob = tough_bob().weapons(r#"["longsword", "target"]"#);
    let f = duel(
        "stand-fast",
        ann,
        bob,
        &[("manoeuvre", "Bob", "stand_fast")],
        "30 3 8 8 11",
    );
    assert_eq!(f.damage(), [d("Bob", "chest", 8, 9)]);
    f.lacks("knocked back");
}

// ================================================================ weapon reach

/// Weapon Reach (optional rule): "the wielder with the shorter reach cannot directly
/// attack the opponent with the longer reach ... Closing on an opponent requires a
/// Combat Action ... If the opponent decides to counter the closing action, then the
/// closer and the opponent make an Opposed Test using their Evade skills." Bob's dagger
/// (Short) against Ann's long spear (Very Long): no attack, only closing; Ann counters;
/// Bob's Evade 30 beats her 50 (a failure): he closes.
#[test]
fn a_shorter_weapon_must_close_before_it_can_attack() {
    let ann = Fighter::ann().weapons(r#"["long_spear"]"#);
    let bob = Fighter::bob().weapons(r#"["dagger"]"#);
    let f = fight(
        "closing",
        &scenario(
            r#"options = ["weapon_reach"]"#,
            &[ann, bob],
            &[
                ("action", "Ann", "defend"),
                ("action", "Bob", "close"),
                ("counter_closing", "Ann", "counter"),
            ],
        ),
        "5 5 30 50",
    );
    let options = f.action_options("Bob", 0);
    assert!(options.contains(&"close".to_string()), "{options:?}");
    assert!(!options.contains(&"attack".to_string()), "{options:?}");
    assert_eq!(
        f.tests(),
        [
            t("Bob", "evade", 40, 30, "success"),
            t("Ann", "evade", 40, 50, "failure")
        ]
    );
    f.has("Bob closes inside the reach of Ann");
}

/// Change Range: "Allows the Adventurer to freely change the engagement range"; and once
/// closed upon, "The opponent now cannot parry with his weapon until he reopens the
/// distance." Ann's long spear misses (80), Bob's dagger parries (30): Change Range
/// closes him in without an action; his attack then finds Ann unable to parry with the
/// spear (only Evade).
#[test]
fn change_range_closes_in_and_the_longer_weapon_cannot_parry() {
    let ann = Fighter::ann().weapons(r#"["long_spear"]"#);
    let bob = Fighter::bob().weapons(r#"["dagger"]"#);
    let f = fight(
        "change-range",
        &scenario(
            r#"options = ["weapon_reach"]"#,
            &[ann, bob],
            &[
                ("parry_after_miss", "Bob", "complete"),
                ("manoeuvre", "Bob", "change_range"),
                ("action", "Bob", "attack"),
            ],
        ),
        "5 5 80 30",
    );
    f.has("Bob closes inside the reach of Ann");
    let reactions = f.choices("reaction");
    let ann_reaction = reactions.iter().find(|(who, _, _)| who == "Ann").unwrap();
    assert_eq!(ann_reaction.2, ["evade", "none"]);
}

// ================================================================ situations

/// Close Combat Situational Modifiers: "Attacking or defending while on unstable ground
/// –20%", "Fighting in darkness –40%"; "These modifiers are applied to attacking,
/// parrying and evading equally." Ann on unstable ground attacks at 60 − 20 = 40; Bob in
/// darkness parries at 50 − 40 = 10.
#[test]
fn situational_modifiers_apply_to_attack_and_parry() {
    let ann = Fighter::ann().line("modifiers", r#"["unstable_ground"]"#);
    let bob = Fighter::bob().line("modifiers", r#"["darkness"]"#);
    let f = duel("situations", ann, bob, &[], "30 20");
    assert_eq!(
        f.tests(),
        [
            t("Ann", "style", 40, 30, "success"),
            t("Bob", "style", 10, 20, "failure")
        ]
    );
}

/// Close Combat Situational Modifiers: "Target is helpless: Automatic Critical Hit".
/// Bob is helpless (a scenario modifier) and does not parry: Ann's 50, a plain success
/// against her 60, is a critical, and wins two manoeuvres over the unopposed failure.
#[test]
fn an_attack_on_a_helpless_target_is_a_critical() {
    let bob = Fighter::bob().line("modifiers", r#"["target_helpless"]"#);
    let f = duel("helpless", Fighter::ann(), bob, &[BOB_NO_PARRY], "50");
    assert_eq!(f.tests()[0], t("Ann", "style", 60, 50, "critical"));
    assert_eq!(f.manoeuvres().len(), 2, "{}", f.log);
}

/// "Defending while on lower ground or against mounted foe –20%": Bob on lower ground
/// parries at 30; his own attack is not affected.
#[test]
fn defending_from_lower_ground_is_at_minus_twenty() {
    let bob = Fighter::bob().line("modifiers", r#"["lower_ground_or_mounted_foe"]"#);
    let f = duel("lower-ground", Fighter::ann(), bob, &[], "30 40 6");
    assert_eq!(f.tests()[1], t("Bob", "style", 30, 40, "failure"));
}

/// Surprise: "The surprised party suffers an immediate –10 to his Initiative for this
/// round of combat", "is only able to use CA to defend against attacks (not make them)",
/// and "Target surprised +20%". Bob (1D10 = 5 + 5) starts at 0; Ann attacks him at 80;
/// on his turn he is not offered an attack.
#[test]
fn a_surprised_combatant_acts_late_and_only_defends() {
    let bob = Fighter::bob().line("modifiers", r#"["target_surprised"]"#);
    let f = duel("surprise", Fighter::ann(), bob, &[], "30 40 6");
    f.has("initiative Bob: 0");
    assert_eq!(f.tests()[0], t("Ann", "style", 80, 30, "success"));
    assert!(!f.action_options("Bob", 0).contains(&"attack".to_string()));
}

/// Cover: "any attack that hits a covered location will instead hit the object." Bob's
/// legs are behind a wall; Ann's blow lands on the right leg (1D20 = 2): no damage.
#[test]
fn a_blow_on_a_covered_location_hits_the_cover() {
    let bob = Fighter::bob().statistic("cover", "\"right_leg, left_leg\"");
    let f = duel(
        "cover",
        Fighter::ann(),
        bob,
        &[BOB_NO_PARRY, ("manoeuvre", "Ann", "bypass_parry")],
        "30 6 2",
    );
    f.has("the blow lands on the cover before the right_leg");
    assert!(f.damage().is_empty());
}

/// Cover: "a target behind a lengthy hedgerow is completely obscured and the attack will
/// automatically fail": covered everywhere, Bob cannot be hit; no attack is rolled.
#[test]
fn a_completely_covered_target_cannot_be_hit() {
    let bob = Fighter::bob().statistic(
        "cover",
        "\"right_leg, left_leg, abdomen, chest, right_arm, left_arm, head\"",
    );
    let f = duel("total-cover", Fighter::ann(), bob, &[BOB_NO_PARRY], "30");
    f.has("Bob is completely obscured by cover: the attack fails");
    assert!(f.tests().iter().all(|(who, ..)| who != "Ann"), "{}", f.log);
}

// ================================================================ evading

/// A sling shot at arm's length (distance 0) that Bob can only evade.
fn evade_duel(case: &str, choices: &[(&str, &str, &str)], dice: &str) -> Fight {
    let ann = Fighter::ann().weapons(r#"["sling"]"#);
    let bob = Fighter::bob().weapons(r#"["longsword"]"#);
    let mut all = vec![("action", "Ann", "attack"), ("reaction", "Bob", "evade")];
    all.extend_from_slice(choices);
    fight(
        case,
        &scenario("distance = 0", &[ann, bob], &all),
        &format!("5 5 {dice}"),
    )
}

/// Evading: "If the Defender wins damage is completely avoided. Whatever the result, the
/// evasive gambit ... preventing him from performing an attack with the CA available on
/// their next Strike Rank." Bob's Evade 35 beats Ann's 30 (both successes, his the
/// higher): no damage; on his turn he is not offered an attack.
#[test]
fn a_won_evasion_avoids_the_damage_and_costs_the_next_attack() {
    let f = evade_duel("evade-won", &[], "30 35");
    assert_eq!(f.tests()[1], t("Bob", "evade", 40, 35, "success"));
    f.lacks("damage for Ann");
    assert!(f.has_condition("Bob", "evaded"));
    assert!(!f.action_options("Bob", 0).contains(&"attack".to_string()));
}

/// Evading: "If the Attacker wins then inflict damage as normal." Bob's Evade fails
/// (60): Ann's sling does 1D8 = 5 to the chest she chose.
#[test]
fn a_lost_evasion_takes_the_damage() {
    let f = evade_duel("evade-lost", &[CHOOSE_LOCATION, CHEST], "30 60 5");
    assert_eq!(f.damage(), [d("Bob", "chest", 5, 2)]);
}

/// Evading: "Evasion attempts are always treated as Opposed Tests", and in an opposed
/// test where both succeed the higher roll wins. Ann's sling shot (50 against 60) and
/// Bob's Evade (30 against 40) both succeed: no manoeuvre, but her higher roll wins and
/// the 1D8 = 5 lands where 1D20 = 11 says, the chest.
#[test]
fn an_evasion_that_both_succeed_at_goes_to_the_higher_roll() {
    let f = evade_duel("evade-higher", &[], "50 30 5 11");
    assert_eq!(f.tests()[1], t("Bob", "evade", 40, 30, "success"));
    assert!(f.manoeuvres().is_empty());
    assert_eq!(f.damage(), [d("Bob", "chest", 5, 2)]);
}

/// Unsuccessful Roll and Fumbles: the Close Combat Fumble Table covers "fumbles made in
/// close combat, including parries and evading". Bob's Evade fumbles (00): he rolls
/// there (1D20 = 8, Lose Balance), not on the Natural Weapon table.
#[test]
fn a_fumbled_evasion_rolls_on_the_close_combat_fumble_table() {
    let f = evade_duel("evade-fumble", &[], "30 100 8 2");
    assert_eq!(f.tests()[1], t("Bob", "evade", 40, 100, "fumble"));
    assert_eq!(
        f.rows()[0],
        ("close_combat_fumble".into(), 8, "lose_balance".into())
    );
}

/// Ranged Attacks: "Ranged attacks can usually only be parried by shields: Defenders
/// lacking a shield have the option to dive for cover using Evade": Bob with a long sword
/// is offered Evade, not Parry, against a sling.
#[test]
fn only_a_shield_parries_a_missile() {
    let f = evade_duel("evade-only", &[], "30 35");
    assert_eq!(f.choices("reaction")[0].2, ["evade", "none"]);
}

// ================================================================ leaps, mounts, crowds

/// Leaping Attacks: "an Opposed Test of the creature's Athletics skill against the
/// Defender's Evade skill ... If the leaper wins the test then the Defender is knocked
/// prone and cannot recover his feet for the next 1D3 Combat Actions." Ann's Athletics
/// 30 succeeds, Bob's Evade 50 fails: prone, held down for 1D3 = 2.
#[test]
fn a_won_leap_knocks_the_defender_prone() {
    let ann = Fighter::ann().line("options", r#"["leaper"]"#);
    let f = duel(
        "leap",
        ann,
        Fighter::bob(),
        &[("action", "Ann", "leap"), ("reaction", "Bob", "evade")],
        "30 50 2",
    );
    assert_eq!(
        f.tests(),
        [
            t("Ann", "athletics", 40, 30, "success"),
            t("Bob", "evade", 40, 50, "failure")
        ]
    );
    assert!(f.has_condition("Bob", "prone"));
    assert!(
        f.conditions()
            .contains(&("Bob".into(), "held_down".into(), "2 actions".into()))
    );
}

/// "A leaping attack only affects targets less than twice the SIZ of the Attacker": Bob
/// at SIZ 24 (Ann 12) is not a target; the leap is not offered.
#[test]
fn a_leap_needs_a_target_under_twice_the_size() {
    let ann = Fighter::ann().line("options", r#"["leaper"]"#);
    let bob = Fighter::bob().characteristic("SIZ", 24);
    let f = duel("leap-siz", ann, bob, &[], "30 40 6");
    assert!(!f.action_options("Ann", 0).contains(&"leap".to_string()));
}

/// Mounted Combat: "the combat skills of a warrior cannot exceed the value of the Ride
/// skill"; "A mounted warrior rolls a 1D10+10 for Hit Location if using a small or medium
/// weapon"; "Defending ... against mounted foe –20%". Ann (Ride 40) attacks at 40, Bob
/// parries at 30 and fails (35); her long sword (Medium) lands on 1D10 = 1 + 10 = 11,
/// the chest.
#[test]
fn a_rider_is_capped_by_ride_and_strikes_high() {
    let ann = Fighter::ann()
        .line("options", r#"["mounted"]"#)
        .skill("ride", 40);
    let f = duel(
        "mounted",
        ann,
        Fighter::bob(),
        &[("manoeuvre", "Ann", "bypass_parry")],
        "30 35 4 1",
    );
    assert_eq!(
        f.tests(),
        [
            t("Ann", "style", 40, 30, "success"),
            t("Bob", "style", 30, 35, "failure")
        ]
    );
    assert_eq!(
        f.rows(),
        [("mounted_hit_location".into(), 11, "chest".into())]
    );
    assert_eq!(f.damage(), [d("Bob", "chest", 4, 3)]);
}

/// Multiple Opponents: "a Defender may expend a Combat Acton to outmanoeuvre his foes
/// ... Those who fail to beat the Defender cannot attack that round ... the number of
/// opponents cannot be reduced to less than one." Ann's Evade 30 beats both Bobs (50, a
/// failure; 20, lower): Bob 2, the better, still reaches her; Bob 1 is not offered an
/// attack.
#[test]
fn outmanoeuvring_blocks_all_foes_but_one() {
    let bobs = Fighter::bob().line("count", "2");
    let f = fight(
        "outmanoeuvre",
        &scenario(
            "",
            &[Fighter::ann(), bobs],
            &[("action", "Ann", "outmanoeuvre")],
        ),
        "5 5 5 30 50 20",
    );
    f.has("Bob 1 is blocked for the round")
        .has("Bob 2 still reaches Ann");
    assert!(!f.action_options("Bob 1", 0).contains(&"attack".to_string()));
    assert!(f.action_options("Bob 2", 0).contains(&"attack".to_string()));
}

/// Pulled Blows: "the Adventurer can deliberately halve the damage inflicted for a
/// successful hit": 1D8 = 7 becomes 3 on the chest.
#[test]
fn a_pulled_blow_does_half_damage() {
    let ann = Fighter::ann().line("options", r#"["pulls_blows"]"#);
    let f = duel(
        "pulled",
        ann,
        Fighter::bob(),
        &[BOB_NO_PARRY, CHOOSE_LOCATION, CHEST],
        "30 7",
    );
    f.has("half damage: 3");
    assert_eq!(f.damage(), [d("Bob", "chest", 3, 4)]);
}

/// Unarmed Combat: "Users who succeed in an opposed unarmed attack may either: inflict
/// damage, establish a grapple, or break free ... Grappling a limb prevents that limb
/// being used to attack". Ann (unarmed) hits, chooses the right arm and grapples it: on
/// his turn Bob may break free but not attack.
#[test]
fn a_grappled_weapon_arm_cannot_attack() {
    let ann = Fighter::ann().weapons(r#"["unarmed"]"#);
    let f = duel(
        "grapple",
        ann,
        Fighter::bob(),
        &[
            BOB_NO_PARRY,
            CHOOSE_LOCATION,
            ("unarmed_success", "Ann", "grapple"),
            ("location", "Ann", "right_arm"),
        ],
        "30",
    );
    f.has("Ann grapples Bob's right_arm");
    let options = f.action_options("Bob", 0);
    assert!(options.contains(&"break_free".to_string()), "{options:?}");
    assert!(!options.contains(&"attack".to_string()), "{options:?}");
}

/// Bare-handed Ann (Brawn 40) and Bob (Unarmed 40, Brawn 50), two Combat Actions each,
/// taken in turn. Ann hits (30), chooses the chest and grapples it.
fn bare_handed_grapple(case: &str, choices: &[(&str, &str, &str)], dice: &str) -> Fight {
    let ann = Fighter::ann().weapons("[]");
    let bob = Fighter::bob().weapons("[]").skill("brawn", 50);
    let mut all = vec![
        BOB_NO_PARRY,
        CHOOSE_LOCATION,
        ("unarmed_success", "Ann", "grapple"),
        CHEST,
    ];
    all.extend_from_slice(choices);
    duel(case, ann, bob, &all, dice)
}

/// Unarmed Combat: "Combatants with a poor unarmed combat skill may instead substitute
/// their Brawn skill to maintain or break free of grapples"; "Grappling the head or
/// torso inflicts a -20% penalty to all activity attempted by the victim". With his
/// chest held, Bob tries to break free in combat.toml (`break_free`, test
/// `grapple_struggle`: each side's better of Unarmed and Brawn): his 50 - 20 = 30 rolls
/// 90, her 40 rolls 10, he stays held. Ann crushes the chest ("the grappler may make
/// unarmed attacks to inflict damage on the location held ... The Defender may oppose
/// with his Unarmed or Brawn skill"): her Unarmed 40 rolls 20, his Brawn 30 rolls 60,
/// 1D3 = 2 on the chest. Then his 20 beats her 60 and he is free.
#[test]
fn a_grapple_is_broken_with_the_better_of_unarmed_and_brawn() {
    let f = bare_handed_grapple("grapple-break", &[], "30 90 10 20 60 2 20 60");
    f.has("Ann grapples Bob's chest");
    assert_eq!(
        f.tests(),
        [
            t("Ann", "unarmed", 40, 30, "success"),
            t("Bob", "grapple_struggle", 30, 90, "failure"),
            t("Ann", "grapple_struggle", 40, 10, "success"),
            t("Ann", "unarmed", 40, 20, "success"),
            t("Bob", "brawn", 30, 60, "failure"),
            t("Bob", "grapple_struggle", 30, 20, "success"),
            t("Ann", "grapple_struggle", 40, 60, "failure"),
        ]
    );
    let actions: Vec<String> = f.choices("action").into_iter().map(|c| c.1).collect();
    assert_eq!(
        actions[..4],
        ["attack", "break_free", "crush", "break_free"]
    );
    assert_eq!(f.damage(), [d("Bob", "chest", 2, 5)]);
    f.has("Bob: grappled ends");
}

/// "Grappling a limb prevents that limb being used to attack, defend or move": with his
/// right arm held (and grappled, he cannot evade), Bob, holding his action to parry, is
/// offered no reaction to Ann's next blow.
#[test]
fn a_held_weapon_arm_neither_parries_nor_evades() {
    let ann = Fighter::ann().weapons("[]");
    let bob = Fighter::bob().weapons("[]");
    let f = duel(
        "grapple-arm",
        ann,
        bob,
        &[
            BOB_NO_PARRY,
            CHOOSE_LOCATION,
            ("unarmed_success", "Ann", "grapple"),
            ("location", "Ann", "right_arm"),
            ("action", "Bob", "defend"),
            ("action", "Ann", "attack"),
        ],
        "30 70",
    );
    f.has("Ann grapples Bob's right_arm");
    assert!(!f.action_options("Bob", 0).contains(&"attack".to_string()));
    let reactions = f.choices("reaction");
    assert_eq!(reactions[0].2, ["parry", "none"]);
    assert!(
        reactions.len() == 1 || reactions[1].2 == ["none"],
        "{reactions:?}"
    );
    assert_eq!(f.tests()[1], t("Ann", "unarmed", 40, 70, "failure"));
}

/// "Users who succeed in an opposed unarmed attack may either: inflict damage, establish
/// a grapple, or break free": held by the chest, Bob hits Ann (his Unarmed 40 - 20 rolls
/// 20) and breaks free instead of hurting her.
#[test]
fn an_unarmed_blow_of_the_one_held_may_break_free() {
    let f = bare_handed_grapple(
        "grapple-blow-free",
        &[
            ("action", "Bob", "attack"),
            ("reaction", "Ann", "none"),
            ("unarmed_success", "Bob", "break_free"),
        ],
        "30 20",
    );
    assert_eq!(f.tests()[1], t("Bob", "unarmed", 20, 20, "success"));
    assert_eq!(
        f.choices("unarmed_success")[1],
        (
            "Bob".to_string(),
            "break_free".to_string(),
            vec!["damage".to_string(), "break_free".to_string()]
        )
    );
    f.has("Bob: grappled ends");
    assert!(f.damage().is_empty());
}

/// Unusual Combat Conditions: "Whilst swimming an Adventurer's Combat Skill cannot exceed
/// the value of his Swimming skill. Only thrusting weapons capable of impaling can be
/// used ... and those will only inflict half damage." Ann (Swimming 30) thrusts with her
/// long sword at 30; its 1D8 = 7 does 3.
#[test]
fn a_swimmer_is_capped_by_swimming_and_does_half_damage() {
    let ann = Fighter::ann()
        .line("modifiers", r#"["swimming"]"#)
        .skill("swimming", 30);
    let f = duel(
        "swimming",
        ann,
        Fighter::bob(),
        &[BOB_NO_PARRY, CHOOSE_LOCATION, CHEST],
        "20 7",
    );
    assert_eq!(f.tests()[0], t("Ann", "style", 30, 20, "success"));
    assert_eq!(f.damage(), [d("Bob", "chest", 3, 4)]);
}

/// "All other weapons are impotent": with a scimitar (cutting only) the swimmer is not
/// offered an attack.
#[test]
fn a_swimmer_cannot_attack_with_a_cutting_weapon() {
    let ann = Fighter::ann()
        .weapons(r#"["scimitar"]"#)
        .line("modifiers", r#"["swimming"]"#)
        .skill("swimming", 30);
    let f = duel("swimming-cut", ann, Fighter::bob(), &[], "30 40 6");
    assert!(!f.action_options("Ann", 0).contains(&"attack".to_string()));
}

// ================================================================ ranged attacks

/// Ann with a sling at `distance`, Bob with a long sword who does not evade and holds
/// his actions.
fn shot(
    case: &str,
    distance: i64,
    ann: Fighter,
    choices: &[(&str, &str, &str)],
    dice: &str,
) -> Fight {
    let bob = Fighter::bob().weapons(r#"["longsword"]"#);
    let mut all = choices.to_vec();
    all.push(("action", "Bob", "defend"));
    fight(
        case,
        &scenario(
            &format!("distance = {distance}"),
            &[ann.weapons(r#"["sling"]"#), bob],
            &all,
        ),
        &format!("5 5 {dice}"),
    )
}

/// Range: "A target within double the weapon's Range may be attacked but the Attacker's
/// effective Weapon skill is halved". The sling's range is 50 m; at 80 m Ann shoots at
/// 60 / 2 = 30. Loading: after the shot the sling must be loaded again (one Combat
/// Action): on her next turn she is offered to reload, not to shoot.
#[test]
fn a_shot_within_double_range_is_at_half_skill_and_the_sling_must_be_reloaded() {
    let f = shot(
        "range",
        80,
        Fighter::ann(),
        &[
            ("action", "Ann", "attack"),
            BOB_NO_PARRY,
            ("manoeuvre", "Ann", "bypass_parry"),
        ],
        "25 1 11",
    );
    assert_eq!(f.tests()[0], t("Ann", "style", 30, 25, "success"));
    let next = f.action_options("Ann", 1);
    assert!(next.contains(&"reload".to_string()), "{next:?}");
    assert!(!next.contains(&"attack".to_string()), "{next:?}");
}

/// "Attacks against targets beyond the weapon's Range automatically fail": at 101 m,
/// more than double the sling's 50, no shot is offered.
#[test]
fn a_target_beyond_double_range_cannot_be_shot() {
    let f = shot("out-of-range", 101, Fighter::ann(), &[], "");
    assert!(!f.action_options("Ann", 0).contains(&"attack".to_string()));
}

/// Aiming: "Alaric has 3 CA and has Sling 46%. By aiming for two CA he would gain two
/// additional +5% bonuses, taking his chance to hit to 56%."
#[test]
fn aiming_adds_the_critical_range_per_action() {
    let ann = Fighter::ann()
        .skill("style", 46)
        .statistic("combat_actions", "3");
    let f = shot(
        "aim",
        40,
        ann,
        &[
            ("action", "Ann", "aim"),
            ("action", "Bob", "defend"),
            ("action", "Ann", "aim"),
            ("action", "Bob", "defend"),
            ("action", "Ann", "attack"),
            BOB_NO_PARRY,
        ],
        "50 1 11",
    );
    assert_eq!(f.tests()[0], t("Ann", "style", 56, 50, "success"));
}

// ================================================================ moving

/// "Each Combat Action may include all, some or none of the Adventurer's remaining
/// Movement in addition to an attack": Ann (8 m a round) attacks Bob 6 m away, moving
/// the 6 m first, before Bob declares his defence; at 20 m he is out of reach of an
/// attack (she may move or charge instead).
#[test]
fn an_attack_closes_in_with_the_remaining_movement() {
    let f = fight(
        "close-in",
        &scenario(
            "distance = 6",
            &[
                Fighter::ann().weapons(r#"["longsword"]"#),
                Fighter::bob().weapons(r#"["longsword"]"#),
            ],
            &[("action", "Ann", "attack"), BOB_NO_PARRY],
        ),
        "5 5 30",
    );
    f.has("Ann moves 6 m towards Bob");
    let moved = f.log.find("Ann moves 6 m towards Bob").unwrap();
    let declared = f.log.find("Bob chooses reaction").unwrap();
    assert!(moved < declared, "{}", f.log);
    assert_eq!(f.tests()[0], t("Ann", "style", 60, 30, "success"));

    let far = fight(
        "out-of-reach",
        &scenario(
            "distance = 20",
            &[
                Fighter::ann().weapons(r#"["longsword"]"#),
                Fighter::bob().weapons(r#"["longsword"]"#),
            ],
            &[],
        ),
        "5 5",
    );
    let options = far.action_options("Ann", 0);
    assert!(!options.contains(&"attack".to_string()), "{options:?}");
    assert!(options.contains(&"move".to_string()), "{options:?}");
    assert!(options.contains(&"charge".to_string()), "{options:?}");
}

// ================================================================ charging

/// Charging: "During a charge a bipedal creature improves its Damage Modifier by one
/// step" ("from +1D2 to +1D4", the goblin fight). Ann (+1D2) charges Bob 20 m away: her
/// first action moves 16 m, her last 4 m and strikes: 1D8 = 5 and the stepped-up 1D4 = 3,
/// 8 on the chest.
#[test]
fn a_charge_improves_the_damage_modifier_one_step() {
    let ann = Fighter::ann()
        .weapons(r#"["longsword"]"#)
        .statistic("damage_modifier", "\"+1D2\"");
    let bob = tough_bob().weapons(r#"["longsword"]"#);
    let f = fight(
        "charge",
        &scenario(
            "distance = 20",
            &[ann, bob],
            &[
                ("action", "Ann", "charge"),
                ("action", "Bob", "defend"),
                ("reaction", "Bob", "none"),
                CHOOSE_LOCATION,
                CHEST,
            ],
        ),
        "5 5 30 5 3",
    );
    f.has("Ann charges Bob").has("Ann moves 16 m towards Bob");
    let modifier: Vec<String> = f
        .of_kind("roll")
        .iter()
        .filter(|e| e["purpose"] == "damage modifier")
        .map(|e| s(&e["dice"]))
        .collect();
    assert_eq!(modifier, ["1D4"]);
    assert_eq!(f.damage(), [d("Bob", "chest", 8, 9)]);
}

// ================================================================ wounds

/// Serious Wound: "the victim cannot attack (but can still parry or evade) for the next
/// 1D3 Combat Actions ... An Adventurer suffering a Serious Wound to a limb must
/// immediately make an Opposed Test of his Resilience versus the successful attack roll
/// of his enemy. Failure results in the limb being rendered useless ... If an arm, he
/// drops whatever he is holding". 1D8 = 6 on Bob's right arm (4 HP): −2; 1D3 = 2; his
/// Resilience 60 fails against Ann's 30: the arm is useless and the sword falls.
#[test]
fn a_serious_wound_to_an_arm_stuns_and_can_cost_the_arm() {
    let f = duel(
        "serious-arm",
        Fighter::ann(),
        Fighter::bob(),
        &[
            BOB_NO_PARRY,
            CHOOSE_LOCATION,
            ("location", "Ann", "right_arm"),
        ],
        "30 6 2 60",
    );
    assert_eq!(f.damage(), [d("Bob", "right_arm", 6, -2)]);
    assert_eq!(
        f.wounds(),
        [("Bob".into(), "right_arm".into(), "serious".into())]
    );
    assert!(
        f.conditions()
            .contains(&("Bob".into(), "cannot_attack".into(), "2 actions".into()))
    );
    assert_eq!(f.tests()[1], t("Bob", "resilience", 40, 60, "failure"));
    assert!(f.has_condition("Bob", "useless_limb"));
    f.has("Bob drops the Long Sword");
}

/// "An Adventurer suffering a Serious Wound to the Abdomen, Chest or Head must
/// immediately make an Opposed Test of his Resilience ... Failure results in
/// unconsciousness". 1D8 = 8 on the chest (7 HP): −1; Resilience 60 fails.
#[test]
fn a_serious_wound_to_the_chest_can_knock_out() {
    let f = duel(
        "serious-chest",
        Fighter::ann(),
        Fighter::bob(),
        &[BOB_NO_PARRY, CHOOSE_LOCATION, CHEST],
        "30 8 1 60",
    );
    assert_eq!(
        f.wounds(),
        [("Bob".into(), "chest".into(), "serious".into())]
    );
    assert!(f.has_condition("Bob", "unconscious"));
    f.has("Bob is out of the fight");
}

/// "... Resilience versus the successful attack roll of his enemy": a Resilience of 35
/// that succeeds and beats Ann's 30 keeps Bob conscious.
#[test]
fn a_resilience_roll_that_beats_the_attack_roll_holds() {
    let f = duel(
        "serious-resisted",
        Fighter::ann(),
        Fighter::bob(),
        &[BOB_NO_PARRY, CHOOSE_LOCATION, CHEST],
        "30 8 1 35",
    );
    assert_eq!(f.tests()[1], t("Bob", "resilience", 40, 35, "success"));
    assert!(!f.has_condition("Bob", "unconscious"));
}

/// Major Wound: "If a location is reduced to a negative score equal or greater than it's
/// starting Hit Points ... A limb is considered to be severed ... The Adventurer drops
/// prone, physically incapacitated and must immediately make an Opposed Test of
/// Resilience ... Failure results in unconsciousness". Ann's greatsword: 6 + 4 = 10 on
/// the right leg (5 HP): −5; Resilience 60 fails.
#[test]
fn a_major_wound_to_a_leg_incapacitates() {
    let ann = Fighter::ann().weapons(r#"["greatsword"]"#);
    let f = duel(
        "major-leg",
        ann,
        Fighter::bob(),
        &[
            BOB_NO_PARRY,
            CHOOSE_LOCATION,
            ("location", "Ann", "right_leg"),
        ],
        "30 6 4 60",
    );
    assert_eq!(f.damage(), [d("Bob", "right_leg", 10, -5)]);
    assert_eq!(
        f.wounds(),
        [("Bob".into(), "right_leg".into(), "major".into())]
    );
    for condition in ["prone", "incapacitated", "unconscious"] {
        assert!(f.has_condition("Bob", condition), "{condition}");
    }
}

/// "The victim of a Major Wound to the Abdomen, Chest or Head drops unconscious ... and
/// must immediately make an Opposed Test of Resilience ... Failure results in an instant
/// and gratuitous death". 6 + 4 = 10 on the head (5 HP): −5; Resilience 60 fails.
#[test]
fn a_major_wound_to_the_head_can_kill() {
    let ann = Fighter::ann().weapons(r#"["greatsword"]"#);
    let f = duel(
        "major-head",
        ann,
        Fighter::bob(),
        &[BOB_NO_PARRY, CHOOSE_LOCATION, ("location", "Ann", "head")],
        "30 6 4 60",
    );
    assert_eq!(f.wounds(), [("Bob".into(), "head".into(), "major".into())]);
    assert!(f.has_condition("Bob", "unconscious"));
    assert!(f.has_condition("Bob", "dead"));
}

// ================================================================ NPC options

/// General Hit Points, the broo of the text: "The broo has 12 General Hits Points and
/// wears 3 points of armour. On the first blow Alaric hits and inflicts 7 points of
/// damage (after armour ...), which exceeds the broo's Critical Wound level of 6. The
/// Games Master rolls 1D20 and scores 13. This is reduced to 10, taking into account the
/// broo's armour." Bob (CON 12, SIZ 12: (12 + 12) / 2 = 12, rating 6, 3 AP everywhere)
/// takes Ann's greatsword 6 + 4 = 10 − 3 = 7: the table is read at 13 − 3 = 10
/// (knocked back and Stunned: 1D3 = 1 action lost).
#[test]
fn general_hit_points_and_the_critical_wound_table_as_the_broo() {
    let ann = Fighter::ann().weapons(r#"["greatsword"]"#);
    let bob = Fighter::bob()
        .line("options", r#"["general_hit_points"]"#)
        .line("armour", "{ all = 3 }");
    let f = duel(
        "broo",
        ann,
        bob,
        &[BOB_NO_PARRY, CHOOSE_LOCATION, CHEST],
        "30 6 4 13 1",
    );
    f.has("Bob has 12 General Hit Points")
        .has("Bob loses 7 Hit Points: 5 left");
    assert_eq!(
        f.wounds(),
        [("Bob".into(), "chest".into(), "critical".into())]
    );
    assert_eq!(
        f.rows(),
        [(
            "npc_critical_wound".into(),
            10,
            "stunned_knocked_back".into()
        )]
    );
    f.has("Bob loses 1 action");
}

/// "When Hit Points reach zero, the NPC must make a Resilience test to remain
/// conscious." Bob has 12 General Hit Points (CON 12, SIZ 12) and a Critical Wound
/// rating of 6; two blows of 1D8 = 6, each within the rating (no table rolled), bring
/// him to zero; his Resilience 60 fails: unconscious.
#[test]
fn general_hit_points_at_zero_test_resilience() {
    let bob = Fighter::bob().line("options", r#"["general_hit_points"]"#);
    let f = duel(
        "ghp-zero",
        Fighter::ann(),
        bob,
        &[
            BOB_NO_PARRY,
            CHOOSE_LOCATION,
            CHEST,
            ("action", "Bob", "defend"),
            BOB_NO_PARRY,
            CHOOSE_LOCATION,
            CHEST,
        ],
        "30 6 30 6 60",
    );
    f.has("Bob loses 6 Hit Points: 6 left")
        .has("Bob loses 6 Hit Points: 0 left");
    assert!(f.rows().is_empty());
    assert_eq!(f.tests()[2], t("Bob", "resilience", 40, 60, "failure"));
    assert!(f.has_condition("Bob", "unconscious"));
}

/// Underlings: "Underlings have a number of Hit Points equal to their CON divided by 2.
/// Damage is sustained as normal, with armour protecting but when Hit Points reach zero,
/// the Underling is dead." CON 12: 6 Hit Points; 1D8 = 8 less 2 AP: 6, dead.
#[test]
fn an_underling_dies_at_zero_hit_points() {
    let bob = Fighter::bob()
        .line("options", r#"["underling"]"#)
        .line("armour", r#"{ all = "soft_leather" }"#);
    let f = duel(
        "underling",
        Fighter::ann(),
        bob,
        &[BOB_NO_PARRY, CHOOSE_LOCATION, CHEST],
        "30 8",
    );
    f.has("Bob is an underling with 6 Hit Points")
        .has("Bob loses 6 Hit Points: 0 left");
    assert_eq!(f.wounds(), [("Bob".into(), String::new(), "dead".into())]);
    assert!(f.has_condition("Bob", "dead"));
}

/// "A Critical hit inflicted by an Adventurer always incapacitates an Underling,
/// rendering it unconscious. No Resilience roll is necessary." Ann's 04 hits for 1D8 = 1:
/// 5 Hit Points left, but unconscious, with no Resilience test.
#[test]
fn a_critical_hit_incapacitates_an_underling() {
    let bob = Fighter::bob().line("options", r#"["underling"]"#);
    let f = duel(
        "underling-critical",
        Fighter::ann(),
        bob,
        &[
            BOB_NO_PARRY,
            CHOOSE_LOCATION,
            ("manoeuvre", "Ann", "bypass_parry"),
            CHEST,
        ],
        "4 1",
    );
    f.has("Bob loses 1 Hit Points: 5 left");
    assert_eq!(
        f.wounds(),
        [("Bob".into(), String::new(), "incapacitated".into())]
    );
    assert!(f.has_condition("Bob", "unconscious"));
    assert_eq!(f.tests().len(), 1);
}

// ================================================================ optional rules

/// Combat Manoeuvres – Optional Rule: "Each time that a specific tactic is repeated
/// during a fight, the opponent gains an additional 10% bonus to his next roll in the
/// combat against the repetitive combatant". Ann buys Bypass Parry twice against Bob (1D8
/// = 1 each time, to the legs); Bob's next roll against her, his attack, is at 60.
#[test]
fn a_repeated_manoeuvre_gives_the_opponent_ten_percent() {
    let f = fight(
        "repeated",
        &scenario(
            r#"options = ["repeated_manoeuvres"]"#,
            &[Fighter::ann(), tough_bob()],
            &[
                BOB_NO_PARRY,
                ("manoeuvre", "Ann", "bypass_parry"),
                ("action", "Bob", "defend"),
                BOB_NO_PARRY,
                ("manoeuvre", "Ann", "bypass_parry"),
                ("action", "Bob", "attack"),
                ANN_NO_PARRY,
            ],
        ),
        "5 5 30 1 2 30 1 5 30",
    );
    f.has("Bob reads the repeated bypass_parry: +10% against Ann");
    assert_eq!(f.tests()[2], t("Bob", "style", 60, 30, "success"));
}
