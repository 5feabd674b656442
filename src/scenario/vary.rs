//! One thing of a scenario set to each of a range of values (`affray sweep`): the
//! number of copies of a combatant, a skill, a statistic, a characteristic, armour or
//! hit points, as the scenario file writes them. The file is read as TOML, the one value
//! changed, and the result checked and resolved as any scenario is.

use std::path::Path;

use miette::Report;

use super::{Scenario, resolve};
use crate::names::suggest;
use crate::ruleset::{self, Problems, Ruleset};
use crate::source::SourceFile;

/// The most values one sweep may hold.
pub const MOST_VALUES: usize = 1000;

/// What `--vary` changes: `NAME.count`, `NAME.skills.SKILL`, `NAME.statistics.STAT`,
/// `NAME.characteristics.CHAR`, `NAME.armour` (every location) or `NAME.armour.LOCATION`,
/// `NAME.hit_points.LOCATION`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    Count,
    /// A key of one of the combatant's tables (`skills`, `statistics`, ...).
    Key {
        table: &'static str,
        key: String,
    },
    /// Armour Points on every location.
    AllArmour,
}

/// A checked `--vary`: whose value, which, and the values to take.
#[derive(Clone, Debug)]
pub struct Variation {
    /// As typed before `=` (`Kobold.count`): how reports name the value.
    pub what: String,
    pub combatant: String,
    pub target: Target,
    pub values: Vec<i64>,
}

/// The tables of a combatant entry whose keys may be varied, and the word for one key.
const TABLES: [(&str, &str); 5] = [
    ("skills", "skill"),
    ("statistics", "statistic"),
    ("characteristics", "characteristic"),
    ("armour", "location"),
    ("hit_points", "location"),
];

fn usage(message: String, help: String) -> Problems {
    vec![miette::miette!(
        code = "affray::usage::vary",
        help = help,
        "{message}"
    )]
}

const SHAPE: &str = "write NAME.count=1..6, NAME.skills.SKILL=40..80:10, NAME.armour=0..6, \
                     NAME.statistics.STAT=FROM..TO or NAME.characteristics.CHAR=FROM..TO";

/// `FROM..TO[:STEP]`: whole numbers, FROM below or at TO, STEP above 0.
pub fn parse_range(text: &str) -> Result<Vec<i64>, Problems> {
    let bad = |why: &str| {
        usage(
            format!(
                "`{}` is not a range of values: {why}",
                crate::source::shorten(text)
            ),
            "write FROM..TO or FROM..TO:STEP with whole numbers, e.g. 1..6 or 30..90:10".into(),
        )
    };
    let (range, step) = match text.split_once(':') {
        Some((range, step)) => (range, Some(step)),
        None => (text, None),
    };
    let Some((from, to)) = range.split_once("..") else {
        return Err(bad("it has no `..`"));
    };
    let number = |part: &str| part.trim().parse::<i64>().ok();
    let (Some(from), Some(to)) = (number(from), number(to)) else {
        return Err(bad("FROM and TO must be whole numbers"));
    };
    let step = match step {
        None => 1,
        Some(step) => match number(step) {
            Some(step) if step > 0 => step,
            _ => return Err(bad("STEP must be a whole number above 0")),
        },
    };
    if from > to {
        return Err(bad("FROM must not be above TO"));
    }
    let count = (to.abs_diff(from) / step.unsigned_abs()).saturating_add(1);
    if count > MOST_VALUES as u64 {
        return Err(bad(&format!(
            "{count} values; a sweep takes at most {MOST_VALUES}"
        )));
    }
    let mut values = Vec::new();
    let mut value = from;
    while value <= to {
        values.push(value);
        match value.checked_add(step) {
            Some(next) => value = next,
            None => break,
        }
    }
    Ok(values)
}

/// Read `WHAT=FROM..TO[:STEP]` against the scenario file's combatant entries.
fn parse_variation(text: &str, file: &toml::Table) -> Result<Variation, Problems> {
    let Some((what, range)) = text.rsplit_once('=') else {
        return Err(usage(
            format!(
                "`{}` says what to vary but not over which values",
                crate::source::shorten(text)
            ),
            SHAPE.into(),
        ));
    };
    let entries = combatant_entries(file);
    let names: Vec<String> = entries.iter().map(|(name, _)| name.clone()).collect();
    // The longest combatant name that starts `what`, followed by a dot: names may hold dots.
    let found = entries
        .iter()
        .filter(|(name, _)| {
            what.strip_prefix(name.as_str())
                .is_some_and(|rest| rest.starts_with('.'))
        })
        .max_by_key(|(name, _)| name.len());
    let Some((combatant, entry)) = found else {
        let typed = what.split('.').next().unwrap_or(what);
        let help = match suggest(typed, &names) {
            Some(close) => format!(
                "did you mean `{close}`? The scenario's combatants: {}",
                names.join(", ")
            ),
            None => format!("the scenario's combatants: {}; {SHAPE}", names.join(", ")),
        };
        return Err(usage(
            format!(
                "the scenario has no combatant `{}`",
                crate::source::shorten(typed)
            ),
            help,
        ));
    };
    let rest = &what[combatant.len() + 1..];
    let (table, key) = match rest.split_once('.') {
        Some((table, key)) => (table, Some(key)),
        None => (rest, None),
    };
    let target = match (table, key) {
        ("count", None) => Target::Count,
        ("armour", None) => Target::AllArmour,
        (table, Some(key)) if TABLES.iter().any(|(t, _)| *t == table) => {
            let (table, word) = TABLES
                .iter()
                .copied()
                .find(|(t, _)| *t == table)
                .unwrap_or(TABLES[0]);
            let has: Vec<String> = entry
                .get(table)
                .and_then(toml::Value::as_table)
                .map(|t| t.keys().cloned().collect())
                .unwrap_or_default();
            // Armour and hit points may name a location the entry leaves to `all`; the
            // ruleset checks it when the scenario is resolved.
            let open = matches!(table, "armour" | "hit_points");
            if !open && !has.iter().any(|k| k == key) {
                let help = match suggest(key, &has) {
                    Some(close) => format!("did you mean `{combatant}.{table}.{close}`?"),
                    None if has.is_empty() => format!("{combatant} has no {table} in the scenario"),
                    None => format!("{combatant}'s {table}: {}", has.join(", ")),
                };
                return Err(usage(
                    format!(
                        "{combatant} has no {word} `{}` in the scenario",
                        crate::source::shorten(key)
                    ),
                    help,
                ));
            }
            Target::Key {
                table,
                key: key.to_string(),
            }
        }
        _ => {
            let known: Vec<String> = ["count", "armour"]
                .iter()
                .chain(TABLES.iter().map(|(t, _)| t))
                .map(|t| t.to_string())
                .collect();
            let help = match suggest(table, &known) {
                Some(close) => format!("did you mean `{combatant}.{close}`? {SHAPE}"),
                None => SHAPE.into(),
            };
            return Err(usage(
                format!(
                    "`{}` is not something of {combatant} a sweep can vary",
                    crate::source::shorten(rest)
                ),
                help,
            ));
        }
    };
    let values = parse_range(range)?;
    if target == Target::Count && values.first().is_some_and(|&v| v < 1) {
        return Err(usage(
            format!("{what} must be at least 1"),
            "a combatant entry stands for one combatant or more".into(),
        ));
    }
    // Armour written as an item of equipment.toml is replaced by Armour Points.
    if let Target::Key { table, key } = &target
        && *table != "armour"
    {
        let current = entry
            .get(*table)
            .and_then(toml::Value::as_table)
            .and_then(|t| t.get(key));
        if let Some(value) = current
            && !value.is_integer()
        {
            return Err(usage(
                format!("{what} is `{value}` in the scenario, not a whole number"),
                "a sweep varies whole numbers only (skills in percent or levels, Armour Points, statistics that are numbers)".into(),
            ));
        }
    }
    Ok(Variation {
        what: what.to_string(),
        combatant: combatant.clone(),
        target,
        values,
    })
}

/// The combatant entries of a scenario file, by name.
fn combatant_entries(file: &toml::Table) -> Vec<(String, &toml::Table)> {
    file.get("combatants")
        .and_then(toml::Value::as_array)
        .map(|entries| {
            entries
                .iter()
                .filter_map(|entry| {
                    let entry = entry.as_table()?;
                    let name = entry.get("name")?.as_str()?;
                    Some((name.to_string(), entry))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The file with the variation's value set to `value`.
fn with_value(file: &toml::Table, variation: &Variation, value: i64) -> toml::Table {
    let mut file = file.clone();
    let Some(entries) = file
        .get_mut("combatants")
        .and_then(toml::Value::as_array_mut)
    else {
        return file;
    };
    for entry in entries.iter_mut().filter_map(toml::Value::as_table_mut) {
        if entry.get("name").and_then(toml::Value::as_str) != Some(variation.combatant.as_str()) {
            continue;
        }
        match &variation.target {
            Target::Count => {
                entry.insert("count".into(), toml::Value::Integer(value));
            }
            Target::AllArmour => {
                let mut armour = toml::Table::new();
                armour.insert("all".into(), toml::Value::Integer(value));
                entry.insert("armour".into(), toml::Value::Table(armour));
            }
            Target::Key { table, key } => {
                let slot = entry
                    .entry(table.to_string())
                    .or_insert_with(|| toml::Value::Table(toml::Table::new()));
                if let Some(table) = slot.as_table_mut() {
                    table.insert(key.clone(), toml::Value::Integer(value));
                }
            }
        }
    }
    file
}

/// The scenario at `path` (under `ruleset_dir`, or its own ruleset) once for each value
/// of `vary` (`WHAT=FROM..TO[:STEP]`), with the ruleset loaded once.
pub fn load_varied(
    path: &Path,
    ruleset_dir: Option<&Path>,
    vary: &str,
) -> Result<(Ruleset, Variation, Vec<Scenario>), Problems> {
    // The scenario as written is checked first: its own problems are shown at its lines.
    let (ruleset, _) = super::load(path, ruleset_dir)?;
    let source = ruleset::read_source(path).map_err(|error| vec![error])?;
    let file: toml::Table = source.text().parse().map_err(|error: toml::de::Error| {
        vec![miette::miette!(
            "cannot read {} again: {error}",
            path.display()
        )]
    })?;
    let variation = parse_variation(vary, &file)?;
    let mut scenarios = Vec::with_capacity(variation.values.len());
    for &value in &variation.values {
        let changed = with_value(&file, &variation, value);
        let text = toml::to_string(&changed)
            .map_err(|error| vec![miette::miette!("cannot write the varied scenario: {error}")])?;
        let varied = SourceFile::new(
            format!("{} with {}={value}", source.name(), variation.what),
            text,
        );
        let scenario = resolve::decode(&varied)
            .and_then(|decoded| resolve::resolve(&varied, decoded, &ruleset))
            .map_err(|mut problems| {
                problems.push(Report::msg(format!(
                    "the scenario with {}={value} cannot be fought",
                    variation.what
                )));
                problems
            })?;
        scenarios.push(scenario);
    }
    Ok((ruleset, variation, scenarios))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges() {
        assert_eq!(parse_range("1..4").unwrap(), vec![1, 2, 3, 4]);
        assert_eq!(parse_range("30..60:15").unwrap(), vec![30, 45, 60]);
        assert_eq!(parse_range("30..65:15").unwrap(), vec![30, 45, 60]);
        assert_eq!(parse_range("-2..-1").unwrap(), vec![-2, -1]);
        assert!(parse_range("4..1").is_err());
        assert!(parse_range("1..4:0").is_err());
        assert!(parse_range("1-4").is_err());
        assert!(parse_range("0..100000").is_err());
        assert_eq!(
            parse_range(&format!("{}..{}", i64::MAX - 1, i64::MAX)).unwrap(),
            vec![i64::MAX - 1, i64::MAX]
        );
    }
}
