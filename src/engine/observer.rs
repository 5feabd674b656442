//! Watching a fight as it runs: every event as it is emitted, and the points where a turn
//! or a round is over (a live view prints the one, a state file is saved at the other).

use crate::log::Event;

use super::FightHandle;

/// What has just been resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resolved {
    /// The turn of this combatant (by index) is over.
    Turn(usize),
    /// This round is over (its end-of-round hook ran, its timers ticked).
    Round(u32),
}

/// Told of a fight's progress. Called with the fight's state unlocked, so it may read
/// [`FightHandle::core`]; it must not act on the fight.
pub trait FightObserver: Send {
    fn event(&mut self, _fight: &FightHandle, _event: &Event) {}
    fn resolved(&mut self, _fight: &FightHandle, _what: Resolved) {}
}
