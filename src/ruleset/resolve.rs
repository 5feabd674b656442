//! The resolve stage: decode the TOML files, parse and validate the tables, compile the
//! scripts and formulas, then check every name that points from one file into another.

use std::collections::HashMap;

use rhai::Engine;
use toml::Spanned as TomlSpanned;

use super::Formula;
use super::Problems;
use super::combat::{CombatFile, check_table_resists, compile_combat};
use super::equipment::{
    Armour, ArmourEntry, Equipment, EquipmentFile, EquipmentValue, Weapon, WeaponEntry,
};
use super::problem::{RulesetProblem, UnknownName};
use super::settings::{DOMAINS, Settings, StatisticKind};
use super::tactics::{TacticsFile, compile_lists};
use crate::engine::hooks;
use crate::engine::pipeline::Combat;
use crate::engine::reads::Vocabulary;
use crate::engine::tactics::Tactics;
use crate::names::Name;
use crate::parse::{parse_dice, parse_tables};
use crate::script::{Script, compile_script, module_calls};
use crate::source::{SourceFile, Span, Spanned, excerpt};
use crate::tables::{Action, Axis, Cell, Key, ModifierValue, Table, TableKind, validate_file};

pub(super) struct Inputs<'a> {
    pub settings: Option<&'a SourceFile>,
    pub tables: &'a [SourceFile],
    pub scripts: &'a [(String, SourceFile)],
    pub equipment: Option<&'a SourceFile>,
    pub tactics: Option<&'a SourceFile>,
    /// `tactics/<style>.toml`, by style.
    pub styles: &'a [(String, SourceFile)],
    pub combat: Option<&'a SourceFile>,
}

pub(super) struct Resolved {
    pub settings: Settings,
    pub tables: Vec<Table>,
    /// The file of each table, in the same order.
    pub table_files: Vec<SourceFile>,
    pub scripts: Vec<Script>,
    pub formulas: Vec<Formula>,
    pub equipment: Equipment,
    pub tactics: Tactics,
    pub combat: Option<Combat>,
    /// The parts that did not load whole: names a scenario gives of them are not checked.
    pub incomplete: Vec<super::Part>,
}

/// Everything that could be read, checked; `None` when ruleset.toml itself is unusable.
pub(super) fn resolve(
    engine: &Engine,
    inputs: Inputs<'_>,
    problems: &mut Problems,
) -> Option<Resolved> {
    let settings = inputs
        .settings
        .and_then(|file| decode::<Settings>(file, problems).map(|settings| (settings, file)));

    // Tables: each file parsed and validated on its own, then names made unique.
    let mut tables: Vec<(Table, &SourceFile)> = Vec::new();
    let mut table_files_failed = false;
    for file in inputs.tables {
        match parse_tables(file) {
            Ok(parsed) => {
                problems.extend(validate_file(file, &parsed).into_iter().map(Into::into));
                tables.extend(parsed.tables.into_iter().map(|table| (table, file)));
            }
            Err(error) => {
                table_files_failed = true;
                problems.push(error.into());
            }
        }
    }
    let mut first_definition: HashMap<&str, (&SourceFile, Span)> = HashMap::new();
    for (table, file) in &tables {
        match first_definition.get(table.name.value.as_str()) {
            Some((first_file, first_span)) => {
                problems.push(duplicate_table(table, file, first_file, *first_span))
            }
            None => {
                first_definition.insert(&table.name.value, (file, table.name.span));
            }
        }
    }

    let scripts: Vec<Script> = inputs
        .scripts
        .iter()
        .filter_map(|(module, file)| {
            compile_script(engine, module, file)
                .map_err(|error| problems.push(error.into()))
                .ok()
        })
        .collect();

    let modules: Vec<&str> = inputs.scripts.iter().map(|(m, _)| m.as_str()).collect();
    for script in &scripts {
        problems.extend(
            module_calls(&script.file, &modules)
                .into_iter()
                .map(Into::into),
        );
    }

    let (settings, settings_file) = settings?;
    let mut incomplete = Vec::new();
    if table_files_failed {
        incomplete.push(super::Part::Tables);
    }
    if scripts.len() < inputs.scripts.len() {
        incomplete.push(super::Part::Scripts);
    }
    check_max_rounds(&settings, settings_file, problems);
    let formulas = compile_formulas(&settings, settings_file, problems);
    let before = problems.len();
    let equipment = match inputs.equipment {
        Some(file) => decode::<EquipmentFile>(file, problems)
            .map(|decoded| resolve_equipment(&decoded, &settings, file, problems))
            .unwrap_or_default(),
        None => Equipment::default(),
    };
    let equipment_loaded = problems.len() == before;
    if !equipment_loaded {
        incomplete.push(super::Part::Equipment);
    }
    let mut vocabulary = vocabulary(&settings);
    // The numbers of the weapons' and shields' `values`: what `weapon.value.NAME` reads.
    vocabulary.weapon_values = equipment_loaded.then(|| {
        let mut names: Vec<String> = Vec::new();
        for weapon in equipment.weapons.values().chain(equipment.shields.values()) {
            for (name, value) in &weapon.values {
                if matches!(value, EquipmentValue::Number(_)) && !names.contains(name) {
                    names.push(name.clone());
                }
            }
        }
        names
    });
    vocabulary.armour_values = equipment_loaded.then(|| {
        let mut names: Vec<String> = Vec::new();
        for armour in equipment.armour.values() {
            for (name, value) in &armour.values {
                if matches!(value, EquipmentValue::Number(_)) && !names.contains(name) {
                    names.push(name.clone());
                }
            }
        }
        names
    });
    vocabulary.modifiers = tables
        .iter()
        .filter_map(|(table, _)| match &table.kind {
            TableKind::Modifiers(list) => Some(list.modifiers().map(|m| m.name.value.clone())),
            _ => None,
        })
        .flatten()
        .collect();
    // The rows of the hit location table: what `location` may be compared with.
    vocabulary.locations = settings
        .hit_locations
        .as_ref()
        .and_then(|name| tables.iter().find(|(t, _)| t.name.value == *name.get_ref()))
        .map(|(table, _)| match &table.kind {
            TableKind::Roll(roll) => roll.rows.iter().map(|r| r.name.value.clone()).collect(),
            _ => Vec::new(),
        })
        .unwrap_or_default();
    // And the rows of the tables combat.toml's actions aim at (a called location), after
    // them: an exchange reads the location chosen as `location` too.
    for name in inputs
        .combat
        .map(super::combat::called_location_tables)
        .unwrap_or_default()
    {
        let table = tables.iter().find(|(t, _)| t.name.value == name);
        let rows = table
            .and_then(|(table, _)| super::combat::called_location_rows(table).ok())
            .unwrap_or_default();
        for row in rows {
            if !vocabulary.locations.contains(&row) {
                vocabulary.locations.push(row);
            }
        }
    }
    // The values kept toward each opponent are combat.toml's; tactics lists read them
    // too (its own problems are reported when combat.toml is compiled).
    vocabulary.toward = inputs
        .combat
        .map(super::combat::toward_names)
        .unwrap_or_default();
    let before = problems.len();
    let mut lists = |file: &SourceFile| {
        decode::<TacticsFile>(file, problems)
            .map(|decoded| compile_lists(&decoded, &vocabulary, file, problems))
            .unwrap_or_default()
    };
    let tactics = Tactics {
        decisions: inputs.tactics.map(&mut lists).unwrap_or_default(),
        styles: inputs
            .styles
            .iter()
            .map(|(style, file)| (Name::new(style), lists(file)))
            .collect(),
        vocabulary: vocabulary.clone(),
    };
    if problems.len() > before {
        incomplete.push(super::Part::Tactics);
    }

    let names = Names {
        settings: &settings,
        tables: &tables,
        scripts: &scripts,
        script_modules_failed: inputs
            .scripts
            .iter()
            .map(|(module, _)| module.as_str())
            .filter(|module| !scripts.iter().any(|s| s.module == *module))
            .collect(),
    };
    for (table, file) in &tables {
        names.check_table(table, file, problems);
    }
    check_roll_cycles(&tables, problems);
    check_hooks(
        &settings,
        settings_file,
        &scripts,
        &names.script_modules_failed,
        problems,
    );
    if let Some(locations) = &settings.hit_locations {
        check_hit_location_table(locations, &tables, settings_file, problems);
    }
    // combat.toml names the tables' modifiers, effects and levels: while a table file
    // does not parse, every name of it would be reported unknown again, so combat.toml
    // is checked once the tables read.
    let before = problems.len();
    let decoded_combat = inputs
        .combat
        .filter(|_| !table_files_failed)
        .and_then(|file| decode::<CombatFile>(file, problems).map(|decoded| (decoded, file)));
    check_table_resists(
        &tables,
        decoded_combat.as_ref().map(|(decoded, _)| decoded),
        problems,
    );
    let combat = decoded_combat.and_then(|(decoded, file)| {
        let weapons: Vec<String> = equipment.weapons.keys().map(|id| id.to_string()).collect();
        compile_combat(&decoded, &vocabulary, &names, &weapons, file, problems)
    });
    if inputs.combat.is_some() && (combat.is_none() || problems.len() > before) {
        incomplete.push(super::Part::Combat);
    }
    // A step is said once: by combat.toml or by a hook. A `choices` hook may offer the
    // actions that combat.toml does (and `act` those it does not).
    let offered_by_hook = settings.hooks.contains_key("choices");
    if let Some(combat) = &combat {
        for (hook, target) in &settings.hooks {
            let shared = offered_by_hook && (hook == "choices" || hook == "act");
            if combat.provides(hook) && !shared {
                problems.push(
                    RulesetProblem::Toml {
                        src: settings_file.named(),
                        span: Some(key_in(settings_file, hook, target).into()),
                        file: settings_file.name().to_string(),
                        label: "said twice".into(),
                        message: format!("`{hook}` is said both by combat.toml and by this hook"),
                        help: format!(
                            "keep one: remove `{hook}` from [hooks], or from combat.toml"
                        ),
                    }
                    .into(),
                );
            }
        }
    }

    let table_files = tables.iter().map(|(_, file)| (*file).clone()).collect();
    Some(Resolved {
        settings,
        tables: tables.into_iter().map(|(table, _)| table).collect(),
        table_files,
        scripts,
        formulas,
        equipment,
        tactics,
        combat,
        incomplete,
    })
}

/// Decode a TOML file, turning its error into a diagnostic under the offending span.
fn decode<T: serde::de::DeserializeOwned>(file: &SourceFile, problems: &mut Problems) -> Option<T> {
    match toml::from_str::<T>(file.text()) {
        Ok(value) => Some(value),
        Err(error) => {
            // serde names Rust types; a GM reads "a whole number".
            let message = error
                .message()
                .trim_end()
                .replace("expected u32", "expected a whole number such as 4")
                .replace("expected u8", "expected a whole number such as 2")
                .replace("expected f64", "expected a number such as 1.5");
            let (label, help) = match unknown_key(&message) {
                Some((key, known)) => (
                    "unknown key".to_string(),
                    match crate::ruleset::suggest(&key, &known) {
                        Some(close) => format!(
                            "did you mean `{close}`? The keys here: {}",
                            known.join(", ")
                        ),
                        None => format!("the keys here: {}", known.join(", ")),
                    },
                ),
                None => (
                    crate::source::shorten(message.lines().next().unwrap_or_default()),
                    format!(
                        "{} is TOML; rulesets/README.md lists every key it may hold",
                        file.name().rsplit('/').next().unwrap_or_default()
                    ),
                ),
            };
            problems.push(
                RulesetProblem::Toml {
                    src: file.named(),
                    span: error.span().map(|range| Span::from(range).into()),
                    file: file.name().to_string(),
                    label,
                    // TOML quotes the key or value: cut, for a file of one long line.
                    message: crate::source::shorten(&message.replacen(
                        "unknown field",
                        "unknown key",
                        1,
                    )),
                    help,
                }
                .into(),
            );
            None
        }
    }
}

/// `[sequence] max_rounds` is 1 or more (a fight of no rounds is over before it starts)
/// and at most `Sequence::MOST_ROUNDS`.
fn check_max_rounds(settings: &Settings, file: &SourceFile, problems: &mut Problems) {
    let max_rounds = &settings.sequence.max_rounds;
    let rounds = *max_rounds.get_ref();
    let most = super::settings::Sequence::MOST_ROUNDS;
    if (1..=most).contains(&rounds) {
        return;
    }
    let range = max_rounds.span();
    problems.push(
        RulesetProblem::Toml {
            src: file.named(),
            span: Some(Span::new(range.start, range.end).into()),
            file: file.name().to_string(),
            label: if rounds == 0 {
                "no rounds".into()
            } else {
                format!("more than {most}")
            },
            message: format!("`max_rounds` is {rounds}: a fight lasts 1 to {most} rounds"),
            help: format!(
                "write max_rounds = 100 (the default) or another number from 1 to {most}; a fight undecided after so many rounds ends with no winner"
            ),
        }
        .into(),
    );
}

/// Tables whose rows `roll` each other round a loop (one that rolls itself too): each
/// loop reported once, at the `roll` that closes it. Only a row's own `roll` actions
/// count, as rolling on a table does them; `reroll` rolls the same table again, a bounded
/// number of times, and is no loop.
fn check_roll_cycles(tables: &[(Table, &SourceFile)], problems: &mut Problems) {
    // Each table's rolls: (the table rolled, the action's span).
    let rolls: Vec<Vec<(usize, Span)>> = tables
        .iter()
        .map(|(table, _)| {
            let TableKind::Roll(roll) = &table.kind else {
                return Vec::new();
            };
            roll.rows
                .iter()
                .flat_map(|row| &row.actions)
                .filter_map(|action| match &action.value {
                    Action::RollTable { table } => tables
                        .iter()
                        .position(|(t, _)| t.name.value == table.value)
                        .map(|at| (at, table.span)),
                    _ => None,
                })
                .collect()
        })
        .collect();
    #[derive(Clone, Copy, PartialEq)]
    enum Visit {
        New,
        Open,
        Done,
    }
    let mut visits = vec![Visit::New; tables.len()];
    // Depth first, in the order tables are written, without recursion: each open table
    // with the next of its rolls to follow.
    for first in 0..tables.len() {
        if visits[first] != Visit::New {
            continue;
        }
        let mut path: Vec<(usize, usize)> = vec![(first, 0)];
        visits[first] = Visit::Open;
        while let Some(&mut (at, ref mut next)) = path.last_mut() {
            let Some(&(to, span)) = rolls[at].get(*next) else {
                visits[at] = Visit::Done;
                path.pop();
                continue;
            };
            *next += 1;
            match visits[to] {
                Visit::New => {
                    visits[to] = Visit::Open;
                    path.push((to, 0));
                }
                Visit::Open => {
                    let from = path.iter().position(|&(t, _)| t == to).unwrap_or(0);
                    let mut names: Vec<&str> = path[from..]
                        .iter()
                        .map(|&(t, _)| tables[t].0.name.value.as_str())
                        .collect();
                    names.push(&tables[to].0.name.value);
                    problems.push(
                        RulesetProblem::RollCycle {
                            src: tables[at].1.named(),
                            span: span.into(),
                            cycle: names
                                .iter()
                                .map(|name| excerpt(name))
                                .collect::<Vec<_>>()
                                .join(" → "),
                        }
                        .into(),
                    );
                }
                Visit::Done => {}
            }
        }
    }
}

/// Every hook of `[hooks]` is one the engine calls and names a script function with the
/// number of parameters the engine passes; `tactics` names a script module.
fn check_hooks(
    settings: &Settings,
    file: &SourceFile,
    scripts: &[Script],
    failed: &[&str],
    problems: &mut Problems,
) {
    let known_hooks: Vec<String> = hooks::KNOWN
        .iter()
        .map(|(name, _)| name.to_string())
        .collect();
    let modules: Vec<String> = scripts.iter().map(|s| s.module.clone()).collect();
    for (hook, target) in &settings.hooks {
        let Some(&(_, arity)) = hooks::KNOWN.iter().find(|(name, _)| name == hook) else {
            let span = key_in(file, hook, target);
            problems.push(
                UnknownName::new(
                    "affray::ruleset::unknown_hook",
                    "hook",
                    file,
                    hook,
                    span,
                    "the engine calls",
                    known_hooks.clone(),
                )
                .into(),
            );
            continue;
        };
        let span = string_content(target);
        let Some((module, function)) = target.get_ref().split_once("::") else {
            problems.push(
                RulesetProblem::Toml {
                    src: file.named(),
                    span: Some(span.into()),
                    file: file.name().to_string(),
                    message: format!("the hook `{hook}` must name a script function as module::function"),
                    label: "not module::function".into(),
                    help: format!("for example {hook} = \"combat::{hook}\" for the function `{hook}` of scripts/combat.rhai"),
                }
                .into(),
            );
            continue;
        };
        if failed.contains(&module) {
            continue;
        }
        let Some(script) = scripts.iter().find(|s| s.module == module) else {
            let module_span = Span::new(span.start, span.start + module.len());
            problems.push(
                UnknownName::new(
                    "affray::ruleset::unknown_script",
                    "script",
                    file,
                    module,
                    module_span,
                    "in scripts/",
                    modules.clone(),
                )
                .into(),
            );
            continue;
        };
        let arities = script.arities(function);
        let function_span = Span::new(span.start + module.len() + 2, span.end);
        if arities.is_empty() {
            let known = script.function_names();
            problems.push(
                UnknownName::new(
                    "affray::ruleset::unknown_script_function",
                    "script function",
                    file,
                    function,
                    function_span,
                    format!("of {}", script.file.name()),
                    known,
                )
                .into(),
            );
        } else if !arities.contains(&arity) {
            problems.push(
                RulesetProblem::HookArity {
                    src: file.named(),
                    span: function_span.into(),
                    hook: hook.clone(),
                    function: target.get_ref().clone(),
                    expected: arity,
                    defined: arities
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(" or "),
                }
                .into(),
            );
        }
    }
    if let Some(tactics) = &settings.tactics
        && !modules.contains(tactics.get_ref())
        && !failed.contains(&tactics.get_ref().as_str())
    {
        problems.push(
            UnknownName::new(
                "affray::ruleset::unknown_script",
                "script",
                file,
                tactics.get_ref(),
                string_content(tactics),
                "in scripts/",
                modules,
            )
            .into(),
        );
    }
}

/// The span of `key` in `key = value`, found just before the value.
fn key_in(file: &SourceFile, key: &str, value: &TomlSpanned<String>) -> Span {
    let before = &file.text()[..value.span().start];
    match before.rfind(key) {
        Some(start) => Span::new(start, start + key.len()),
        None => string_content(value),
    }
}

/// `hit_locations = "humanoid_hit_location"` names a roll table.
fn check_hit_location_table(
    name: &TomlSpanned<String>,
    tables: &[(Table, &SourceFile)],
    file: &SourceFile,
    problems: &mut Problems,
) {
    match tables.iter().find(|(t, _)| t.name.value == *name.get_ref()) {
        None => problems.push(
            UnknownName::new(
                "affray::ruleset::unknown_table",
                "table",
                file,
                name.get_ref(),
                string_content(name),
                "of this ruleset",
                tables.iter().map(|(t, _)| t.name.value.clone()).collect(),
            )
            .into(),
        ),
        Some((table, _)) if !matches!(table.kind, TableKind::Roll(_)) => problems.push(
            RulesetProblem::NotARollTable {
                src: file.named(),
                span: string_content(name).into(),
                name: name.get_ref().clone(),
                kind: table.kind.keyword(),
            }
            .into(),
        ),
        Some(_) => {}
    }
}

/// serde's "unknown field `x`, expected one of `a`, `b`": the key and the known keys.
fn unknown_key(message: &str) -> Option<(String, Vec<String>)> {
    let rest = message.strip_prefix("unknown field ")?;
    let mut names = rest.split('`').skip(1).step_by(2).map(str::to_string);
    let key = names.next()?;
    Some((key, names.collect()))
}

fn duplicate_table(
    table: &Table,
    file: &SourceFile,
    first_file: &SourceFile,
    first_span: Span,
) -> miette::Report {
    if std::ptr::eq(file, first_file) {
        crate::tables::TableProblem::Duplicate {
            src: file.named(),
            span: table.name.span.into(),
            first_span: Some(first_span.into()),
            what: "table",
            name: table.name.value.clone(),
            help: "table names are unique across a ruleset: rename one of them".into(),
        }
        .into()
    } else {
        let first_line = first_file.text()[..first_span.start].matches('\n').count() + 1;
        RulesetProblem::DuplicateTable {
            src: file.named(),
            span: table.name.span.into(),
            name: table.name.value.clone(),
            first_file: first_file.name().to_string(),
            first_line,
        }
        .into()
    }
}

/// The span of a TOML string's content (inside its quotes).
fn string_content(spanned: &TomlSpanned<String>) -> Span {
    let range = spanned.span();
    Span::new(
        range.start + 1,
        range.end.saturating_sub(1).max(range.start + 1),
    )
}

/// The names expressions may use, as the ruleset declares them.
pub(super) fn vocabulary(settings: &Settings) -> Vocabulary {
    let names = |list: &[TomlSpanned<String>]| list.iter().map(|n| n.get_ref().clone()).collect();
    Vocabulary {
        characteristics: names(&settings.characteristics),
        conditions: settings.conditions.keys().cloned().collect(),
        condition_names: settings.conditions.keys().map(|c| Name::new(c)).collect(),
        statistics: settings
            .statistics
            .iter()
            .filter(|(_, kind)| **kind == StatisticKind::Number)
            .map(|(name, _)| name.clone())
            .collect(),
        combatant_options: settings.combatant_options.keys().cloned().collect(),
        fight_options: settings.fight_options.keys().cloned().collect(),
        weapon_traits: names(&settings.weapon_traits),
        weapon_sizes: names(&settings.weapon_sizes),
        weapon_reaches: names(&settings.weapon_reaches),
        text_statistics: settings
            .statistics
            .iter()
            .filter(|(_, kind)| **kind == StatisticKind::Text)
            .map(|(name, _)| name.clone())
            .collect(),
        success_levels: settings
            .success_level_names()
            .iter()
            .map(Name::from)
            .collect(),
        dice_statistics: settings
            .statistics
            .iter()
            .filter(|(_, kind)| **kind == StatisticKind::Dice)
            .map(|(name, _)| name.clone())
            .collect(),
        modifiers: Vec::new(),
        locations: Vec::new(),
        weapon_values: None,
        armour_values: None,
        toward: Vec::new(),
    }
}

fn compile_formulas(
    settings: &Settings,
    file: &SourceFile,
    problems: &mut Problems,
) -> Vec<Formula> {
    settings
        .formulas
        .iter()
        .filter_map(|(name, text)| {
            Formula::compile(name, text.get_ref(), file, string_content(text))
                .map_err(|found| problems.extend(found.into_iter().map(Into::into)))
                .ok()
        })
        .collect()
}

fn resolve_equipment(
    decoded: &EquipmentFile,
    settings: &Settings,
    file: &SourceFile,
    problems: &mut Problems,
) -> Equipment {
    let mut weapon = |entry: &WeaponEntry| -> Option<Weapon> {
        let damage = match &entry.damage {
            Some(damage) => Some(
                parse_dice(file, damage.get_ref(), string_content(damage).start)
                    .map_err(|error| problems.push(error.into()))
                    .ok()?
                    .value,
            ),
            None => None,
        };
        let check = |value: &Option<TomlSpanned<String>>,
                     kind,
                     code,
                     known: &[TomlSpanned<String>],
                     problems: &mut Problems| {
            if let Some(value) = value {
                check_known(
                    file,
                    value,
                    kind,
                    code,
                    known,
                    "declared in ruleset.toml",
                    problems,
                );
            }
        };
        check(
            &entry.size,
            "weapon size",
            "affray::equipment::unknown_size",
            &settings.weapon_sizes,
            problems,
        );
        check(
            &entry.reach,
            "weapon reach",
            "affray::equipment::unknown_reach",
            &settings.weapon_reaches,
            problems,
        );
        for trait_name in &entry.traits {
            check_known(
                file,
                trait_name,
                "weapon trait",
                "affray::equipment::unknown_trait",
                &settings.weapon_traits,
                "declared in ruleset.toml",
                problems,
            );
        }
        Some(Weapon {
            name: entry.name.clone(),
            damage,
            size: entry.size.as_ref().map(|s| Name::new(s.get_ref())),
            reach: entry.reach.as_ref().map(|r| Name::new(r.get_ref())),
            ap: entry.ap,
            hp: entry.hp,
            enc: entry.enc,
            hands: entry.hands,
            traits: entry
                .traits
                .iter()
                .map(|t| Name::new(t.get_ref()))
                .collect(),
            trait_bits: entry
                .traits
                .iter()
                .filter_map(|t| trait_bit(&settings.weapon_traits, t.get_ref()))
                .fold(0, |bits, bit| bits | bit),
            range: entry.range,
            load: entry.load,
            skill: entry.skill.as_deref().map(Name::new),
            damage_modifier: entry.damage_modifier,
            notes: entry.notes.clone(),
            values: entry.values.clone(),
            numbers: Weapon::numbers_of(&entry.values),
        })
    };
    let weapons = decoded
        .weapons
        .iter()
        .filter_map(|(id, entry)| weapon(entry).map(|w| (Name::new(id), w)))
        .collect();
    let shields = decoded
        .shields
        .iter()
        .filter_map(|(id, entry)| weapon(entry).map(|w| (Name::new(id), w)))
        .collect();
    let armour = decoded
        .armour
        .iter()
        .map(|(id, entry): (&String, &ArmourEntry)| {
            (
                id.clone(),
                Armour {
                    name: entry.name.clone(),
                    ap: entry.ap,
                    enc: entry.enc,
                    notes: entry.notes.clone(),
                    values: entry.values.clone(),
                },
            )
        })
        .collect();
    Equipment {
        weapons,
        shields,
        armour,
    }
}

/// The bit of `name` among the declared `traits` (the first 64 have one).
fn trait_bit(traits: &[TomlSpanned<String>], name: &str) -> Option<u64> {
    let bit = crate::engine::reads::bit_at(traits.iter().position(|t| t.get_ref() == name));
    (bit != 0).then_some(bit)
}

fn check_known(
    file: &SourceFile,
    value: &TomlSpanned<String>,
    kind: &'static str,
    code: &'static str,
    known: &[TomlSpanned<String>],
    known_from: &str,
    problems: &mut Problems,
) {
    if !known.iter().any(|k| k.get_ref() == value.get_ref()) {
        problems.push(
            UnknownName::new(
                code,
                kind,
                file,
                value.get_ref(),
                string_content(value),
                known_from,
                known.iter().map(|k| k.get_ref().clone()).collect(),
            )
            .into(),
        );
    }
}

/// The names one table may refer to.
pub(super) struct Names<'a> {
    pub(super) settings: &'a Settings,
    pub(super) tables: &'a [(Table, &'a SourceFile)],
    scripts: &'a [Script],
    /// Modules that exist but did not compile: calls into them are not reported again.
    script_modules_failed: Vec<&'a str>,
}

impl Names<'_> {
    fn check_table(&self, table: &Table, file: &SourceFile, problems: &mut Problems) {
        let levels = self.settings.success_level_names();
        let unknown = |code,
                       kind,
                       name: &Spanned<String>,
                       from: &str,
                       known: Vec<String>|
         -> miette::Report {
            UnknownName::new(code, kind, file, &name.value, name.span, from, known).into()
        };
        match &table.kind {
            TableKind::Roll(roll) => {
                for row in &roll.rows {
                    self.check_table_actions(&row.actions, file, problems);
                }
            }
            TableKind::Matrix(matrix) => {
                let columns: Vec<&Spanned<Key>> = matrix.columns.iter().collect();
                let rows: Vec<&Spanned<Key>> = matrix.rows.iter().map(|r| &r.key).collect();
                self.check_axis(table, &matrix.rows_axis, "row", &rows, file, problems);
                self.check_axis(table, &matrix.cols_axis, "column", &columns, file, problems);
                for cell in matrix.rows.iter().flat_map(|r| &r.cells) {
                    if let Cell::Result { actions, .. } = &cell.value {
                        self.check_table_actions(actions, file, problems);
                    }
                }
            }
            TableKind::Modifiers(list) => {
                for modifier in list.modifiers() {
                    match &modifier.value.value {
                        ModifierValue::Automatic { level } if !levels.contains(&level.value) => {
                            problems.push(unknown(
                                "affray::table::unknown_level",
                                "success level",
                                level,
                                "declared in ruleset.toml",
                                levels.clone(),
                            ));
                        }
                        ModifierValue::Grade { grade }
                            if !self.settings.grade_names().contains(&grade.value) =>
                        {
                            problems.push(unknown(
                                "affray::table::unknown_grade",
                                "difficulty grade",
                                grade,
                                "declared in ruleset.toml",
                                self.settings.grade_names(),
                            ));
                        }
                        _ => {}
                    }
                }
            }
            TableKind::Lookup(_) => {}
            TableKind::Effects(list) => {
                let traits = self.settings.trait_names();
                for effect in &list.effects {
                    if let Some(requirement) = &effect.requires
                        && !levels.contains(&requirement.level.value)
                    {
                        problems.push(unknown(
                            "affray::table::unknown_level",
                            "success level",
                            &requirement.level,
                            "declared in ruleset.toml",
                            levels.clone(),
                        ));
                    }
                    for weapon in &effect.weapons {
                        if !traits.contains(&weapon.value) {
                            problems.push(unknown(
                                "affray::table::unknown_trait",
                                "weapon trait",
                                weapon,
                                "declared in ruleset.toml",
                                traits.clone(),
                            ));
                        }
                    }
                    self.check_table_actions(&effect.actions, file, problems);
                }
            }
        }
    }

    /// An axis `by <domain>` has exactly the domain's names as keys.
    fn check_axis(
        &self,
        table: &Table,
        axis: &Axis,
        what: &'static str,
        keys: &[&Spanned<Key>],
        file: &SourceFile,
        problems: &mut Problems,
    ) {
        let Some(domain) = &axis.domain else {
            return;
        };
        let Some(known) = self.settings.domain(&domain.value) else {
            problems.push(
                UnknownName::new(
                    "affray::table::unknown_domain",
                    "axis domain",
                    file,
                    &domain.value,
                    domain.span,
                    "affray knows",
                    DOMAINS.iter().map(ToString::to_string).collect(),
                )
                .into(),
            );
            return;
        };
        for key in keys {
            let name = match &key.value {
                Key::Name(name) => name.clone(),
                Key::Range(_) => key.value.to_string(),
            };
            if !known.contains(&name) {
                problems.push(
                    UnknownName::new(
                        "affray::table::unknown_key",
                        "key",
                        file,
                        &name,
                        key.span,
                        format!("of `by {}` declared in ruleset.toml", domain.value),
                        known.clone(),
                    )
                    .into(),
                );
            }
        }
        for level in &known {
            let present = keys
                .iter()
                .any(|k| matches!(&k.value, Key::Name(n) if n == level));
            if !present {
                problems.push(
                    RulesetProblem::MissingKey {
                        src: file.named(),
                        span: domain.span.into(),
                        table: table.name.value.clone(),
                        axis: axis.name.value.clone(),
                        what,
                        level: level.clone(),
                        domain: domain.value.clone(),
                        all: known.join(", "),
                    }
                    .into(),
                );
            }
        }
    }

    pub(super) fn check_actions(
        &self,
        actions: &[Spanned<Action>],
        file: &SourceFile,
        problems: &mut Problems,
    ) {
        for action in actions {
            match &action.value {
                Action::RollTable { table } => match self
                    .tables
                    .iter()
                    .find(|(t, _)| t.name.value == table.value)
                {
                    None => problems.push(
                        UnknownName::new(
                            "affray::table::unknown_table",
                            "table",
                            file,
                            &table.value,
                            table.span,
                            "of this ruleset",
                            self.tables
                                .iter()
                                .map(|(t, _)| t.name.value.clone())
                                .collect(),
                        )
                        .into(),
                    ),
                    Some((target, _)) if !matches!(target.kind, TableKind::Roll(_)) => problems
                        .push(
                            RulesetProblem::NotARollTable {
                                src: file.named(),
                                span: table.span.into(),
                                name: table.value.clone(),
                                kind: target.kind.keyword(),
                            }
                            .into(),
                        ),
                    Some(_) => {}
                },
                Action::Condition { condition, .. } | Action::Clear { condition } => {
                    if !self
                        .settings
                        .conditions
                        .contains_key(condition.value.as_str())
                    {
                        problems.push(
                            UnknownName::new(
                                "affray::table::unknown_condition",
                                "condition",
                                file,
                                &condition.value,
                                condition.span,
                                "declared in ruleset.toml",
                                self.settings.condition_names(),
                            )
                            .into(),
                        );
                    }
                }
                Action::Script {
                    module,
                    function,
                    args,
                } => self.check_script_call(
                    module,
                    function,
                    args.len(),
                    action.span,
                    file,
                    problems,
                ),
                // `drop weapon`, or a trait of ruleset.toml `weapon_traits`.
                // `drop last` too; not `ready last` (what it readies was never in hand).
                Action::Drop { which, .. } | Action::Ready { which, .. } => {
                    let traits = &self.settings.weapon_traits;
                    let last = matches!(action.value, Action::Drop { .. }) && which.value == "last";
                    if which.value != "weapon"
                        && !last
                        && !traits.iter().any(|t| which.value == *t.get_ref())
                    {
                        let mut known = vec!["weapon".to_string()];
                        if matches!(action.value, Action::Drop { .. }) {
                            known.push("last".to_string());
                        }
                        known.extend(traits.iter().map(|t| t.get_ref().clone()));
                        problems.push(
                            UnknownName::new(
                                "affray::table::unknown_trait",
                                "weapon trait",
                                file,
                                &which.value,
                                which.span,
                                "in ruleset.toml `weapon_traits` (or `weapon`: any)",
                                known,
                            )
                            .into(),
                        );
                    }
                }
                // A value is any name a ruleset keeps: none is declared.
                Action::LoseActions { .. }
                | Action::DropHand { .. }
                | Action::Reroll { .. }
                | Action::Set { .. }
                | Action::Spend { .. }
                | Action::Hurt { .. }
                | Action::Lodge => {}
                // The exchange and the `toward` names are combat.toml's, checked when it
                // is compiled.
                Action::Strike { .. } | Action::Toward { .. } | Action::Decide { .. } => {}
                // The test (or an `if`'s condition) is combat.toml's, checked when it is
                // compiled; what happens on a success or a failure, or what a party
                // does, is checked here like any action.
                Action::Resist { .. }
                | Action::Test { .. }
                | Action::Contest { .. }
                | Action::If { .. }
                | Action::Party { .. } => {
                    for branch in action.value.branches() {
                        self.check_actions(branch, file, problems);
                    }
                }
            }
        }
    }

    /// The actions of a table file: checked as any, and with numbers where combat.toml
    /// may write expressions.
    fn check_table_actions(
        &self,
        actions: &[Spanned<Action>],
        file: &SourceFile,
        problems: &mut Problems,
    ) {
        self.check_actions(actions, file, problems);
        reject_action_exprs(actions, file, problems);
    }

    fn check_script_call(
        &self,
        module: &Spanned<String>,
        function: &Spanned<String>,
        args: usize,
        call: Span,
        file: &SourceFile,
        problems: &mut Problems,
    ) {
        if self.script_modules_failed.contains(&module.value.as_str()) {
            return;
        }
        let Some(script) = self.scripts.iter().find(|s| s.module == module.value) else {
            problems.push(
                UnknownName::new(
                    "affray::table::unknown_script",
                    "script",
                    file,
                    &module.value,
                    module.span,
                    "in scripts/",
                    self.scripts.iter().map(|s| s.module.clone()).collect(),
                )
                .into(),
            );
            return;
        };
        let arities = script.arities(&function.value);
        if arities.is_empty() {
            let known = script.function_names();
            problems.push(
                UnknownName::new(
                    "affray::table::unknown_script_function",
                    "script function",
                    file,
                    &function.value,
                    function.span,
                    format!("of {}", script.file.name()),
                    known,
                )
                .into(),
            );
        } else if !arities.contains(&(args + 1)) {
            problems.push(
                RulesetProblem::WrongArity {
                    src: file.named(),
                    span: call.into(),
                    module: module.value.clone(),
                    function: function.value.clone(),
                    defined: arities
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(" or "),
                    passed: args + 1,
                    args,
                }
                .into(),
            );
        }
    }
}

/// An expression in a table file's action (`set NAME (EXPR)`, `for (EXPR) actions`), or
/// an action only combat.toml can do (`spend 1 action`, `lodge weapon`, `winner (...)`).
fn reject_action_exprs(actions: &[Spanned<Action>], file: &SourceFile, problems: &mut Problems) {
    for action in actions {
        if let Some(expr) = action.value.expression() {
            problems.push(
                RulesetProblem::ExpressionInTable {
                    src: file.named(),
                    span: expr.text.span.into(),
                }
                .into(),
            );
        } else if action.value.combat_only() {
            problems.push(
                RulesetProblem::CombatActionInTable {
                    src: file.named(),
                    span: action.span.into(),
                    action: action.value.to_string(),
                }
                .into(),
            );
        }
        for branch in action.value.branches() {
            reject_action_exprs(branch, file, problems);
        }
    }
}
