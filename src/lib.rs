//! affray runs tabletop role-playing combat from rule files.
//!
//! A game system is a ruleset directory (tables in the table language, rhai scripts,
//! TOML settings and equipment); this library reads, checks and runs it. See
//! ARCHITECTURE.md for the stages and where each lives.

// Nothing a user writes may make affray panic: no `unwrap` outside tests (clippy.toml).
#![warn(clippy::unwrap_used)]

pub mod analysis;
pub mod dice;
pub mod engine;
pub mod expr;
pub mod log;
pub mod names;
pub mod parse;
pub mod ruleset;
pub mod scenario;
pub mod script;
pub mod source;
pub mod tables;
