//! One exchange: the attacker's first turn against the defender at the start of the
//! scenario (`FightHandle::run_one_turn`), counted like a fight plus what it did to the
//! defender. `odds` enumerates its dice; `simulate --exchange` samples it.

use std::sync::Arc;

use crate::dice::{DiceSource, RolledDie};
use crate::engine::{Chooser, Decision, FightError, FightHandle, FightSetup, Log, ScriptedChooser};
use crate::log::Event;
use crate::names::Name;
use crate::ruleset::Ruleset;
use crate::scenario::Scenario;
use crate::script::TacticsChooser;

use super::figures::{FightFigures, Section};

/// Who attacks whom, and with which action if not the tactics' choice.
#[derive(Clone, Debug)]
pub struct Exchange {
    pub ruleset: Arc<Ruleset>,
    pub scenario: Scenario,
    pub attacker: usize,
    pub defender: usize,
    pub action: Option<String>,
}

/// A name the scenario does not have, or two combatants of one side.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum ExchangeError {
    #[error("the scenario has no combatant named `{name}`")]
    #[diagnostic(code(affray::usage::unknown_combatant), help("combatants: {known}"))]
    Unknown { name: String, known: String },
    #[error("{attacker} and {defender} are on the same side")]
    #[diagnostic(
        code(affray::usage::same_side),
        help("name a defender of another side with --defender")
    )]
    SameSide { attacker: String, defender: String },
    #[error("the scenario has no two sides to fight")]
    #[diagnostic(code(affray::odds::one_side))]
    OneSide,
}

impl Exchange {
    /// The attacker and defender by name; by default the first combatant attacks the
    /// first combatant of another side.
    pub fn new(
        ruleset: Arc<Ruleset>,
        scenario: Scenario,
        attacker: Option<&str>,
        defender: Option<&str>,
        action: Option<String>,
    ) -> Result<Self, ExchangeError> {
        let combatants = &scenario.combatants;
        let find = |name: &str| {
            combatants
                .iter()
                .position(|c| c.name == name)
                .ok_or_else(|| ExchangeError::Unknown {
                    name: name.to_string(),
                    known: combatants
                        .iter()
                        .map(|c| c.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                })
        };
        let attacker = match attacker {
            Some(name) => find(name)?,
            None => 0,
        };
        let side = &combatants.get(attacker).ok_or(ExchangeError::OneSide)?.side;
        let defender = match defender {
            Some(name) => find(name)?,
            None => combatants
                .iter()
                .position(|c| c.side != *side)
                .ok_or(ExchangeError::OneSide)?,
        };
        if combatants[defender].side == *side {
            return Err(ExchangeError::SameSide {
                attacker: combatants[attacker].name.to_string(),
                defender: combatants[defender].name.to_string(),
            });
        }
        Ok(Exchange {
            ruleset,
            scenario,
            attacker,
            defender,
            action,
        })
    }

    pub fn attacker_name(&self) -> &str {
        &self.scenario.combatants[self.attacker].name
    }

    pub fn defender_name(&self) -> &str {
        &self.scenario.combatants[self.defender].name
    }

    /// Run the exchange with these dice; what it amounts to and the dice it rolled.
    pub fn run(&self, dice: DiceSource) -> Result<(FightFigures, Vec<RolledDie>), FightError> {
        let played = self.play(dice)?;
        Ok((played.figures, played.trace))
    }

    /// Run the exchange with these dice: what it amounts to, what it did to the defender
    /// (read from the typed events) and the dice it rolled.
    pub fn play(&self, dice: DiceSource) -> Result<Played, FightError> {
        let tactics = ScriptedChooser::new(
            &self.scenario.choices,
            TacticsChooser::new(&self.ruleset.rules),
        );
        let chooser = Focus {
            attacker: self.attacker,
            defender: self.defender_name().to_string(),
            action: self.action.clone(),
            fallback: tactics,
        };
        let setup = FightSetup {
            dice: dice.traced(),
            chooser: Box::new(chooser),
            log: Log::Outcomes,
            observer: None,
        };
        let fight = FightHandle::new(Arc::clone(&self.ruleset.rules), &self.scenario, setup)?;
        fight.run_one_turn(self.attacker)?;
        let events = fight.take_events();
        if let Some(action) = &self.action {
            self.check_action(action, &events)?;
        }
        let mut figures = FightFigures::of_events(&events);
        let defender = self.defender_name();
        for event in &events {
            if let Event::Test {
                who, test, result, ..
            } = event
            {
                figures.add(Section::TestsBy, &format!("{who} {test}: {result}"), 1);
            }
        }
        let harm = Harm::of_events(&events, defender);
        figures.add(
            Section::Exchange,
            &format!("{defender} takes damage"),
            i64::from(harm.damage > 0),
        );
        figures.add(
            Section::Exchange,
            &format!("damage to {defender}"),
            harm.damage,
        );
        figures.add(
            Section::Exchange,
            &format!("{defender} wounded"),
            i64::from(!harm.wounds.is_empty()),
        );
        for level in &harm.wounds {
            figures.add(
                Section::Exchange,
                &format!("{defender} wounded: {level}"),
                1,
            );
        }
        figures.rounds = 1;
        Ok(Played {
            figures,
            harm,
            trace: fight.dice_trace(),
        })
    }
}

impl Exchange {
    /// `--action` was the attacker's action. A decision with one option is logged
    /// without asking the chooser, so the log, not the chooser, tells whether the action
    /// asked for was taken.
    fn check_action(&self, action: &str, events: &[Event]) -> Result<(), FightError> {
        let who = self.attacker_name();
        let chosen = events.iter().find_map(|event| match event {
            Event::Choice {
                who: chooser,
                decision,
                options,
                chosen,
                ..
            } if *chooser == who && *decision == "action" => Some((options, chosen)),
            _ => None,
        });
        match chosen {
            None => Err(FightError::ActionNotAsked {
                who: who.to_string(),
                chosen: action.to_string(),
            }),
            Some((options, chosen)) if *chosen != action => Err(FightError::ActionNotOffered {
                who: who.to_string(),
                chosen: action.to_string(),
                options: crate::names::join(options, ", "),
            }),
            Some(_) => Ok(()),
        }
    }
}

/// One exchange played: its figures, what it did to the defender, the dice it rolled.
#[derive(Clone, Debug)]
pub struct Played {
    pub figures: FightFigures,
    pub harm: Harm,
    pub trace: Vec<RolledDie>,
}

/// What one exchange did to the defender, from the typed events.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Harm {
    /// Hit points the defender lost. A ruleset that keeps a `total` pool beside its
    /// locations may take a blow from a location and from the pool as well (or from the
    /// pool alone): the blow is counted once, as the larger of the two.
    pub damage: i64,
    /// The wound levels the defender took (each once, in the order first taken).
    pub wounds: Vec<Name>,
}

impl Harm {
    pub fn of_events(events: &[Event], defender: &str) -> Harm {
        let (mut pool, mut locations) = (0, 0);
        let mut wounds: Vec<Name> = Vec::new();
        for event in events {
            match event {
                Event::Damage {
                    who,
                    location,
                    amount,
                    ..
                } if *who == defender => {
                    if *location == "total" {
                        pool += amount;
                    } else {
                        locations += amount;
                    }
                }
                Event::Wound { who, level, .. } if *who == defender && !wounds.contains(level) => {
                    wounds.push(*level);
                }
                _ => {}
            }
        }
        Harm {
            damage: pool.max(locations),
            wounds,
        }
    }
}

/// The attacker's choices aim at the defender: any decision of the attacker that offers
/// the defender's name takes it; `action` (when given) answers the attacker's `action`
/// decision. Everything else by the scenario's choices and the tactics.
struct Focus<C> {
    attacker: usize,
    defender: String,
    action: Option<String>,
    fallback: C,
}

impl<C: Chooser> Chooser for Focus<C> {
    fn choose(
        &mut self,
        fight: &FightHandle,
        decision: &Decision,
    ) -> Result<(Name, &'static str), FightError> {
        if decision.who == self.attacker {
            if let Some(action) = self.action.as_ref().filter(|_| decision.name == "action") {
                if let Some(offered) = decision.options.iter().find(|o| *o == action) {
                    return Ok((*offered, "asked for"));
                }
                return Err(FightError::ActionNotOffered {
                    who: decision.who_name.to_string(),
                    chosen: action.clone(),
                    options: crate::names::join(&decision.options, ", "),
                });
            }
            if let Some(offered) = decision.options.iter().find(|o| **o == self.defender) {
                return Ok((*offered, "asked for"));
            }
        }
        self.fallback.choose(fight, decision)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn damage(who: &str, location: &str, amount: i64) -> Event {
        Event::Damage {
            who: Name::new(who),
            location: Name::new(location),
            amount,
            hit_points: 0,
        }
    }

    fn wound(who: &str, level: &str) -> Event {
        Event::Wound {
            who: Name::new(who),
            location: None,
            level: Name::new(level),
        }
    }

    /// A blow taken from a location and from a `total` pool beside the locations is one
    /// blow: its damage is counted once.
    #[test]
    fn a_blow_to_a_location_and_to_the_pool_beside_it_counts_once() {
        let events = [damage("Bryn", "chest", 5), damage("Bryn", "total", 5)];
        assert_eq!(Harm::of_events(&events, "Bryn").damage, 5);
        // The pool alone (3d6 hex), or a location alone, is the damage as it is.
        assert_eq!(
            Harm::of_events(&[damage("Bryn", "total", 7)], "Bryn").damage,
            7
        );
        assert_eq!(
            Harm::of_events(&[damage("Bryn", "head", 3)], "Bryn").damage,
            3
        );
        // Two blows to two locations add up; the pool drained by both is the same sum.
        let two = [
            damage("Bryn", "head", 3),
            damage("Bryn", "total", 3),
            damage("Bryn", "left_arm", 4),
            damage("Bryn", "total", 4),
        ];
        assert_eq!(Harm::of_events(&two, "Bryn").damage, 7);
        // The attacker's own damage is not the defender's.
        let both = [damage("Aldric", "total", 9), damage("Bryn", "total", 2)];
        assert_eq!(Harm::of_events(&both, "Bryn").damage, 2);
    }

    #[test]
    fn the_wound_levels_of_the_defender_each_once() {
        let events = [
            wound("Bryn", "stunned"),
            wound("Aldric", "dead"),
            wound("Bryn", "wounded"),
            wound("Bryn", "stunned"),
        ];
        let harm = Harm::of_events(&events, "Bryn");
        assert_eq!(
            harm.wounds,
            vec![Name::new("stunned"), Name::new("wounded")]
        );
        assert_eq!(harm.damage, 0);
    }
}
