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
        let tactics =
            ScriptedChooser::new(&self.scenario.choices, TacticsChooser::new(&self.ruleset));
        let chooser = Focus {
            attacker: self.attacker,
            defender: self.defender_name().to_string(),
            action: self.action.clone(),
            fallback: tactics,
        };
        let setup = FightSetup {
            dice: dice.traced(),
            chooser: Box::new(chooser),
            log: Log::Full,
            observer: None,
        };
        let fight = FightHandle::new(Arc::clone(&self.ruleset), &self.scenario, setup)?;
        fight.run_one_turn(self.attacker)?;
        let events = fight.take_events();
        if let Some(action) = &self.action {
            self.check_action(action, &events)?;
        }
        let mut figures = FightFigures::of_events(&events);
        let defender = self.defender_name();
        let mut damage = 0;
        for event in &events {
            match event {
                Event::Damage { who, amount, .. } if who == defender => damage += amount,
                Event::Test {
                    who, test, result, ..
                } => figures.add(Section::TestsBy, &format!("{who} {test}: {result}"), 1),
                _ => {}
            }
        }
        figures.add(
            Section::Exchange,
            &format!("{defender} hit"),
            i64::from(damage > 0),
        );
        figures.add(Section::Exchange, &format!("damage to {defender}"), damage);
        figures.rounds = 1;
        Ok((figures, fight.dice_trace()))
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
