//! Problems a parser cannot see: ranges that do not cover their die, duplicates,
//! rows that do not fit their header.

use std::sync::Arc;

use miette::{Diagnostic, NamedSource, SourceSpan};
use thiserror::Error;

#[derive(Debug, Error, Diagnostic)]
pub enum TableProblem {
    /// `table t roll 1d20 { 1-18 a  20 b }`: nothing covers 19.
    #[error("`{table}` does not cover {missing} of its die {die}")]
    #[diagnostic(
        code(affray::table::range_gap),
        help(
            "every result of the die needs exactly one row: add a row for {missing} or widen a neighbouring row"
        )
    )]
    RangeGap {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("this {die} can roll {missing}, which no row covers")]
        span: SourceSpan,
        table: String,
        die: String,
        missing: String,
    },

    /// `table t roll 1d20 { 1-10 a  8-20 b }`: 8-10 are covered twice.
    #[error("{doubled} of `{table}` are covered by two rows, `{row}` and `{first}`")]
    #[diagnostic(
        code(affray::table::range_overlap),
        help("every result of the die needs exactly one row: narrow one of the two ranges")
    )]
    RangeOverlap {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("{doubled} covered here")]
        span: SourceSpan,
        #[label("and first here")]
        first_span: SourceSpan,
        table: String,
        row: String,
        first: String,
        doubled: String,
    },

    /// `table t roll 1d20 { 1-21 a }`: a 1D20 never shows 21.
    #[error("the range {range} of `{table}` lies partly outside its die {die} ({low}-{high})")]
    #[diagnostic(
        code(affray::table::range_outside),
        help("a {die} rolls {low} to {high}; on a d100, write 100 as 00")
    )]
    RangeOutside {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("outside {low}-{high}")]
        span: SourceSpan,
        table: String,
        range: String,
        die: String,
        low: i64,
        high: i64,
    },

    /// `20-19`: the low end comes first.
    #[error("the range {range} runs backwards")]
    #[diagnostic(
        code(affray::table::range_reversed),
        help("write the lower number first, as in {high}-{low}")
    )]
    RangeReversed {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("{low} is above {high}")]
        span: SourceSpan,
        range: String,
        low: i64,
        high: i64,
    },

    /// Two tables, rows, modifiers, effects, keys or columns with one name.
    #[error("{what} `{name}` is defined twice")]
    #[diagnostic(code(affray::table::duplicate), help("{help}"))]
    Duplicate {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("defined again here")]
        span: SourceSpan,
        #[label("first defined here")]
        first_span: Option<SourceSpan>,
        what: &'static str,
        name: String,
        help: String,
    },

    /// A matrix or look-up row with more or fewer cells than the header has columns.
    #[error("this row of `{table}` has {found} cells, but the header has {expected} columns")]
    #[diagnostic(
        code(affray::table::cell_count),
        help("give every row one cell per column; write - for an empty cell")
    )]
    CellCount {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("{found} cells")]
        span: SourceSpan,
        #[label("{expected} columns")]
        header_span: SourceSpan,
        table: String,
        found: usize,
        expected: usize,
    },

    /// `| critical | atacker 1 |` in a matrix whose axes are attacker and defender.
    #[error("`{side}` is not a side of `{table}`")]
    #[diagnostic(
        code(affray::table::unknown_side),
        help("a winner cell names one of the axes: {axes}")
    )]
    UnknownSide {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("not an axis of this matrix")]
        span: SourceSpan,
        side: String,
        table: String,
        axes: String,
    },

    /// Two numeric keys of a look-up or matrix that share values.
    #[error("the keys {key} and {first} of `{table}` overlap")]
    #[diagnostic(
        code(affray::table::key_overlap),
        help("a value must select exactly one row: make the ranges disjoint")
    )]
    KeyOverlap {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("this key")]
        span: SourceSpan,
        #[label("overlaps this one")]
        first_span: SourceSpan,
        table: String,
        key: String,
        first: String,
    },

    /// `reroll 2 times ignoring 1-20` on a 1D20 could never stop.
    #[error("`reroll ... ignoring {range}` ignores every result of {die}: it would never stop")]
    #[diagnostic(
        code(affray::table::reroll_everything),
        help("ignore only some results, such as 19-20")
    )]
    RerollEverything {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("every result of {die}")]
        span: SourceSpan,
        range: String,
        die: String,
    },

    /// An effect that is neither offensive nor defensive can never be chosen.
    #[error("the effect `{name}` is neither offensive nor defensive")]
    #[diagnostic(
        code(affray::table::effect_side),
        help("add `offensive`, `defensive` or both")
    )]
    EffectSide {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("who may choose it?")]
        span: SourceSpan,
        name: String,
    },

    /// `x1/0`.
    #[error("a multiplier cannot divide by zero")]
    #[diagnostic(code(affray::table::divide_by_zero), help("write x1/2 for half"))]
    DivideByZero {
        #[source_code]
        src: NamedSource<Arc<str>>,
        #[label("divides by zero")]
        span: SourceSpan,
    },
}
