//! Checks of one tables file that need no other file: coverage of roll tables, duplicate
//! names, row shapes. References to other files are checked by the ruleset resolver.

use std::collections::HashMap;

use crate::source::{SourceFile, Span, Spanned};

use super::model::*;
use super::problem::TableProblem;

/// Every problem of the tables of one file, in file order.
pub fn validate_file(file: &SourceFile, tables: &TableFile) -> Vec<TableProblem> {
    let mut problems = Vec::new();
    for table in &tables.tables {
        let check = Check {
            file,
            table: &table.name.value,
        };
        match &table.kind {
            TableKind::Roll(roll) => check.roll_table(roll, &mut problems),
            TableKind::Matrix(matrix) => check.matrix(matrix, &mut problems),
            TableKind::Modifiers(list) => check.modifiers(list, &mut problems),
            TableKind::Lookup(lookup) => check.lookup(lookup, &mut problems),
            TableKind::Effects(list) => check.effects(list, &mut problems),
        }
    }
    problems
}

struct Check<'a> {
    file: &'a SourceFile,
    table: &'a str,
}

impl Check<'_> {
    fn roll_table(&self, table: &RollTable, problems: &mut Vec<TableProblem>) {
        let (low, high) = (table.die.min(), table.die.max());
        let die = table.die.to_string();
        // owner[v - low] is the index of the row covering v.
        let mut owner: Vec<Option<usize>> = vec![None; (high - low + 1) as usize];
        for (index, row) in table.rows.iter().enumerate() {
            let range = row.range.value;
            if range.low > range.high {
                problems.push(TableProblem::RangeReversed {
                    src: self.file.named(),
                    span: row.range.span.into(),
                    range: range.to_string(),
                    low: range.low,
                    high: range.high,
                });
                continue;
            }
            if range.low < low || range.high > high {
                problems.push(TableProblem::RangeOutside {
                    src: self.file.named(),
                    span: row.range.span.into(),
                    table: self.table.to_string(),
                    range: range.to_string(),
                    die: die.clone(),
                    low,
                    high,
                });
            }
            let mut doubled: Vec<(usize, i64)> = Vec::new();
            for value in range.low.max(low)..=range.high.min(high) {
                let slot = &mut owner[(value - low) as usize];
                match slot {
                    Some(first) => doubled.push((*first, value)),
                    None => *slot = Some(index),
                }
            }
            for (first, values) in group_by_first(doubled) {
                problems.push(TableProblem::RangeOverlap {
                    src: self.file.named(),
                    span: row.range.span.into(),
                    first_span: table.rows[first].range.span.into(),
                    table: self.table.to_string(),
                    row: row.name.value.clone(),
                    first: table.rows[first].name.value.clone(),
                    doubled: describe_values(&values),
                });
            }
            for action in &row.actions {
                if let Action::Reroll { ignoring, .. } = &action.value
                    && ignoring.low <= low
                    && ignoring.high >= high
                {
                    problems.push(TableProblem::RerollEverything {
                        src: self.file.named(),
                        span: ignoring.span.into(),
                        range: ignoring.value.to_string(),
                        die: die.clone(),
                    });
                }
            }
        }
        let missing: Vec<i64> = owner
            .iter()
            .enumerate()
            .filter(|(_, owner)| owner.is_none())
            .map(|(offset, _)| low + offset as i64)
            .collect();
        if !missing.is_empty() {
            problems.push(TableProblem::RangeGap {
                src: self.file.named(),
                span: table.die.span.into(),
                table: self.table.to_string(),
                die,
                missing: describe_values(&missing),
            });
        }
        self.unique("row", table.rows.iter().map(|row| &row.name), problems);
    }

    fn matrix(&self, matrix: &Matrix, problems: &mut Vec<TableProblem>) {
        self.unique_keys("column", matrix.columns.iter(), problems);
        self.unique_keys("row", matrix.rows.iter().map(|row| &row.key), problems);
        let header_span = span_of(matrix.columns.iter().map(|c| c.span));
        let axes = [&matrix.rows_axis.name.value, &matrix.cols_axis.name.value];
        for row in &matrix.rows {
            if row.cells.len() != matrix.columns.len() {
                problems.push(TableProblem::CellCount {
                    src: self.file.named(),
                    span: span_of(row.cells.iter().map(|c| c.span)).into(),
                    header_span: header_span.into(),
                    table: self.table.to_string(),
                    found: row.cells.len(),
                    expected: matrix.columns.len(),
                });
            }
            for cell in &row.cells {
                if let Cell::Wins { side, .. } = &cell.value
                    && !axes.contains(&&side.value)
                {
                    problems.push(TableProblem::UnknownSide {
                        src: self.file.named(),
                        span: side.span.into(),
                        side: side.value.clone(),
                        table: self.table.to_string(),
                        axes: format!("{} or {}", axes[0], axes[1]),
                    });
                }
            }
        }
    }

    fn modifiers(&self, list: &ModifierList, problems: &mut Vec<TableProblem>) {
        let groups = list.items.iter().filter_map(|item| match item {
            ModifierItem::Group(group) => Some(&group.group),
            ModifierItem::Single(_) => None,
        });
        let names = list.modifiers().map(|m| &m.name).chain(groups);
        self.unique("modifier", names, problems);
        for modifier in list.modifiers() {
            if let ModifierValue::Multiply { denominator: 0, .. } = modifier.value.value {
                problems.push(TableProblem::DivideByZero {
                    src: self.file.named(),
                    span: modifier.value.span.into(),
                });
            }
        }
    }

    fn lookup(&self, lookup: &Lookup, problems: &mut Vec<TableProblem>) {
        self.unique(
            "column",
            std::iter::once(&lookup.key).chain(&lookup.columns),
            problems,
        );
        self.unique_keys("row", lookup.rows.iter().map(|row| &row.key), problems);
        for row in &lookup.rows {
            if row.cells.len() != lookup.columns.len() {
                problems.push(TableProblem::CellCount {
                    src: self.file.named(),
                    span: row.span.into(),
                    header_span: lookup.header_span.into(),
                    table: self.table.to_string(),
                    found: row.cells.len(),
                    expected: lookup.columns.len(),
                });
            }
        }
    }

    fn effects(&self, list: &EffectList, problems: &mut Vec<TableProblem>) {
        self.unique("effect", list.effects.iter().map(|e| &e.name), problems);
        for effect in &list.effects {
            if !effect.offensive && !effect.defensive {
                problems.push(TableProblem::EffectSide {
                    src: self.file.named(),
                    span: effect.name.span.into(),
                    name: effect.name.value.clone(),
                });
            }
        }
    }

    fn unique<'n>(
        &self,
        what: &'static str,
        names: impl Iterator<Item = &'n Spanned<String>>,
        problems: &mut Vec<TableProblem>,
    ) {
        let mut seen: HashMap<&str, Span> = HashMap::new();
        for name in names {
            if let Some(first) = seen.get(name.value.as_str()) {
                problems.push(self.duplicate(what, &name.value, name.span, *first));
            } else {
                seen.insert(&name.value, name.span);
            }
        }
    }

    /// Keys must be unique names, and numeric keys must not overlap.
    fn unique_keys<'k>(
        &self,
        what: &'static str,
        keys: impl Iterator<Item = &'k Spanned<Key>>,
        problems: &mut Vec<TableProblem>,
    ) {
        let mut seen: Vec<&Spanned<Key>> = Vec::new();
        for key in keys {
            let clash = seen.iter().find(|first| match (&first.value, &key.value) {
                (Key::Name(a), Key::Name(b)) => a == b,
                (Key::Range(a), Key::Range(b)) => a.overlaps(*b),
                _ => false,
            });
            match (clash, &key.value) {
                (Some(first), Key::Name(name)) => {
                    problems.push(self.duplicate(what, name, key.span, first.span));
                }
                (Some(first), Key::Range(_)) => problems.push(TableProblem::KeyOverlap {
                    src: self.file.named(),
                    span: key.span.into(),
                    first_span: first.span.into(),
                    table: self.table.to_string(),
                    key: key.value.to_string(),
                    first: first.value.to_string(),
                }),
                (None, _) => seen.push(key),
            }
        }
    }

    fn duplicate(&self, what: &'static str, name: &str, span: Span, first: Span) -> TableProblem {
        TableProblem::Duplicate {
            src: self.file.named(),
            span: span.into(),
            first_span: Some(first.into()),
            what,
            name: name.to_string(),
            help: format!(
                "names within `{}` must be unique: rename one of them",
                self.table
            ),
        }
    }
}

/// The doubled values of one row, grouped by the earlier row that already covered them.
fn group_by_first(doubled: Vec<(usize, i64)>) -> Vec<(usize, Vec<i64>)> {
    let mut groups: Vec<(usize, Vec<i64>)> = Vec::new();
    for (first, value) in doubled {
        match groups.iter_mut().find(|(row, _)| *row == first) {
            Some((_, values)) => values.push(value),
            None => groups.push((first, vec![value])),
        }
    }
    groups
}

/// `[1, 2, 3, 7, 19, 20]` → "1-3, 7 and 19-20".
pub(crate) fn describe_values(values: &[i64]) -> String {
    let mut runs: Vec<(i64, i64)> = Vec::new();
    for &value in values {
        match runs.last_mut() {
            Some((_, high)) if *high + 1 == value => *high = value,
            _ => runs.push((value, value)),
        }
    }
    let parts: Vec<String> = runs
        .iter()
        .map(|&(low, high)| {
            if low == high {
                low.to_string()
            } else {
                format!("{low}-{high}")
            }
        })
        .collect();
    match parts.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {}", init.join(", "), last),
    }
}

/// The smallest span holding all of `spans`.
fn span_of(spans: impl Iterator<Item = Span>) -> Span {
    spans
        .reduce(|a, b| Span::new(a.start.min(b.start), a.end.max(b.end)))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_tables;

    fn problems(text: &str) -> Vec<String> {
        let file = SourceFile::new("test.tables", text);
        let tables = parse_tables(&file).unwrap_or_else(|e| panic!("{e}"));
        validate_file(&file, &tables)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn describes_runs_of_values() {
        assert_eq!(describe_values(&[1, 2, 3, 7, 19, 20]), "1-3, 7 and 19-20");
        assert_eq!(describe_values(&[4]), "4");
    }

    #[test]
    fn an_exact_cover_has_no_problem() {
        assert!(problems("table t roll 1d20 { 01-03 a  4-19 b  20 c }").is_empty());
        assert!(problems("table t roll 1d100 { 01-95 a  96-00 b }").is_empty());
        assert!(problems("table t roll 3d6 { 3-10 a  11-18 b }").is_empty());
        assert!(problems("table t roll 1d10+10 { 11-15 a  16-20 b }").is_empty());
    }

    #[test]
    fn gaps_overlaps_and_outsiders_are_named() {
        assert_eq!(
            problems("table t roll 1d20 { 1-3 a  5-10 b  8-18 c }"),
            [
                "8-10 of `t` are covered by two rows, `c` and `b`",
                "`t` does not cover 4 and 19-20 of its die 1D20"
            ]
        );
        assert_eq!(
            problems("table t roll 1d6 { 1-7 a }"),
            ["the range 1-7 of `t` lies partly outside its die 1D6 (1-6)"]
        );
        assert_eq!(problems("table t roll 1d6 { 6-1 a }").len(), 2);
    }

    #[test]
    fn duplicates_in_every_kind_are_found() {
        assert_eq!(
            problems("table t roll 1d2 { 1 a  2 a }"),
            ["row `a` is defined twice"]
        );
        assert_eq!(
            problems("modifiers m { a +1%  group g { a -1% } }"),
            ["modifier `a` is defined twice"]
        );
        assert_eq!(
            problems("effects e { x offensive  x defensive }"),
            ["effect `x` is defined twice"]
        );
        assert_eq!(
            problems("lookup l { | k | v |  | 1-5 | 1 |  | 5+ | 2 | }"),
            ["the keys 5+ and 1-5 of `l` overlap"]
        );
    }

    #[test]
    fn matrix_rows_must_fit_the_header_and_name_a_side() {
        let text = "matrix m rows defender cols attacker {
            |   | a          | b |
            | a | attacker 1 |
            | b | atacker 2  | - |
        }";
        assert_eq!(
            problems(text),
            [
                "this row of `m` has 1 cells, but the header has 2 columns",
                "`atacker` is not a side of `m`"
            ]
        );
    }

    #[test]
    fn a_reroll_that_ignores_everything_is_refused() {
        assert_eq!(
            problems("table t roll 1d4 { 1-4 a => reroll 2 times ignoring 1-4 }"),
            ["`reroll ... ignoring 1-4` ignores every result of 1D4: it would never stop"]
        );
    }
}
