//! `affray roll <ruleset> <table>`

use std::fmt::Write;
use std::path::Path;

use affray::dice::DiceSource;
use affray::ruleset::{self, Problems, Ruleset, UnknownName};
use affray::source::{SourceFile, Span};
use affray::tables::{RerollStep, RollOnTable, roll_on_table};

pub fn run(dir: &Path, table_name: &str, seed: Option<u64>, times: u32) -> Result<(), Problems> {
    let ruleset = ruleset::load(dir)?;
    let table = ruleset
        .table(table_name)
        .ok_or_else(|| vec![unknown_table(&ruleset, table_name)])?;
    let (seed, chosen) = match seed {
        Some(seed) => (seed, false),
        None => (super::fresh_seed(), true),
    };
    let mut dice = DiceSource::seeded(seed);
    let find = |name: &str| ruleset.table(name);
    let mut out = String::new();
    let title = table
        .title
        .as_deref()
        .map(|t| format!(" \"{t}\""))
        .unwrap_or_default();
    let _ = writeln!(out, "{}{title}, seed {seed}", table.name);
    for time in 1..=times {
        let roll =
            roll_on_table(table, &find, &mut dice).map_err(|e| vec![miette::Report::new(e)])?;
        if times > 1 {
            let _ = writeln!(out, "roll {time} of {times}:");
        }
        write_roll(&mut out, &roll, if times > 1 { 1 } else { 0 });
    }
    if chosen {
        let _ = writeln!(
            out,
            "(seed chosen at random: add --seed {seed} to repeat these rolls)"
        );
    }
    super::output::print(out)?;
    Ok(())
}

fn write_roll(out: &mut String, roll: &RollOnTable<'_>, depth: usize) {
    let indent = "  ".repeat(depth);
    let row = roll.selected();
    let _ = write!(
        out,
        "{indent}{} → {}: {} ({})",
        roll.die,
        roll.result,
        row.display_label(),
        row.name
    );
    if let Some(description) = &row.description {
        let _ = write!(out, "\n{indent}  {description}");
    }
    out.push('\n');
    for action in &row.actions {
        let _ = writeln!(out, "{indent}  => {action}");
    }
    let wanted = roll
        .rerolls
        .iter()
        .filter(|s| matches!(s, RerollStep::Kept { .. }))
        .count();
    let mut kept = 0;
    for step in &roll.rerolls {
        match step {
            RerollStep::Ignored { result } => {
                let _ = writeln!(
                    out,
                    "{indent}  reroll {} of {wanted}: {} → {result}, ignored",
                    kept + 1,
                    roll.die
                );
            }
            RerollStep::Kept { roll: again } => {
                kept += 1;
                let _ = write!(out, "{indent}  reroll {kept} of {wanted}: ");
                let mut inner = String::new();
                write_roll(&mut inner, again, depth + 1);
                out.push_str(inner.trim_start());
            }
        }
    }
    for other in &roll.rolled_tables {
        let _ = write!(out, "{indent}  roll on {}: ", other.table.name);
        let mut inner = String::new();
        write_roll(&mut inner, other, depth + 1);
        out.push_str(inner.trim_start());
    }
}

fn unknown_table(ruleset: &Ruleset, name: &str) -> miette::Report {
    // The name came from the command line: show it as its own one-line source.
    let file = SourceFile::new("command line", name.to_string());
    UnknownName::new(
        "affray::usage::unknown_table",
        "table",
        &file,
        name,
        Span::new(0, name.len()),
        format!("of {}", ruleset.dir),
        ruleset.table_names(),
    )
    .into()
}
