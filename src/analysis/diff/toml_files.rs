//! `ruleset.toml` key by key and `equipment.toml` entry by entry, field by field:
//! the decoded values decide what differs; the file, read again with spans, shows
//! where each is written.

use indexmap::IndexSet;
use serde_json::{Map, Value};
use toml::Spanned;
use toml::de::{DeString, DeTable, DeValue};

use super::text::{unwritten, written};
use super::{Change, Found, Item, Text};
use crate::ruleset::Ruleset;
use crate::source::{SourceFile, Span};

/// A TOML file of a ruleset, read again for the places of its keys.
struct Located<'r> {
    file: Option<&'r SourceFile>,
    relative: String,
    root: Option<Spanned<DeTable<'r>>>,
}

impl<'r> Located<'r> {
    fn new(ruleset: &'r Ruleset, file: Option<&'r SourceFile>, default_name: &str) -> Self {
        Located {
            file,
            relative: file.map_or(default_name.to_string(), |f| {
                ruleset.relative_name(f).to_string()
            }),
            // The file was decoded when the ruleset loaded, so it parses.
            root: file.and_then(|f| DeTable::parse(f.text()).ok()),
        }
    }

    /// How the key at `path` is written, or `key = value` when the file leaves it out.
    fn text(&self, path: &[&str], value: &Value) -> Text {
        let span = self
            .root
            .as_ref()
            .and_then(|root| span_of(root.get_ref(), path));
        match (self.file, span) {
            (Some(file), Some(span)) => written(file, &self.relative, span),
            _ => unwritten(
                &self.relative,
                path.last().copied().unwrap_or_default(),
                value,
            ),
        }
    }
}

/// From the key to the end of its value; a table's value ends with its last entry (a
/// `[header]` table's own span is only its header).
fn span_of(table: &DeTable<'_>, path: &[&str]) -> Option<Span> {
    let (first, rest) = path.split_first()?;
    let (key, value) = entry(table, first)?;
    if rest.is_empty() {
        let start = key.span().start.min(value.span().start);
        return Some(Span::new(start, end_of(value)));
    }
    match value.get_ref() {
        DeValue::Table(inner) => span_of(inner, rest),
        _ => None,
    }
}

fn entry<'t, 'i>(
    table: &'t DeTable<'i>,
    name: &str,
) -> Option<(&'t Spanned<DeString<'i>>, &'t Spanned<DeValue<'i>>)> {
    table.iter().find(|(key, _)| key.get_ref() == name)
}

fn end_of(value: &Spanned<DeValue<'_>>) -> usize {
    let own = value.span().end;
    match value.get_ref() {
        DeValue::Table(inner) => inner
            .iter()
            .map(|(key, value)| key.span().end.max(end_of(value)))
            .fold(own, usize::max),
        // An array of tables (`[[action]]` ... `[[action]]`) ends with its last table.
        DeValue::Array(items) => items.iter().map(end_of).fold(own, usize::max),
        _ => own,
    }
}

pub(super) fn compare_settings(before: &Ruleset, after: &Ruleset, found: &mut Found) {
    let old = Located::new(before, Some(&before.settings_file), "ruleset.toml");
    let new = Located::new(after, Some(&after.settings_file), "ruleset.toml");
    let old_values = object(serde_json::to_value(&before.settings));
    let new_values = object(serde_json::to_value(&after.settings));
    for key in keys(&old_values, &new_values) {
        let was = present(old_values.get(&key));
        let now = present(new_values.get(&key));
        if let (Some(Value::Object(was)), Some(Value::Object(now))) = (was, now) {
            // A map such as `conditions` or `hooks`: each of its keys on its own.
            for inner in keys(was, now) {
                let path = [key.as_str(), inner.as_str()];
                let was = present(was.get(&inner));
                let now = present(now.get(&inner));
                let item = Item::Setting {
                    key: path.join("."),
                };
                let title = format!("setting {}", path.join("."));
                push_change(found, item, title, (&old, was), (&new, now), &path);
            }
            continue;
        }
        let item = Item::Setting { key: key.clone() };
        let title = format!("setting {key}");
        push_change(
            found,
            item,
            title,
            (&old, was),
            (&new, now),
            &[key.as_str()],
        );
    }
}

pub(super) fn compare_equipment(before: &Ruleset, after: &Ruleset, found: &mut Found) {
    let old = Located::new(before, before.equipment_file.as_ref(), "equipment.toml");
    let new = Located::new(after, after.equipment_file.as_ref(), "equipment.toml");
    let old_values = object(serde_json::to_value(&before.rules.equipment));
    let new_values = object(serde_json::to_value(&after.rules.equipment));
    for section in keys(&old_values, &new_values) {
        let empty = Map::new();
        let was_section = old_values.get(&section).and_then(Value::as_object);
        let now_section = new_values.get(&section).and_then(Value::as_object);
        let was_section = was_section.unwrap_or(&empty);
        let now_section = now_section.unwrap_or(&empty);
        for id in keys(was_section, now_section) {
            let path = [section.as_str(), id.as_str()];
            let was = was_section.get(&id);
            let now = now_section.get(&id);
            match (was, now) {
                (Some(Value::Object(was)), Some(Value::Object(now))) => {
                    for field in keys(was, now) {
                        let path = [section.as_str(), id.as_str(), field.as_str()];
                        let item = Item::EquipmentField {
                            section: section.clone(),
                            id: id.clone(),
                            field: field.clone(),
                        };
                        let title = format!("{section}.{id} {field}");
                        let was = present(was.get(&field));
                        let now = present(now.get(&field));
                        push_change(found, item, title, (&old, was), (&new, now), &path);
                    }
                }
                _ => {
                    let item = Item::EquipmentEntry {
                        section: section.clone(),
                        id: id.clone(),
                    };
                    let title = format!("{section}.{id}");
                    push_change(found, item, title, (&old, was), (&new, now), &path);
                }
            }
        }
    }
}

/// `tactics.toml` and each `tactics/<style>.toml` list by list: a list is one rule of
/// play, read from the top, so a change anywhere in it shows the whole list before and
/// after.
pub(super) fn compare_tactics(before: &Ruleset, after: &Ruleset, found: &mut Found) {
    let style_file = |ruleset: &'_ Ruleset, style: &str| {
        ruleset
            .style_files
            .iter()
            .find(|(name, _)| name == style)
            .map(|(_, file)| file.clone())
    };
    let mut styles: Vec<Option<String>> = vec![None];
    for ruleset in [after, before] {
        for style in ruleset.rules.tactics.styles.keys() {
            if !styles.contains(&Some(style.to_string())) {
                styles.push(Some(style.to_string()));
            }
        }
    }
    for style in styles {
        let (old_file, new_file, default_name) = match &style {
            None => (
                before.tactics_file.clone(),
                after.tactics_file.clone(),
                "tactics.toml".to_string(),
            ),
            Some(style) => (
                style_file(before, style),
                style_file(after, style),
                format!("tactics/{style}.toml"),
            ),
        };
        let old = Located::new(before, old_file.as_ref(), &default_name);
        let new = Located::new(after, new_file.as_ref(), &default_name);
        let lists = |ruleset: &Ruleset| -> Map<String, Value> {
            let lists = match &style {
                None => Some(&ruleset.rules.tactics.decisions),
                Some(style) => ruleset
                    .rules
                    .tactics
                    .styles
                    .get(&crate::names::Name::new(style)),
            };
            lists
                .into_iter()
                .flatten()
                .map(|(decision, list)| {
                    let rules = serde_json::to_value(&list.written).unwrap_or(Value::Null);
                    (decision.to_string(), rules)
                })
                .collect()
        };
        let (was_lists, now_lists) = (lists(before), lists(after));
        for decision in keys(&was_lists, &now_lists) {
            let title = match &style {
                None => format!("tactics for {decision}"),
                Some(style) => format!("tactics style {style} for {decision}"),
            };
            let item = Item::TacticsList {
                style: style.clone(),
                decision: decision.clone(),
            };
            let (was, now) = (was_lists.get(&decision), now_lists.get(&decision));
            push_change(
                found,
                item,
                title,
                (&old, was),
                (&new, now),
                &[decision.as_str()],
            );
        }
    }
}

/// `combat.toml` rule by rule: each key of `[turn]`, the actions offered as one list,
/// each test kind whole, and each key of each exchange (its reactions, wounds and
/// `after` rules each as one list, read in order).
pub(super) fn compare_combat(before: &Ruleset, after: &Ruleset, found: &mut Found) {
    let old = Located::new(before, before.combat_file.as_ref(), "combat.toml");
    let new = Located::new(after, after.combat_file.as_ref(), "combat.toml");
    // Both files were decoded when their rulesets loaded; read here as plain values.
    let values = |file: Option<&SourceFile>| -> Map<String, Value> {
        file.and_then(|f| toml::from_str::<Value>(f.text()).ok())
            .and_then(|value| match value {
                Value::Object(map) => Some(map),
                _ => None,
            })
            .unwrap_or_default()
    };
    let (was_all, now_all) = (
        values(before.combat_file.as_ref()),
        values(after.combat_file.as_ref()),
    );
    let empty = Map::new();
    // One rule of combat.toml, named by its path of keys (`exchanges.melee.damage`).
    let mut rule = |path: &[&str], was: Option<&Value>, now: Option<&Value>| {
        let key = path.join(".");
        push_change(
            found,
            Item::CombatRule { key: key.clone() },
            format!("combat {key}"),
            (&old, was),
            (&new, now),
            path,
        );
    };
    for section in keys(&was_all, &now_all) {
        let (was, now) = (was_all.get(&section), now_all.get(&section));
        let by_key = matches!(section.as_str(), "turn" | "exchanges" | "tests");
        if !by_key {
            rule(&[section.as_str()], was, now);
            continue;
        }
        let was = was.and_then(Value::as_object).unwrap_or(&empty);
        let now = now.and_then(Value::as_object).unwrap_or(&empty);
        for name in keys(was, now) {
            let (was_entry, now_entry) = (was.get(&name), now.get(&name));
            match (section.as_str(), was_entry, now_entry) {
                ("exchanges", Some(Value::Object(was_keys)), Some(Value::Object(now_keys))) => {
                    for key in keys(was_keys, now_keys) {
                        rule(
                            &[section.as_str(), name.as_str(), key.as_str()],
                            was_keys.get(&key),
                            now_keys.get(&key),
                        );
                    }
                }
                _ => rule(&[section.as_str(), name.as_str()], was_entry, now_entry),
            }
        }
    }
}

/// Record what happened to one value, if anything did.
fn push_change(
    found: &mut Found,
    item: Item,
    title: String,
    (old, was): (&Located<'_>, Option<&Value>),
    (new, now): (&Located<'_>, Option<&Value>),
    path: &[&str],
) {
    let change = match (was, now) {
        (None, None) => return,
        (Some(was), Some(now)) if was == now => return,
        (None, Some(_)) => Change::Added,
        (Some(_), None) => Change::Removed,
        (Some(_), Some(_)) => Change::Changed,
    };
    let before = was.map(|value| old.text(path, value));
    let after = now.map(|value| new.text(path, value));
    found.push(item, title, change, before, after);
}

fn object(value: Result<Value, serde_json::Error>) -> Map<String, Value> {
    match value {
        Ok(Value::Object(map)) => map,
        _ => Map::new(),
    }
}

/// A value that is there: `null` is a key left out.
fn present(value: Option<&Value>) -> Option<&Value> {
    value.filter(|v| !v.is_null())
}

/// The keys of both, those of `now` in its order first, then those only in `was`.
fn keys(was: &Map<String, Value>, now: &Map<String, Value>) -> IndexSet<String> {
    now.keys().chain(was.keys()).cloned().collect()
}
