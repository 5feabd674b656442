//! Rolling on a roll table: the die, the row it selects, and the rolls its actions ask
//! for (`reroll ... ignoring ...`, `roll other_table`). Other actions are left to the
//! engine, which knows the combatants they act on.

use serde::Serialize;

use crate::dice::{DiceExpr, DiceSource, RollError};

use super::model::{Action, DieRange, RollRow, RollTable, Table, TableKind};

/// Deeper than this, tables that roll each other are taken to be a loop (`check` reports
/// tables whose `roll` actions go round in one).
pub const MAX_DEPTH: usize = 16;

/// One roll on a table and everything it led to. It borrows the tables it was rolled
/// on: a fight rolls without copying a name.
#[derive(Clone, Debug, Serialize)]
pub struct RollOnTable<'t> {
    #[serde(serialize_with = "table_name")]
    pub table: &'t Table,
    /// The table's rows and die (`table` is a roll table).
    #[serde(skip)]
    pub roll_table: &'t RollTable,
    pub die: &'t DiceExpr,
    pub result: i64,
    /// Index of the selected row in the table.
    pub row: usize,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rerolls: Vec<RerollStep<'t>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rolled_tables: Vec<RollOnTable<'t>>,
}

impl<'t> RollOnTable<'t> {
    /// The row the roll selected.
    pub fn selected(&self) -> &'t RollRow {
        &self.roll_table.rows[self.row]
    }
}

fn table_name<S: serde::Serializer>(table: &&Table, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&table.name.value)
}

/// A roll made because a row said `reroll N times ignoring ...`.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum RerollStep<'t> {
    Ignored { result: i64 },
    Kept { roll: RollOnTable<'t> },
}

#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum TableRollError {
    #[error(transparent)]
    #[diagnostic(transparent)]
    Dice(#[from] RollError),
    #[error("`{table}` is a {kind} table; only roll tables (`table ... roll ...`) can be rolled")]
    #[diagnostic(code(affray::roll::not_a_roll_table))]
    NotARollTable { table: String, kind: &'static str },
    #[error("rolling `{table}` led to tables rolling each other more than {MAX_DEPTH} deep")]
    #[diagnostic(
        code(affray::roll::too_deep),
        help("check the `roll` actions of these tables for a loop")
    )]
    TooDeep { table: String },
}

/// Roll on `table`. `find` gives the other tables of the ruleset, for `roll` actions.
pub fn roll_on_table<'t>(
    table: &'t Table,
    find: &dyn Fn(&str) -> Option<&'t Table>,
    dice: &mut DiceSource,
) -> Result<RollOnTable<'t>, TableRollError> {
    roll_at_depth(table, find, dice, 0, 0)
}

/// Roll on `table` with `adjustment` added to the first roll (an NPC's armour taken off,
/// a critical's damage added); a result past the die reads the first or last row.
pub fn roll_on_table_adjusted<'t>(
    table: &'t Table,
    find: &dyn Fn(&str) -> Option<&'t Table>,
    dice: &mut DiceSource,
    adjustment: i64,
) -> Result<RollOnTable<'t>, TableRollError> {
    roll_at_depth(table, find, dice, 0, adjustment)
}

fn roll_at_depth<'t>(
    table: &'t Table,
    find: &dyn Fn(&str) -> Option<&'t Table>,
    dice: &mut DiceSource,
    depth: usize,
    adjustment: i64,
) -> Result<RollOnTable<'t>, TableRollError> {
    let TableKind::Roll(roll_table) = &table.kind else {
        return Err(TableRollError::NotARollTable {
            table: table.name.value.clone(),
            kind: table.kind.keyword(),
        });
    };
    too_deep(table, depth)?;
    // An adjustment as large as a number goes reads the last row, never wraps to the first.
    let result = match dice.merges() {
        true => roll_row(table, roll_table, dice, adjustment)?,
        false => roll_die(table, roll_table, dice)?.saturating_add(adjustment),
    };
    resolve_at_depth(table, roll_table, find, dice, depth, result)
}

/// In an enumeration, which row comes up is all a roll on a table decides: the results
/// that read one row are drawn as one outcome (a 1D20 on seven hit locations is seven
/// outcomes, not twenty), and the row's first result stands for them all.
fn roll_row(
    table: &Table,
    roll_table: &RollTable,
    dice: &mut DiceSource,
    adjustment: i64,
) -> Result<i64, TableRollError> {
    let Some(totals) = roll_table.die.value.totals() else {
        return Ok(roll_die(table, roll_table, dice)?.saturating_add(adjustment));
    };
    // (row, its first result, its ways), in the order of the results.
    let mut rows: Vec<(usize, i64, u64)> = Vec::new();
    for (total, ways) in totals {
        let result = total.saturating_add(adjustment);
        let row = row_for(roll_table, result);
        match rows.iter_mut().find(|(r, ..)| *r == row) {
            Some(found) => found.2 += ways,
            None => rows.push((row, result, ways)),
        }
    }
    let weights: Vec<u64> = rows.iter().map(|(.., ways)| *ways).collect();
    let purpose = format!("{} on {}", roll_table.die.value, table.name.value);
    let place = dice.branch(&weights, &purpose)?;
    Ok(rows[place as usize - 1].1)
}

/// In an enumeration, a reroll that ignores `ignoring` drawn by the row of the result
/// kept: the results not ignored that read one row are one outcome, and the row's first
/// of them stands for them all. `None` where the die's totals cannot be said.
fn kept_row(
    table: &Table,
    roll_table: &RollTable,
    dice: &mut DiceSource,
    ignoring: &DieRange,
) -> Result<Option<i64>, TableRollError> {
    let Some(totals) = roll_table.die.value.totals() else {
        return Ok(None);
    };
    let mut rows: Vec<(usize, i64, u64)> = Vec::new();
    for (result, ways) in totals {
        if ignoring.contains(result) {
            continue;
        }
        let row = row_for(roll_table, result);
        match rows.iter_mut().find(|(r, ..)| *r == row) {
            Some(found) => found.2 += ways,
            None => rows.push((row, result, ways)),
        }
    }
    if rows.is_empty() {
        return Ok(None);
    }
    let weights: Vec<u64> = rows.iter().map(|(.., ways)| *ways).collect();
    let purpose = format!("{} on {}", roll_table.die.value, table.name.value);
    let place = dice.branch(&weights, &purpose)?;
    Ok(Some(rows[place as usize - 1].1))
}

/// Rerolls and rolled tables nest no deeper than `MAX_DEPTH`.
fn too_deep(table: &Table, depth: usize) -> Result<(), TableRollError> {
    if depth > MAX_DEPTH {
        return Err(TableRollError::TooDeep {
            table: table.name.value.clone(),
        });
    }
    Ok(())
}

fn roll_die(
    table: &Table,
    roll_table: &RollTable,
    dice: &mut DiceSource,
) -> Result<i64, TableRollError> {
    // A seeded die reads no purpose: then none is written.
    let purpose = if dice.reads_purposes() {
        format!("{} on {}", roll_table.die.value, table.name.value)
    } else {
        String::new()
    };
    Ok(roll_table.die.roll_total(dice, &purpose)?)
}

/// The row `result` reads, with its rerolls and the tables it rolls as well.
fn resolve_at_depth<'t>(
    table: &'t Table,
    roll_table: &'t RollTable,
    find: &dyn Fn(&str) -> Option<&'t Table>,
    dice: &mut DiceSource,
    depth: usize,
    result: i64,
) -> Result<RollOnTable<'t>, TableRollError> {
    let row = row_for(roll_table, result);
    let mut rerolls = Vec::new();
    let mut rolled_tables = Vec::new();
    for action in &roll_table.rows[row].actions {
        match &action.value {
            Action::Reroll { times, ignoring } => {
                for _ in 0..*times {
                    // In an enumeration the results ignored are never drawn: the result
                    // kept is drawn at once by its row, among the results not ignored
                    // (rolling until one is kept gives each of those its own chance).
                    if dice.merges()
                        && let Some(result) = kept_row(table, roll_table, dice, &ignoring.value)?
                    {
                        too_deep(table, depth + 1)?;
                        let again =
                            resolve_at_depth(table, roll_table, find, dice, depth + 1, result)?;
                        rerolls.push(RerollStep::Kept { roll: again });
                        continue;
                    }
                    loop {
                        too_deep(table, depth + 1)?;
                        // An ignored result is only read, not done: its own rerolls
                        // and tables are not rolled.
                        let result = roll_die(table, roll_table, dice)?;
                        if ignoring.value.contains(result) {
                            rerolls.push(RerollStep::Ignored { result });
                        } else {
                            let again =
                                resolve_at_depth(table, roll_table, find, dice, depth + 1, result)?;
                            rerolls.push(RerollStep::Kept { roll: again });
                            break;
                        }
                    }
                }
            }
            Action::RollTable { table: other } => {
                if let Some(other) = find(&other.value) {
                    rolled_tables.push(roll_at_depth(other, find, dice, depth + 1, 0)?);
                }
            }
            _ => {}
        }
    }
    Ok(RollOnTable {
        table,
        roll_table,
        die: &roll_table.die.value,
        result,
        row,
        rerolls,
        rolled_tables,
    })
}

/// The row covering `result`. A result modified past the ends of the die (an NPC's armour
/// subtracted from the roll, damage added to it) reads the first or the last row.
pub fn row_for(table: &RollTable, result: i64) -> usize {
    if let Some(index) = table.rows.iter().position(|row| row.range.contains(result)) {
        return index;
    }
    let lowest = (0..table.rows.len()).min_by_key(|&i| table.rows[i].range.low);
    let highest = (0..table.rows.len()).max_by_key(|&i| table.rows[i].range.high);
    match (lowest, highest) {
        (Some(low), _) if result < table.rows[low].range.low => low,
        (_, Some(high)) => high,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::GivenDie;
    use crate::parse::parse_tables;
    use crate::source::SourceFile;

    /// A fumble table whose last two rows roll again, ignoring 19 and 20.
    fn fumble_table() -> crate::tables::TableFile {
        let file = SourceFile::new(
            "fumbles.tables",
            "table fumble roll 1d20 { 1-10 falter  11-18 drop  \
             19 unlucky => reroll 2 times ignoring 19-20  \
             20 doomed => reroll 3 times ignoring 19-20 }",
        );
        parse_tables(&file).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Rows that roll again: "Roll twice, ignoring any rolls of 19 or 20." An
    /// ignored 20 (Doomed) is only read: its own three rerolls are not rolled, so the
    /// dice after it are the Unlucky row's two rerolls.
    #[test]
    fn an_ignored_result_does_not_do_its_own_rerolls() {
        let tables = fumble_table();
        let given = [19, 20, 1, 12].map(|value| GivenDie {
            value,
            origin: String::new(),
            label: None,
        });
        let mut dice = DiceSource::given(given);
        let rolled = roll_on_table_adjusted(&tables.tables[0], &|_| None, &mut dice, 0).unwrap();
        assert_eq!(rolled.result, 19);
        let steps: Vec<String> = rolled
            .rerolls
            .iter()
            .map(|step| match step {
                RerollStep::Ignored { result } => format!("ignored {result}"),
                RerollStep::Kept { roll } => format!("kept {}", roll.result),
            })
            .collect();
        assert_eq!(steps, ["ignored 20", "kept 1", "kept 12"]);
    }

    /// In an enumeration, a reroll ignoring 19-20 is one draw by the row kept, each row
    /// weighing its results that are not ignored (rolling until one is kept gives each
    /// of the eighteen its own chance): no ignored result is drawn, so the walk ends.
    #[test]
    fn an_enumeration_draws_a_reroll_by_the_row_kept() {
        let tables = fumble_table();
        // The first draw is the row (unlucky is the third), then each reroll's row.
        let mut dice = DiceSource::planned(vec![3, 2, 1], 0).traced();
        let rolled = roll_on_table_adjusted(&tables.tables[0], &|_| None, &mut dice, 0).unwrap();
        assert_eq!(rolled.result, 19);
        let weights: Vec<Vec<u64>> = dice.trace().iter().map(|d| d.weights.clone()).collect();
        assert_eq!(weights, [vec![10, 8, 1, 1], vec![10, 8], vec![10, 8]]);
        let kept: Vec<i64> = rolled
            .rerolls
            .iter()
            .map(|step| match step {
                RerollStep::Kept { roll } => roll.result,
                RerollStep::Ignored { .. } => panic!("an ignored result was drawn"),
            })
            .collect();
        assert_eq!(kept, [11, 1]);
    }
}
