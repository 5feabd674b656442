//! Analysis of rulesets: counting what a fight amounts to (`figures`), running fights in
//! parallel with per-fight seeds (`run`), reports of one ruleset (`simulate`) and of two
//! side by side (`compare`), one exchange (`exchange`) and its enumerated `odds`, the
//! statistics they use (`stats`), and which rows differ between two rulesets (`diff`).

pub mod compare;
pub mod diff;
pub mod exchange;
pub mod fight_odds;
pub mod figures;
pub mod odds;
pub mod run;
pub mod simulate;
pub mod snapshot;
pub mod stats;
pub mod sweep;
pub mod verdict;
