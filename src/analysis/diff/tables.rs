//! Tables compared by name, and their rows by key: the typed model (spans left out by
//! its serialisation) decides what differs, so spacing, comments and re-wrapped text
//! never do.

use indexmap::IndexMap;
use serde_json::Value;

use super::text::written;
use super::{Change, Found, Item};
use crate::ruleset::Ruleset;
use crate::source::{SourceFile, Span};
use crate::tables::{ModifierItem, Table, TableKind};

/// A table with the file it was read from.
struct Placed<'r> {
    table: &'r Table,
    file: &'r SourceFile,
    relative: &'r str,
}

/// One row of a table (or modifier, group, effect), as compared.
struct Entry {
    /// What names it within its table.
    key: String,
    /// `row 4-6 <name>`, `modifier <name>`, `row <key>`.
    title: String,
    value: Value,
    span: Span,
}

pub(super) fn compare(before: &Ruleset, after: &Ruleset, found: &mut Found) {
    let old = placed(before);
    let new = placed(after);
    for (name, now) in &new {
        let Some(was) = old.get(name) else {
            let text = written(now.file, now.relative, header_span(now.table));
            let title = format!("table {name}");
            let item = Item::Table {
                table: name.clone(),
            };
            found.push(item, title, Change::Added, None, Some(text));
            continue;
        };
        compare_table(was, now, found);
    }
    for (name, was) in &old {
        if !new.contains_key(name) {
            let text = written(was.file, was.relative, header_span(was.table));
            let title = format!("table {name}");
            let item = Item::Table {
                table: name.clone(),
            };
            found.push(item, title, Change::Removed, Some(text), None);
        }
    }
}

fn placed(ruleset: &Ruleset) -> IndexMap<String, Placed<'_>> {
    ruleset
        .rules
        .tables
        .iter()
        .zip(&ruleset.table_files)
        .map(|(table, file)| {
            let placed = Placed {
                table,
                file,
                relative: ruleset.relative_name(file),
            };
            (table.name.value.clone(), placed)
        })
        .collect()
}

fn compare_table(was: &Placed<'_>, now: &Placed<'_>, found: &mut Found) {
    let name = &now.table.name.value;
    let header =
        |placed: &Placed<'_>| written(placed.file, placed.relative, header_span(placed.table));
    if was.relative != now.relative {
        let title = format!("table {name} moved from {}", was.relative);
        let item = Item::Table {
            table: name.clone(),
        };
        found.push(
            item,
            title,
            Change::Moved,
            Some(header(was)),
            Some(header(now)),
        );
    }
    if header_value(was.table) != header_value(now.table) {
        let title = format!("table {name}");
        let item = Item::Table {
            table: name.clone(),
        };
        found.push(
            item,
            title,
            Change::Changed,
            Some(header(was)),
            Some(header(now)),
        );
    }
    let old = entries(was.table);
    let new = entries(now.table);
    let row_item = |key: &str| Item::TableRow {
        table: name.clone(),
        row: key.to_string(),
    };
    for (key, entry) in &new {
        let after = Some(written(now.file, now.relative, entry.span));
        let title = format!("{name} {}", entry.title);
        match old.get(key) {
            None => found.push(row_item(key), title, Change::Added, None, after),
            Some(previous) if previous.value != entry.value => {
                let before = Some(written(was.file, was.relative, previous.span));
                found.push(row_item(key), title, Change::Changed, before, after);
            }
            Some(_) => {}
        }
    }
    for (key, entry) in &old {
        if !new.contains_key(key) {
            let before = Some(written(was.file, was.relative, entry.span));
            let title = format!("{name} {}", entry.title);
            found.push(row_item(key), title, Change::Removed, before, None);
        }
    }
}

/// Everything of a table but its rows: name, title, kind, dice, axes, columns.
fn header_value(table: &Table) -> Value {
    let mut value = serde_json::to_value(table).unwrap_or(Value::Null);
    if let Value::Object(fields) = &mut value {
        for rows in ["rows", "items", "effects"] {
            fields.remove(rows);
        }
    }
    value
}

/// From the table's keyword to its first row (all of it when it has none).
fn header_span(table: &Table) -> Span {
    let first_row = entry_spans(table).map(|span| span.start).min();
    Span::new(table.span.start, first_row.unwrap_or(table.span.end))
}

fn entry_spans(table: &Table) -> impl Iterator<Item = Span> {
    entries(table).into_values().map(|entry| entry.span)
}

/// The rows of a table by key, in the order written. A key written twice (which the
/// checks of some kinds allow) is told apart by its place: `key (2)`.
fn entries(table: &Table) -> IndexMap<String, Entry> {
    let mut list: Vec<Entry> = Vec::new();
    match &table.kind {
        TableKind::Roll(roll) => {
            for row in &roll.rows {
                list.push(Entry {
                    key: row.name.value.clone(),
                    title: format!("row {} {}", row.range.value, row.name.value),
                    value: json(row),
                    span: row.span,
                });
            }
        }
        TableKind::Matrix(matrix) => {
            for row in &matrix.rows {
                list.push(Entry {
                    key: row.key.value.to_string(),
                    title: format!("row {}", row.key.value),
                    value: json(row),
                    span: row.span,
                });
            }
        }
        TableKind::Lookup(lookup) => {
            for row in &lookup.rows {
                list.push(Entry {
                    key: row.key.value.to_string(),
                    title: format!("row {}", row.key.value),
                    value: json(row),
                    span: row.span,
                });
            }
        }
        TableKind::Modifiers(list_of) => {
            for item in &list_of.items {
                match item {
                    ModifierItem::Single(modifier) => list.push(Entry {
                        key: modifier.name.value.clone(),
                        title: format!("modifier {}", modifier.name.value),
                        value: json(modifier),
                        span: modifier.span,
                    }),
                    ModifierItem::Group(group) => {
                        let mut header = json(group);
                        if let Value::Object(fields) = &mut header {
                            fields.remove("modifiers");
                        }
                        list.push(Entry {
                            key: format!("group {}", group.group.value),
                            title: format!("group {}", group.group.value),
                            value: header,
                            span: group.group.span,
                        });
                        for modifier in &group.modifiers {
                            // Moving a modifier into another group changes what it does.
                            let value = serde_json::json!({
                                "group": group.group.value,
                                "modifier": json(modifier),
                            });
                            list.push(Entry {
                                key: modifier.name.value.clone(),
                                title: format!("modifier {}", modifier.name.value),
                                value,
                                span: modifier.span,
                            });
                        }
                    }
                }
            }
        }
        TableKind::Effects(effects) => {
            for effect in &effects.effects {
                list.push(Entry {
                    key: effect.name.value.clone(),
                    title: format!("effect {}", effect.name.value),
                    value: json(effect),
                    span: effect.span,
                });
            }
        }
    }
    let mut by_key = IndexMap::new();
    for mut entry in list {
        let mut key = entry.key.clone();
        let mut seen = 1;
        while by_key.contains_key(&key) {
            seen += 1;
            key = format!("{} ({seen})", entry.key);
        }
        entry.key = key.clone();
        by_key.insert(key, entry);
    }
    by_key
}

/// Any part of the model as JSON, to compare by meaning.
fn json<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}
