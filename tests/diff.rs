//! `affray diff`: a house-ruled copy of Legend against the original, row by row.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{affray, copy_dir, edit, root, scratch, text};
use serde_json::Value;

/// A scratch folder holding `legend` (the original) and `my-legend` (a copy to edit).
fn two_copies(case: &str) -> (PathBuf, PathBuf) {
    let dir = scratch(case);
    let legend = root().join("rulesets/legend");
    copy_dir(&legend, &dir.join("legend"));
    copy_dir(&legend, &dir.join("my-legend"));
    let copy = dir.join("my-legend");
    (dir, copy)
}

/// `affray diff legend my-legend --json` in `dir`: the differences.
fn differences(dir: &Path) -> Vec<Value> {
    let output = affray(dir, &["diff", "legend", "my-legend", "--json"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let report: Value = serde_json::from_slice(&output.stdout).expect("diff --json is JSON");
    report["differences"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

fn diff_text(dir: &Path) -> String {
    let output = affray(dir, &["diff", "legend", "my-legend"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    text(&output.stdout)
}

const DROP_WEAPON: &str =
    "  04–06  drop_weapon     \"Drop Weapon\"\n         \"Weapon falls 1D4 metres away.\"";

#[test]
fn one_edited_fumble_row_is_the_only_difference() {
    let (dir, copy) = two_copies("diff-row");
    edit(
        &copy.join("tables/fumbles.tables"),
        DROP_WEAPON,
        "  04–06  drop_weapon     \"Drop Weapon\"\n         \"Weapon falls 1D6 metres away.\"",
    );
    let found = differences(&dir);
    assert_eq!(found.len(), 1, "{found:#?}");
    let row = &found[0];
    assert_eq!(row["file"], "tables/fumbles.tables");
    assert_eq!(row["change"], "changed");
    assert_eq!(row["item"]["kind"], "table_row");
    assert_eq!(row["item"]["table"], "close_combat_fumble");
    assert_eq!(row["item"]["row"], "drop_weapon");
    assert_eq!(row["title"], "close_combat_fumble row 4-6 drop_weapon");
    assert_eq!(row["before"]["line"], 8);
    assert_eq!(
        row["before"]["text"],
        "04–06  drop_weapon     \"Drop Weapon\"\n       \"Weapon falls 1D4 metres away.\"\n       => script fumbles::weapon_falls(1d4)"
    );
    assert_eq!(
        row["after"]["text"],
        "04–06  drop_weapon     \"Drop Weapon\"\n       \"Weapon falls 1D6 metres away.\"\n       => script fumbles::weapon_falls(1d4)"
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn spacing_and_comments_are_not_differences() {
    let (dir, copy) = two_copies("diff-spacing");
    edit(
        &copy.join("tables/fumbles.tables"),
        DROP_WEAPON,
        "  # House note: nothing changes here.\n  04-06 drop_weapon \"Drop Weapon\"   # a comment\n    \"Weapon falls 1D4\n     metres away.\"",
    );
    edit(
        &copy.join("scripts/fumbles.rhai"),
        "    let fight = ctx.fight;\n    let held = fight.weapons(ctx.who);",
        "    // The fight, then what is held.\n    let fight=ctx.fight;\n\n        let held = fight.weapons( ctx.who );",
    );
    edit(
        &copy.join("equipment.toml"),
        "damage = \"1D8\"                  # text: Lilina's",
        "damage =   \"1D8\"  # house: still 1D8; text: Lilina's",
    );
    edit(
        &copy.join("ruleset.toml"),
        "weapon_sizes = [",
        "# A comment of mine.\nweapon_sizes = [ ",
    );
    let found = differences(&dir);
    assert!(found.is_empty(), "{found:#?}");
    assert_eq!(diff_text(&dir), "no differences\n");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn an_edited_script_function_is_reported_with_its_text() {
    let (dir, copy) = two_copies("diff-script");
    edit(
        &copy.join("scripts/fumbles.rhai"),
        "fight.log(\"it lands \" + distance + \" m away\");",
        "fight.log(\"it lands \" + distance + \" metres away\");",
    );
    let found = differences(&dir);
    assert_eq!(found.len(), 1, "{found:#?}");
    let function = &found[0];
    assert_eq!(function["file"], "scripts/fumbles.rhai");
    assert_eq!(function["item"]["kind"], "script_function");
    assert_eq!(function["item"]["module"], "fumbles");
    assert_eq!(function["item"]["function"], "weapon_falls");
    assert_eq!(function["item"]["arity"], 2);
    assert_eq!(function["after"]["line"], 6);
    let before = function["before"]["text"].as_str().unwrap();
    let after = function["after"]["text"].as_str().unwrap();
    assert!(
        before.starts_with("fn weapon_falls(ctx, metres) {"),
        "{before}"
    );
    assert!(before.contains("\" m away\""), "{before}");
    assert!(after.contains("\" metres away\""), "{after}");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn an_edited_weapon_field_is_reported() {
    let (dir, copy) = two_copies("diff-weapon");
    edit(
        &copy.join("equipment.toml"),
        "damage = \"1D8\"                  # text: Lilina's",
        "damage = \"1D10\"                 # house rule; text: Lilina's",
    );
    let found = differences(&dir);
    assert_eq!(found.len(), 1, "{found:#?}");
    let field = &found[0];
    assert_eq!(field["file"], "equipment.toml");
    assert_eq!(
        field["item"],
        serde_json::json!({"kind": "equipment_field", "section": "weapons", "id": "longsword", "field": "damage"})
    );
    let before = field["before"]["text"].as_str().unwrap();
    let after = field["after"]["text"].as_str().unwrap();
    assert!(before.starts_with("damage = \"1D8\""), "{before}");
    assert!(after.starts_with("damage = \"1D10\""), "{after}");
    assert_eq!(field["before"]["line"], field["after"]["line"]);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn an_added_and_a_removed_row_are_reported() {
    let (dir, copy) = two_copies("diff-rows");
    // Row 20 becomes a new row of another name: `doomed` is removed, `cursed` added.
    edit(
        &copy.join("tables/fumbles.tables"),
        "  20     doomed          \"Doomed\"\n         \"Roll three times, ignoring any rolls of 19 or 20.\"",
        "  20     cursed          \"Cursed\"\n         \"Roll three times, ignoring any rolls of 19 or 20.\"",
    );
    let found = differences(&dir);
    let summary: Vec<(String, String, String)> = found
        .iter()
        .map(|d| {
            (
                d["change"].as_str().unwrap().to_string(),
                d["item"]["table"].as_str().unwrap().to_string(),
                d["item"]["row"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        vec![
            (
                "added".into(),
                "close_combat_fumble".into(),
                "cursed".into()
            ),
            (
                "removed".into(),
                "close_combat_fumble".into(),
                "doomed".into()
            ),
        ]
    );
    assert!(found[0]["before"].is_null() && found[1]["after"].is_null());
    assert_eq!(found[1]["before"]["line"], 33);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_table_moved_to_another_file_is_moved_not_removed_and_added() {
    let (dir, copy) = two_copies("diff-moved");
    let fumbles = copy.join("tables/fumbles.tables");
    let text = fs::read_to_string(&fumbles).unwrap();
    let start = text.find("table close_combat_fumble").unwrap();
    let end = start + text[start..].find("\n}\n").unwrap() + 3;
    fs::write(copy.join("tables/house.tables"), &text[start..end]).unwrap();
    fs::write(&fumbles, format!("{}{}", &text[..start], &text[end..])).unwrap();
    let found = differences(&dir);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0]["change"], "moved");
    assert_eq!(found[0]["file"], "tables/house.tables");
    assert_eq!(found[0]["before"]["file"], "tables/fumbles.tables");
    assert_eq!(found[0]["after"]["line"], 1);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_house_ruled_copy_reads_row_by_row() {
    let (dir, copy) = two_copies("diff-text");
    edit(
        &copy.join("tables/fumbles.tables"),
        DROP_WEAPON,
        "  04–06  drop_weapon     \"Drop Weapon\"\n         \"Weapon falls 1D6 metres away.\"",
    );
    edit(
        &copy.join("scripts/fumbles.rhai"),
        "fight.log(\"it lands \" + distance + \" m away\");",
        "fight.log(\"it lands \" + distance + \" metres away\");",
    );
    edit(
        &copy.join("equipment.toml"),
        "damage = \"1D8\"                  # text: Lilina's",
        "damage = \"1D10\"                 # house rule; text: Lilina's",
    );
    edit(
        &copy.join("ruleset.toml"),
        "title = \"Legend\"",
        "title = \"Legend (house rules)\"",
    );
    let output = diff_text(&dir);
    assert!(output.ends_with(
        "4 differences: 1 equipment field, 1 setting, 1 script function, 1 table row\n"
    ));
    insta::with_settings!({ snapshot_path => "../snapshots/diff", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!("house_ruled_legend", output);
    });
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_broken_copy_is_reported_as_check_would() {
    let (dir, copy) = two_copies("diff-broken");
    edit(
        &copy.join("tables/fumbles.tables"),
        "  04–06  drop_weapon",
        "  05–06  drop_weapon",
    );
    let output = affray(&dir, &["diff", "legend", "my-legend"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty(), "{}", text(&output.stdout));
    let stderr = text(&output.stderr);
    assert!(stderr.contains("affray::table::range_gap"), "{stderr}");
    assert!(
        stderr.contains("my-legend/tables/fumbles.tables"),
        "{stderr}"
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn diff_help_has_an_example() {
    let output = affray(root(), &["diff", "--help"]);
    assert_eq!(output.status.code(), Some(0));
    assert!(text(&output.stdout).contains("affray diff rulesets/legend my-legend"));
}

/// The shipped rulesets and the fixture, as the library loads them.
fn shipped() -> Vec<affray::ruleset::Ruleset> {
    let mut dirs: Vec<PathBuf> = common::SHIPPED
        .iter()
        .map(|name| root().join("rulesets").join(name))
        .collect();
    dirs.push(root().join("tests/fixtures/d20_skirmish"));
    dirs.push(root().join("tests/fixtures/d100_duel"));
    dirs.iter()
        .map(|dir| affray::ruleset::load(dir).expect("a shipped ruleset loads"))
        .collect()
}

#[test]
fn every_shipped_ruleset_is_the_same_as_itself() {
    for ruleset in shipped() {
        let found = affray::analysis::diff::ruleset_differences(&ruleset, &ruleset);
        assert!(found.is_empty(), "{}: {found:#?}", ruleset.dir);
    }
}

#[test]
fn functions_found_in_the_text_are_those_rhai_compiled() {
    // `affray diff` finds functions in the script's text; rhai's AST keeps no spans.
    for ruleset in shipped() {
        for script in &ruleset.scripts {
            let mut found: Vec<(String, usize)> =
                affray::script::layout::functions_in(script.file.text())
                    .into_iter()
                    .map(|f| (f.name, f.arity))
                    .collect();
            found.sort();
            // Closures (`|x| ...`) are compiled as functions named `anon$...`; their
            // text is part of the function that holds them.
            let named: Vec<(String, usize)> = script
                .functions
                .iter()
                .filter(|(name, _)| !name.starts_with("anon$"))
                .cloned()
                .collect();
            assert_eq!(found, named, "{}", script.file.name());
        }
    }
}

#[test]
fn two_different_systems_compare_the_same_way_twice() {
    let all = shipped();
    let first = affray::analysis::diff::ruleset_differences(&all[0], &all[1]);
    let second = affray::analysis::diff::ruleset_differences(&all[0], &all[1]);
    assert!(!first.is_empty());
    assert_eq!(first, second);
}

#[test]
fn an_edited_tactics_list_is_reported_whole() {
    let (dir, copy) = two_copies("diff-tactics");
    edit(
        &copy.join("tactics.toml"),
        "[[location]]\nchoose = \"head\"",
        "[[location]]\nchoose = \"chest\"",
    );
    let found = differences(&dir);
    assert_eq!(found.len(), 1, "{found:#?}");
    let list = &found[0];
    assert_eq!(list["file"], "tactics.toml");
    assert_eq!(list["item"]["kind"], "tactics_list");
    assert_eq!(list["item"]["decision"], "location");
    assert_eq!(list["title"], "tactics for location");
    assert_eq!(list["before"]["text"], "[[location]]\nchoose = \"head\"");
    assert_eq!(list["after"]["text"], "[[location]]\nchoose = \"chest\"");
    assert!(diff_text(&dir).ends_with("1 difference: 1 tactics list\n"));
}

#[test]
fn an_edited_rule_of_combat_toml_is_reported_by_its_key() {
    let (dir, copy) = two_copies("diff-combat");
    edit(
        &copy.join("combat.toml"),
        "tie_break = \"self.DEX\"",
        "tie_break = \"self.DEX + self.SIZ\"",
    );
    let found = differences(&dir);
    assert_eq!(found.len(), 1, "{found:#?}");
    let rule = &found[0];
    assert_eq!(rule["file"], "combat.toml");
    assert_eq!(rule["item"]["kind"], "combat_rule");
    assert_eq!(rule["item"]["key"], "turn.tie_break");
    assert_eq!(rule["before"]["text"], "tie_break = \"self.DEX\"");
    assert_eq!(rule["after"]["text"], "tie_break = \"self.DEX + self.SIZ\"");
    assert!(diff_text(&dir).ends_with("1 difference: 1 combat rule\n"));
}
