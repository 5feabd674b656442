//! What two loaded rulesets differ in, by row rather than by file: a house-ruled copy
//! against its original.
//!
//! Things are matched by what names them (a table by its name, a row by its key in its
//! table, a script function by module, name and arity, an equipment entry by its id, a
//! setting by its key) and compared by meaning: the typed model for tables, equipment
//! and settings, the text without comments and spacing for scripts. Where a thing was
//! written is used only to show it again.

mod scripts;
mod tables;
mod text;
mod toml_files;

use serde::Serialize;

use crate::ruleset::Ruleset;

/// One thing that is not the same in the two rulesets.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Difference {
    /// The file it is in, relative to the ruleset directory (the `after` one, or the
    /// `before` one for something removed).
    pub file: String,
    /// What it is, as a person reads it: `<table> row 4-6 <row>`, `<section>.<id> <field>`.
    pub title: String,
    pub item: Item,
    pub change: Change,
    /// How it was written in the first ruleset (none when added).
    pub before: Option<Text>,
    /// How it is written in the second ruleset (none when removed).
    pub after: Option<Text>,
}

/// What kind of thing differs, with the names that identify it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Item {
    /// A whole table: its header (title, dice, axes, columns), or all of it when
    /// added, removed or moved.
    Table { table: String },
    /// A row of a table, a modifier or group of a modifier list, an effect.
    TableRow { table: String, row: String },
    ScriptFunction {
        module: String,
        function: String,
        arity: usize,
    },
    /// A script's code outside its functions (constants, checks).
    ScriptTopLevel { module: String },
    /// A weapon, shield or armour, added or removed.
    EquipmentEntry { section: String, id: String },
    /// One field of a weapon, shield or armour.
    EquipmentField {
        section: String,
        id: String,
        field: String,
    },
    /// A key of `ruleset.toml`, or `<map>.<key>` for a key within a map such as `hooks`.
    Setting { key: String },
    /// A decision's priority list in `tactics.toml`, or in `tactics/<style>.toml`.
    TacticsList {
        #[serde(skip_serializing_if = "Option::is_none")]
        style: Option<String>,
        decision: String,
    },
    /// A rule of `combat.toml`: a key of `[turn]`, the actions offered, a test kind, or
    /// a key of an exchange (`exchanges.melee.damage`).
    CombatRule { key: String },
}

impl Item {
    /// The kind, singular and plural, for the summary line.
    fn kind_names(&self) -> (&'static str, &'static str) {
        match self {
            Item::Table { .. } => ("table", "tables"),
            Item::TableRow { .. } => ("table row", "table rows"),
            Item::ScriptFunction { .. } => ("script function", "script functions"),
            Item::ScriptTopLevel { .. } => ("script top level", "script top levels"),
            Item::EquipmentEntry { .. } => ("equipment entry", "equipment entries"),
            Item::EquipmentField { .. } => ("equipment field", "equipment fields"),
            Item::Setting { .. } => ("setting", "settings"),
            Item::TacticsList { .. } => ("tactics list", "tactics lists"),
            Item::CombatRule { .. } => ("combat rule", "combat rules"),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Change {
    Added,
    Removed,
    Changed,
    /// A table now in another file (its content is compared on its own).
    Moved,
}

/// How a thing is written in one of the two rulesets.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Text {
    /// Relative to the ruleset directory.
    pub file: String,
    /// The 1-based line it starts on; none for a value the file leaves to its default.
    pub line: Option<usize>,
    /// The lines as written (common indentation removed); a value left to its default
    /// is shown as `key = value`.
    pub text: String,
}

/// Every difference between `before` and `after`, by file, then by position in it.
pub fn ruleset_differences(before: &Ruleset, after: &Ruleset) -> Vec<Difference> {
    let mut found = Found::default();
    tables::compare(before, after, &mut found);
    scripts::compare(before, after, &mut found);
    toml_files::compare_settings(before, after, &mut found);
    toml_files::compare_equipment(before, after, &mut found);
    toml_files::compare_tactics(before, after, &mut found);
    toml_files::compare_combat(before, after, &mut found);
    found.sorted()
}

/// `3 differences: 2 table rows, 1 script function`, or `no differences`.
pub fn summary(differences: &[Difference]) -> String {
    if differences.is_empty() {
        return "no differences".to_string();
    }
    let mut kinds: Vec<(&Item, usize)> = Vec::new();
    for difference in differences {
        let same_kind = |item: &&Item| {
            std::mem::discriminant(*item) == std::mem::discriminant(&difference.item)
        };
        match kinds.iter_mut().find(|(item, _)| same_kind(item)) {
            Some((_, count)) => *count += 1,
            None => kinds.push((&difference.item, 1)),
        }
    }
    let parts: Vec<String> = kinds
        .iter()
        .map(|(item, count)| {
            let (one, many) = item.kind_names();
            format!("{count} {}", if *count == 1 { one } else { many })
        })
        .collect();
    let count = differences.len();
    format!(
        "{count} difference{}: {}",
        if count == 1 { "" } else { "s" },
        parts.join(", ")
    )
}

/// Differences as they are found, each with the place it sorts at.
#[derive(Default)]
struct Found {
    differences: Vec<Difference>,
}

impl Found {
    fn push(
        &mut self,
        item: Item,
        title: String,
        change: Change,
        before: Option<Text>,
        after: Option<Text>,
    ) {
        let Some(shown) = after.as_ref().or(before.as_ref()) else {
            return;
        };
        self.differences.push(Difference {
            file: shown.file.clone(),
            title,
            item,
            change,
            before,
            after,
        });
    }

    /// By file, then line (things without a line, left to defaults, last); the order
    /// found breaks ties, so the result never depends on a hash map.
    fn sorted(self) -> Vec<Difference> {
        let mut differences = self.differences;
        differences.sort_by_key(|d| {
            let shown = d.after.as_ref().or(d.before.as_ref());
            let line = shown.and_then(|t| t.line).unwrap_or(usize::MAX);
            (d.file.clone(), line)
        });
        differences
    }
}
