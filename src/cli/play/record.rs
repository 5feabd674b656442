//! The state file of a fight: not a memory dump but its input record. A fight is fully
//! determined by its scenario, its ruleset, and the dice and choices that went into it,
//! so those are what is saved (JSON), with where each resolved turn or round ended; a
//! resume replays them through the engine.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The first key of every state file, so that a file which is not one is recognised.
const FORMAT: &str = "affray fight record 1";

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Record {
    pub format: String,
    /// The scenario file, as an absolute path.
    pub scenario: PathBuf,
    /// The ruleset directory given with --ruleset, if any (else the scenario's own).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ruleset: Option<PathBuf>,
    /// The seed of the dice affray rolls.
    pub seed: u64,
    /// The automation dial, as `STEP=LEVEL` settings.
    #[serde(default)]
    pub dials: Vec<String>,
    /// Every die and choice, in the order the fight asked for them.
    pub inputs: Vec<Input>,
    /// How many inputs had been given when each resolved turn or round ended.
    pub resolved: Vec<usize>,
    #[serde(default)]
    pub finished: bool,
    /// The status view when saved, for a person reading the file; not read back.
    #[serde(default)]
    pub status: Vec<String>,
}

/// One input of the fight.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "input", rename_all = "snake_case")]
pub enum Input {
    Die {
        sides: u32,
        purpose: String,
        value: u32,
        /// `table` (typed in) or `affray` (rolled by affray).
        by: String,
        /// The value affray's dice drew for this die, when they were used (rolled, or
        /// rolled as a suggestion and then overridden): a replay draws it again.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        drawn: Option<u32>,
    },
    Choice {
        who: String,
        decision: String,
        options: Vec<String>,
        chosen: String,
        by: String,
    },
}

impl Input {
    /// One line for a person: what was asked and what was given.
    pub fn describe(&self) -> String {
        match self {
            Input::Die {
                sides,
                purpose,
                value,
                ..
            } => format!("1D{sides} {purpose} → {value}"),
            Input::Choice {
                who,
                decision,
                options,
                chosen,
                ..
            } => format!("{who}'s {decision}: {chosen} (of {})", options.join(", ")),
        }
    }
}

impl Record {
    pub fn new(scenario: PathBuf, ruleset: Option<PathBuf>, seed: u64) -> Self {
        Record {
            format: FORMAT.into(),
            scenario,
            ruleset,
            seed,
            dials: Vec::new(),
            inputs: Vec::new(),
            resolved: Vec::new(),
            finished: false,
            status: Vec::new(),
        }
    }

    /// The inputs up to the last resolved turn or round; what came after is dropped
    /// (the action in progress is played again).
    pub fn completed(&self) -> &[Input] {
        let end = self.resolved.last().copied().unwrap_or(0);
        self.inputs.get(..end).unwrap_or(&self.inputs)
    }

    /// Drop the action in progress and the last resolved one that took an input (a
    /// round's end that asked nothing is not worth an undo of its own): the inputs of
    /// the action taken back, `None` if none was resolved.
    pub fn undo(&mut self) -> Option<Vec<Input>> {
        let &end = self.resolved.last()?;
        while self.resolved.pop().is_some() {
            if self.resolved.last().copied().unwrap_or(0) < end {
                break;
            }
        }
        let start = self.resolved.last().copied().unwrap_or(0);
        let taken_back = self.inputs.get(start..end).unwrap_or_default().to_vec();
        self.inputs.truncate(start);
        self.finished = false;
        Some(taken_back)
    }

    /// Read a state file; the reason when it is not one.
    pub fn load(path: &Path) -> Result<Record, String> {
        let text = fs::read_to_string(path)
            .map_err(|error| format!("cannot read {}: {error}", path.display()))?;
        let record: Record = serde_json::from_str(&text)
            .map_err(|error| format!("{} is not an affray state file: {error}", path.display()))?;
        if record.format != FORMAT {
            return Err(format!(
                "{} is not an affray state file (its format is `{}`)",
                path.display(),
                record.format
            ));
        }
        record.check().map_err(|reason| {
            format!(
                "{} is not a consistent affray state file: {reason}",
                path.display()
            )
        })?;
        Ok(record)
    }

    /// Whether the places where turns ended fit the inputs: in order, none past the last
    /// input (a file edited by hand, or cut short).
    fn check(&self) -> Result<(), String> {
        let inputs = self.inputs.len();
        if let Some(&end) = self.resolved.iter().find(|&&end| end > inputs) {
            return Err(format!(
                "`resolved` says a turn ended after input {end}, but the file has {inputs} input{}",
                if inputs == 1 { "" } else { "s" }
            ));
        }
        if self.resolved.windows(2).any(|pair| pair[0] > pair[1]) {
            return Err("`resolved` is not in increasing order".into());
        }
        Ok(())
    }

    /// Write atomically: a temporary file beside it, then a rename, so that a crash
    /// leaves either the old file or the new one, never half of one.
    pub fn save(&self, path: &Path) -> io::Result<()> {
        let mut temporary = path.as_os_str().to_owned();
        temporary.push(".tmp");
        let temporary = PathBuf::from(temporary);
        let text = serde_json::to_string_pretty(self).map_err(io::Error::other)?;
        fs::write(&temporary, text + "\n")?;
        fs::rename(&temporary, path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn die(value: u32) -> Input {
        Input::Die {
            sides: 10,
            purpose: "initiative".into(),
            value,
            by: "table".into(),
            drawn: None,
        }
    }

    #[test]
    fn undo_drops_the_action_in_progress_and_the_last_one() {
        let mut record = Record::new("duel.toml".into(), None, 1);
        record.inputs = (1..=5).map(die).collect();
        record.resolved = vec![2, 4];
        assert_eq!(record.completed().len(), 4);
        let taken_back = record.undo().expect("an action to undo");
        assert_eq!(taken_back.len(), 2, "the inputs 3 and 4");
        assert_eq!(record.inputs.len(), 2);
        assert!(record.undo().is_some());
        assert!(record.inputs.is_empty());
        assert!(record.undo().is_none());
    }

    #[test]
    fn undo_skips_a_round_end_that_asked_nothing() {
        let mut record = Record::new("duel.toml".into(), None, 1);
        record.inputs = (1..=4).map(die).collect();
        record.resolved = vec![2, 4, 4];
        assert!(record.undo().is_some());
        assert_eq!(record.resolved, [2]);
        assert_eq!(record.inputs.len(), 2);
    }

    #[test]
    fn saved_and_loaded_alike() {
        let dir = std::env::temp_dir().join(format!("affray-record-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("duel.fight.json");
        let mut record = Record::new("duel.toml".into(), None, 7);
        record.inputs = vec![die(3)];
        record.save(&path).unwrap();
        let loaded = Record::load(&path).unwrap();
        assert_eq!(loaded.inputs, record.inputs);
        assert!(!dir.join("duel.fight.json.tmp").exists());
        fs::write(&path, "{}").unwrap();
        assert!(
            Record::load(&path)
                .unwrap_err()
                .contains("not an affray state file")
        );
        let _ = fs::remove_dir_all(&dir);
    }
}
