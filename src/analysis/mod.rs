//! Analysis of a ruleset across many fights: counting what a fight amounts to
//! (`figures`), running fights in parallel with per-fight seeds (`run`), reports of one
//! ruleset (`simulate`) and of two side by side (`compare`), and the statistics they use.

pub mod compare;
pub mod exchange;
pub mod figures;
pub mod odds;
pub mod run;
pub mod simulate;
pub mod stats;
