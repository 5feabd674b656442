//! Tables: the typed model of the table language, the checks a parser cannot make, and
//! rolling on a roll table.

pub mod model;
mod problem;
mod roll;
mod validate;

pub use model::*;
pub use problem::TableProblem;
pub use roll::{
    MAX_DEPTH, RerollStep, RollOnTable, TableRollError, roll_on_table, roll_on_table_adjusted,
    row_for,
};
pub use validate::validate_file;
