//! What a ruleset's scripts may read and do in a fight. Each primitive checks its
//! arguments and logs what it changes; errors are messages for the script's author
//! (the script module turns them into script errors with the script's position).

use crate::dice::DiceExpr;
use crate::engine::model::{Armour, Weapon};
use crate::engine::model::{Skill, Statistic};
use crate::log::Event;
use crate::names::Name;
use crate::parse::parse_dice;
use crate::source::SourceFile;
use crate::tables::{
    Action, ActionExpr, Amount, Cell, Duration, DurationUnit, Key, Length, ModifierValue, RollRow,
    Table, TableKind, Value, roll_on_table_adjusted,
};

use super::state::{ActiveCondition, Location, Remaining, WeaponPlace};
use super::{Core, FightError, FightHandle};

/// A primitive's failure: a message for the script's author.
pub type Primitive<T> = Result<T, String>;

/// A row rolled on a table, as scripts see it: the result read and the row it selected.
#[derive(Clone, Copy, Debug)]
pub struct RowRolled<'r> {
    pub result: i64,
    pub row: &'r RollRow,
}

impl<'r> RowRolled<'r> {
    /// The row's name.
    pub fn name(&self) -> &'r str {
        &self.row.name.value
    }

    /// The row's label, or its name when it has none.
    pub fn label(&self) -> &'r str {
        self.row.display_label()
    }
}

/// A script function to call because a table row says so, and its arguments.
#[derive(Clone, Debug)]
pub struct ScriptCall {
    pub module: String,
    pub function: String,
    pub args: Vec<Value>,
}

impl FightHandle {
    pub fn who(&self, who: i64) -> Primitive<usize> {
        let count = self.core().combatants.len();
        usize::try_from(who)
            .ok()
            .filter(|&w| w < count)
            .ok_or_else(|| format!("no combatant {who} (there are {count}, numbered from 0)"))
    }

    pub fn round(&self) -> i64 {
        i64::from(self.core().round)
    }

    pub fn name(&self, who: usize) -> Name {
        self.core().combatants[who].spec.name
    }

    pub fn side(&self, who: usize) -> Name {
        self.core().combatants[who].spec.side
    }

    pub fn combatant_count(&self) -> usize {
        self.core().combatants.len()
    }

    pub fn is_out(&self, who: usize) -> bool {
        self.core().combatants[who].out
    }

    /// Whether `who` is out of the fight now, by the ruleset's rule (`combat.toml`'s
    /// `out_of_fight`, else the `out_of_fight` hook): what the engine will judge after
    /// this turn, where [`FightHandle::is_out`] is what it judged after the last.
    pub fn out_of_fight(&self, who: usize) -> Primitive<bool> {
        self.is_out_of_fight(who).map_err(|error| error.to_string())
    }

    /// Everyone still in the fight on another side than `who`, in scenario order.
    pub fn opponents(&self, who: usize) -> Vec<usize> {
        let core = self.core();
        let side = &core.combatants[who].spec.side;
        (0..core.combatants.len())
            .filter(|&i| !core.combatants[i].out && core.combatants[i].spec.side != *side)
            .collect()
    }

    /// Everyone still in the fight on `who`'s side, `who` excluded.
    pub fn allies(&self, who: usize) -> Vec<usize> {
        let core = self.core();
        let side = &core.combatants[who].spec.side;
        (0..core.combatants.len())
            .filter(|&i| {
                i != who && !core.combatants[i].out && core.combatants[i].spec.side == *side
            })
            .collect()
    }

    pub fn characteristic(&self, who: usize, name: Name) -> Primitive<i64> {
        let core = self.core();
        let combatant = &core.combatants[who];
        combatant
            .spec
            .characteristics
            .get(&name)
            .copied()
            .ok_or_else(|| {
                format!(
                    "{} has no characteristic `{name}` in the scenario",
                    combatant.spec.name
                )
            })
    }

    pub fn skill(&self, who: usize, name: Name) -> i64 {
        self.core().combatants[who].skill(name)
    }

    /// A skill as written: a dice code (`4D6+2`, the book's `4D+2`) for a dice pool to be
    /// rolled, or a number skill's number; `0` when absent.
    pub fn skill_dice(&self, who: usize, name: Name) -> String {
        match self.core().combatants[who].spec.skills.get(&name) {
            Some(Skill::Dice(dice)) => dice.to_string(),
            Some(Skill::Number(n)) => n.to_string(),
            None => "0".into(),
        }
    }

    pub fn has_skill(&self, who: usize, name: Name) -> bool {
        self.core().combatants[who].spec.skills.contains_key(&name)
    }

    /// The skills of `who`, by name, in scenario order.
    pub fn skill_names(&self, who: usize) -> Vec<Name> {
        self.core().combatants[who]
            .spec
            .skills
            .keys()
            .cloned()
            .collect()
    }

    /// A number statistic; 0 when the scenario does not give it.
    pub fn statistic(&self, who: usize, name: Name) -> Primitive<i64> {
        match self.core().combatants[who].statistic(name) {
            Some(Statistic::Number(n)) => Ok(*n),
            Some(Statistic::Dice(dice)) => dice.as_constant().ok_or_else(|| {
                format!(
                    "the statistic `{name}` is dice ({dice}): roll it with fight.roll(who, fight.statistic_dice(who, \"{name}\"), purpose)"
                )
            }),
            Some(Statistic::Text(text)) => text
                .parse()
                .map_err(|_| format!("the statistic `{name}` is the text {text:?}")),
            None => Ok(0),
        }
    }

    pub fn has_statistic(&self, who: usize, name: Name) -> bool {
        self.core().combatants[who].statistic(name).is_some()
    }

    /// The dice of a dice statistic (`damage_modifier`), as written in the book; `0` when
    /// absent.
    pub fn statistic_dice(&self, who: usize, name: Name) -> String {
        match self.core().combatants[who].statistic(name) {
            Some(Statistic::Dice(dice)) => dice.to_string(),
            Some(Statistic::Number(n)) => n.to_string(),
            Some(Statistic::Text(text)) => text.to_string(),
            None => "0".into(),
        }
    }

    pub fn has_option(&self, who: usize, option: Name) -> bool {
        self.core().combatants[who].spec.options.contains(&option)
    }

    /// Whether a situational modifier is in force: for the whole fight (`who` none), or
    /// for `who` (its own or the fight's).
    pub fn has_modifier(&self, who: Option<usize>, name: Name) -> bool {
        let everyone = self.0.modifiers.contains(&name);
        everyone
            || who.is_some_and(|who| self.core().combatants[who].spec.modifiers.contains(&name))
    }

    /// Whether the scenario switched on an optional rule of the ruleset.
    pub fn has_fight_option(&self, name: Name) -> bool {
        self.0.options.contains(&name)
    }

    /// The answer of the ruleset's priority lists (`tactics.toml`) to a decision, or
    /// `None` when it has no list for it.
    pub fn listed_choice(&self, decision: &super::Decision) -> Option<Name> {
        let ruleset = &self.0.ruleset;
        ruleset.tactics.choose(
            &self.core(),
            &ruleset.equipment,
            &self.0.options,
            &self.0.modifiers,
            decision,
        )
    }

    /// The scenario's starting distance, 0 when it gives none.
    pub fn distance(&self) -> i64 {
        i64::from(self.0.distance.unwrap_or(0))
    }

    /// The distance between two combatants now.
    pub fn distance_between(&self, a: usize, b: usize) -> i64 {
        let core = self.core();
        core.distances[a * core.combatants.len() + b]
    }

    /// Move two combatants to `metres` apart (never below 0); logged.
    pub fn set_distance(&self, a: usize, b: usize, metres: i64) {
        let metres = metres.max(0);
        let names = {
            let mut core = self.core();
            let count = core.combatants.len();
            core.distances[a * count + b] = metres;
            core.distances[b * count + a] = metres;
            [core.combatants[a].spec.name, core.combatants[b].spec.name]
        };
        self.emit(|| Event::Distance {
            between: names,
            distance: metres,
        });
    }

    fn weapons_at(&self, who: usize, place: WeaponPlace) -> Vec<Name> {
        self.core().combatants[who]
            .weapons
            .iter()
            .filter(|w| w.place == place)
            .map(|w| w.id)
            .collect()
    }

    /// The weapons and shields `who` holds in hand, by id.
    pub fn weapons(&self, who: usize) -> Vec<Name> {
        self.weapons_at(who, WeaponPlace::InHand)
    }

    /// The weapons `who` carries but does not hold (sheathed, slung).
    pub fn carried_weapons(&self, who: usize) -> Vec<Name> {
        self.weapons_at(who, WeaponPlace::Carried)
    }

    /// The weapons `who` has dropped and may pick up again.
    pub fn dropped_weapons(&self, who: usize) -> Vec<Name> {
        self.weapons_at(who, WeaponPlace::Dropped)
    }

    /// A weapon or shield of equipment.toml.
    pub fn weapon(&self, id: Name) -> Primitive<&Weapon> {
        let equipment = &self.ruleset().equipment;
        equipment
            .weapons
            .get(&id)
            .or_else(|| equipment.shields.get(&id))
            .ok_or_else(|| format!("no weapon or shield `{id}` in equipment.toml"))
    }

    pub fn is_shield(&self, id: Name) -> bool {
        self.ruleset().equipment.shields.contains_key(&id)
    }

    /// The id of the first weapon `who` holds (`which` = "weapon"), the first with the
    /// trait `which`, or (`not`) the first without it, else the first; `None` with empty
    /// hands.
    fn weapon_in_hand(&self, who: usize, not: bool, which: Name) -> Option<Name> {
        let held = self.weapons(who);
        let has = |id: &Name| {
            self.weapon(*id)
                .is_ok_and(|weapon| weapon.traits.contains(&which))
        };
        let found = match (which.as_str(), not) {
            ("weapon", _) => None,
            ("last", _) => held.last(),
            (_, false) => held.iter().find(|id| has(id)),
            (_, true) => held.iter().find(|id| !has(id)),
        };
        found.or(held.first()).cloned()
    }

    /// The id of the weapon `who` holds in its `hand`th hand (the first 1): the weapons in
    /// hand fill the hands in order, each as many as combat.toml's `[hands] needs` (one
    /// without `[hands]`, none where it needs none); `None` for an empty hand.
    fn weapon_in_hand_number(&self, who: usize, hand: u32) -> Primitive<Option<Name>> {
        let hands = self.combat().and_then(|combat| combat.turn.hands.as_ref());
        let hand = i64::from(hand);
        // The first hand the next weapon takes.
        let mut first = 1;
        for id in self.weapons(who) {
            let needs = match (hands, self.weapon(id)) {
                (Some(hands), Ok(weapon)) => self
                    .hands_needed(hands, who, weapon)
                    .map_err(|error| error.to_string())?
                    .max(0),
                _ => 1,
            };
            if hand < first {
                break;
            }
            if hand < first.saturating_add(needs) {
                return Ok(Some(id));
            }
            first = first.saturating_add(needs);
        }
        Ok(None)
    }

    pub fn drop_weapon(&self, who: usize, id: Name) -> Primitive<()> {
        self.move_weapon(
            who,
            id,
            &[WeaponPlace::InHand],
            WeaponPlace::Dropped,
            "drops",
        )
    }

    /// A weapon in hand left in `victim`'s wound (a blow that leaves it there): out of the hand as a
    /// dropped one is (readied again, it is pulled out), and said to be where it is.
    /// The script logs how it stays there.
    pub fn lodge_weapon(&self, who: usize, id: Name, victim: usize) -> Primitive<()> {
        let mut core = self.core();
        let combatant = &mut core.combatants[who];
        let weapon = combatant
            .weapons
            .iter_mut()
            .find(|w| w.id == id && w.place == WeaponPlace::InHand)
            .ok_or_else(|| format!("{} holds no `{id}`", combatant.spec.name))?;
        weapon.place = WeaponPlace::Dropped;
        weapon.lodged_in = Some(victim);
        combatant.refresh_in_hand();
        Ok(())
    }

    /// A weapon out of reach for the rest of the fight (broken, taken, thrown): wherever
    /// it was, it can be neither held nor readied again. The script says why.
    pub fn lose_weapon(&self, who: usize, id: Name) -> Primitive<()> {
        let mut core = self.core();
        let combatant = &mut core.combatants[who];
        let weapon = combatant
            .weapons
            .iter_mut()
            .find(|w| w.id == id && w.place != WeaponPlace::Lost)
            .ok_or_else(|| format!("{} has no `{id}` to lose", combatant.spec.name))?;
        weapon.place = WeaponPlace::Lost;
        combatant.refresh_in_hand();
        Ok(())
    }

    /// Sheathe or sling a weapon in hand.
    pub fn stow_weapon(&self, who: usize, id: Name) -> Primitive<()> {
        self.move_weapon(
            who,
            id,
            &[WeaponPlace::InHand],
            WeaponPlace::Carried,
            "stows",
        )
    }

    /// Take a carried or dropped weapon in hand.
    pub fn ready_weapon(&self, who: usize, id: Name) -> Primitive<()> {
        let from = [WeaponPlace::Carried, WeaponPlace::Dropped];
        self.move_weapon(who, id, &from, WeaponPlace::InHand, "readies")
    }

    fn move_weapon(
        &self,
        who: usize,
        id: Name,
        from: &[WeaponPlace],
        to: WeaponPlace,
        verb: &str,
    ) -> Primitive<()> {
        let name = {
            let mut core = self.core();
            let combatant = &mut core.combatants[who];
            let weapon = combatant
                .weapons
                .iter_mut()
                .find(|w| w.id == id && from.contains(&w.place))
                .ok_or_else(|| {
                    let state = match to {
                        WeaponPlace::InHand => "carries or dropped",
                        _ => "holds",
                    };
                    format!("{} {state} no `{id}`", combatant.spec.name)
                })?;
            weapon.place = to;
            weapon.lodged_in = None;
            combatant.refresh_in_hand();
            combatant.spec.name
        };
        let weapon = self.weapon(id)?;
        self.note(|| format!("{name} {verb} the {}", weapon.name));
        Ok(())
    }

    pub fn locations(&self, who: usize) -> Vec<Name> {
        self.core().combatants[who]
            .locations
            .keys()
            .cloned()
            .collect()
    }

    fn location_value(
        &self,
        who: usize,
        location: Name,
        field: fn(&super::Location) -> i64,
    ) -> Primitive<i64> {
        let core = self.core();
        let combatant = &core.combatants[who];
        combatant
            .locations
            .get(&location)
            .map(field)
            .ok_or_else(|| format!("{} has no location `{location}`", combatant.spec.name))
    }

    pub fn hit_points(&self, who: usize, location: Name) -> Primitive<i64> {
        self.location_value(who, location, |l| l.hit_points)
    }

    pub fn max_hit_points(&self, who: usize, location: Name) -> Primitive<i64> {
        self.location_value(who, location, |l| l.max_hit_points)
    }

    pub fn armour(&self, who: usize, location: Name) -> Primitive<i64> {
        self.location_value(who, location, |l| l.armour)
    }

    /// The id of the armour of equipment.toml the scenario put on a location (`None`
    /// where it gave Armour Points or nothing), for rulesets whose armour has more
    /// figures than its Armour Points (the entry's `values`).
    pub fn armour_worn(&self, who: usize, location: Name) -> Primitive<Option<String>> {
        let core = self.core();
        let combatant = &core.combatants[who];
        if !combatant.locations.contains_key(&location) {
            return Err(format!(
                "{} has no location `{location}`",
                combatant.spec.name
            ));
        }
        Ok(combatant.spec.armour_items.get(location.as_str()).cloned())
    }

    pub fn armour_entry(&self, id: &str) -> Primitive<&Armour> {
        self.ruleset()
            .equipment
            .armour
            .get(id)
            .ok_or_else(|| format!("no armour `{id}` in equipment.toml"))
    }

    /// Change a location's armour points (armour damaged, taken off, or put on); logged.
    pub fn set_armour(&self, who: usize, location: Name, armour: i64) -> Primitive<()> {
        let armour = armour.max(0);
        let name = {
            let mut core = self.core();
            let (name, place) = location_of(&mut core, who, location)?;
            place.armour = armour;
            name
        };
        self.emit(|| Event::Armour {
            who: name,
            location,
            armour,
        });
        Ok(())
    }

    /// Set a location's hit points, and its starting hit points with them (a setup hook
    /// deriving them from characteristics).
    pub fn set_max_hit_points(&self, who: usize, location: Name, value: i64) -> Primitive<()> {
        let mut core = self.core();
        let (_, place) = location_of(&mut core, who, location)?;
        place.max_hit_points = value;
        place.hit_points = value;
        Ok(())
    }

    /// Remove `amount` hit points from a location; the hit points left. Damage is 0 or
    /// more (a negative amount would heal); the hit points left stop at the smallest
    /// number rather than wrap round to a large one.
    pub fn damage(&self, who: usize, location: Name, amount: i64) -> Primitive<i64> {
        if amount < 0 {
            return Err(format!(
                "damage of {amount}: an amount of damage is 0 or more (a negative one would heal)"
            ));
        }
        let (name, left) = {
            let mut core = self.core();
            let (name, place) = location_of(&mut core, who, location)?;
            place.hit_points = place.hit_points.saturating_sub(amount);
            (name, place.hit_points)
        };
        self.emit(|| Event::Damage {
            who: name,
            location,
            amount,
            hit_points: left,
        });
        Ok(left)
    }

    /// Give back up to `amount` hit points to a location, not past its maximum (first aid,
    /// healing); the hit points left. Logged as damage of minus what came back.
    pub fn heal(&self, who: usize, location: Name, amount: i64) -> Primitive<i64> {
        if amount < 0 {
            return Err(format!(
                "healing of {amount}: an amount of healing is 0 or more"
            ));
        }
        let (name, gained, left) = {
            let mut core = self.core();
            let (name, place) = location_of(&mut core, who, location)?;
            let before = place.hit_points;
            let most = place.max_hit_points.max(before);
            place.hit_points = before.saturating_add(amount).min(most);
            (name, place.hit_points - before, place.hit_points)
        };
        self.emit(|| Event::Damage {
            who: name,
            location,
            amount: -gained,
            hit_points: left,
        });
        Ok(left)
    }

    /// Log a wound of a level the ruleset names, at a location or (`None`) to the whole
    /// combatant. Nothing changes: the scripts apply the wound's effects as their rules
    /// say; the event is there so that a report can count wounds by level and location.
    pub fn wound(&self, who: usize, location: Option<Name>, level: Name) -> Primitive<()> {
        let name = {
            let core = self.core();
            let combatant = &core.combatants[who];
            if let Some(location) = location
                && !combatant.locations.contains_key(&location)
            {
                return Err(format!(
                    "{} has no location `{location}`",
                    combatant.spec.name
                ));
            }
            combatant.spec.name
        };
        if level.trim().is_empty() {
            return Err("a wound needs a level: the name the ruleset gives it".into());
        }
        self.emit(|| Event::Wound {
            who: name,
            location,
            level,
        });
        Ok(())
    }

    pub fn actions_left(&self, who: usize) -> i64 {
        self.core().combatants[who].actions_left
    }

    /// Spend one of `who`'s actions on `reason` (a reaction); false when none is left.
    pub fn spend_action(&self, who: usize, reason: &str) -> bool {
        let spent = {
            let mut core = self.core();
            let combatant = &mut core.combatants[who];
            (combatant.actions_left > 0).then(|| {
                combatant.actions_left -= 1;
                (combatant.spec.name, combatant.actions_left)
            })
        };
        match spent {
            Some((name, left)) => {
                self.emit(|| Event::ActionSpent {
                    who: name,
                    reason: reason.to_string(),
                    actions_left: left,
                });
                self.tick_actions(who);
                true
            }
            None => false,
        }
    }

    /// The initiative `who` acts at this round (a delayed action takes the initiative of
    /// the combatant it waited for).
    pub fn initiative(&self, who: usize) -> i64 {
        self.core().combatants[who].initiative
    }

    /// During `who`'s own turn: keep the action and wait until `until` acts, then act
    /// right after it, or, with `interrupt`, right before it if the ruleset's `interrupt`
    /// hook says so. Whoever still waits at the end of the round lets the turn pass.
    pub fn wait_for(&self, who: usize, until: usize, interrupt: bool) -> Primitive<()> {
        let names = {
            let mut core = self.core();
            if core.turn_of != Some(who) {
                return Err(format!(
                    "{} can only wait during its own turn",
                    core.combatants[who].spec.name
                ));
            }
            if who == until {
                return Err(format!(
                    "{} cannot wait for itself",
                    core.combatants[who].spec.name
                ));
            }
            core.combatants[who].actions_left = core.combatants[who].actions_left.saturating_add(1);
            core.waiting.push(super::Waiting {
                who,
                until,
                interrupt,
            });
            [
                core.combatants[who].spec.name,
                core.combatants[until].spec.name,
            ]
        };
        let [who, until] = names;
        self.emit(|| Event::Waits {
            who,
            until,
            interrupt,
        });
        Ok(())
    }

    /// Lose `count` actions: those left this round first, the rest from the next round.
    /// Fewer than none (a table's `lose 1D3-2 actions` rolling -1) is none: losing
    /// actions never gives any.
    pub fn lose_actions(&self, who: usize, count: i64) {
        let count = count.max(0);
        let name = {
            let mut core = self.core();
            let combatant = &mut core.combatants[who];
            let now = count.min(combatant.actions_left.max(0));
            combatant.actions_left -= now;
            combatant.actions_to_lose = combatant.actions_to_lose.saturating_add(count - now);
            combatant.spec.name
        };
        self.emit(|| Event::ActionsLost { who: name, count });
    }

    pub fn has_condition(&self, who: usize, condition: Name) -> bool {
        self.core().combatants[who].has_condition(condition)
    }

    /// Set a condition declared in ruleset.toml, for so many actions or rounds, or until
    /// cleared (`length` 0). Setting it again replaces its duration.
    pub fn set_condition(
        &self,
        who: usize,
        condition: Name,
        length: i64,
        unit: DurationUnit,
    ) -> Primitive<()> {
        let vocabulary = &self.ruleset().tactics.vocabulary;
        let Some(bit) = vocabulary.condition_bit_of(condition) else {
            return Err(format!(
                "`{condition}` is not a condition of ruleset.toml ([conditions])"
            ));
        };
        let remaining = match (length, unit) {
            (n, _) if n <= 0 => None,
            (n, DurationUnit::Actions) => Some(Remaining::Actions(n)),
            (n, DurationUnit::Rounds) => Some(Remaining::Rounds(n)),
            (n, DurationUnit::Turns) => Some(Remaining::Turns(n)),
        };
        let name = {
            let mut core = self.core();
            let combatant = &mut core.combatants[who];
            combatant.set_condition(ActiveCondition {
                name: condition,
                remaining,
                bit,
            });
            combatant.spec.name
        };
        self.emit(|| Event::ConditionSet {
            who: name,
            condition,
            lasts: remaining.map(|r| match r {
                Remaining::Actions(n) => format!("{n} action{}", if n == 1 { "" } else { "s" }),
                Remaining::Rounds(n) => format!("{n} round{}", if n == 1 { "" } else { "s" }),
                Remaining::Turns(n) => format!("{n} turn{}", if n == 1 { "" } else { "s" }),
            }),
        });
        Ok(())
    }

    pub fn clear_condition(&self, who: usize, condition: Name) {
        let name = {
            let mut core = self.core();
            let combatant = &mut core.combatants[who];
            combatant
                .clear_condition(condition)
                .then_some(combatant.spec.name)
        };
        if let Some(who) = name {
            self.emit(|| Event::ConditionEnded { who, condition });
        }
    }

    pub fn value(&self, who: usize, key: Name) -> i64 {
        self.core().combatants[who]
            .values
            .get(&key)
            .copied()
            .unwrap_or(0)
    }

    pub fn set_value(&self, who: usize, key: Name, value: i64) {
        self.core().combatants[who].values.insert(key, value);
    }

    /// The place of `name` among combat.toml's `toward` names, or why there is none.
    fn toward_index(&self, name: &str) -> Result<(u32, usize), String> {
        let names = self.combat().map_or(&[][..], |c| &c.vocabulary.toward[..]);
        names
            .iter()
            .position(|n| n == name)
            .and_then(|index| u32::try_from(index).ok())
            .map(|index| (index, names.len()))
            .ok_or_else(|| {
                format!("combat.toml's `toward` does not list `{name}` (it lists {names:?})")
            })
    }

    /// The value `who` keeps toward `other` (combat.toml's `toward` name `name`, read
    /// there as `self.toward.NAME`): 0 until one is set.
    pub fn toward_value(&self, who: usize, name: &str, other: usize) -> Result<i64, String> {
        let (index, _) = self.toward_index(name)?;
        let core = self.core();
        let count = core.combatants.len();
        Ok(core.combatants[who].toward(index, other, count))
    }

    /// Keep `value` as `who`'s `toward` value `name` toward `other`, as combat.toml's
    /// `set toward NAME (EXPR)` does.
    pub fn set_toward_value(
        &self,
        who: usize,
        name: &str,
        other: usize,
        value: i64,
    ) -> Result<(), String> {
        let index = self.toward_index(name)?;
        let mut core = self.core();
        let count = core.combatants.len();
        core.combatants[who].set_toward(index, other, count, value);
        Ok(())
    }

    /// Roll dice (written as in the books) for `purpose`; logged.
    pub fn roll(&self, who: Option<usize>, dice: &str, purpose: &str) -> Primitive<i64> {
        // Parsed once per distinct text, then taken from the cache.
        let cached = self.core().dice_cache.get(dice).cloned();
        let expr = match cached {
            Some(expr) => expr,
            None => {
                let expr = parse_dice_text(dice)?;
                self.core()
                    .dice_cache
                    .insert(dice.to_string(), expr.clone());
                expr
            }
        };
        self.roll_expr(who, &expr, purpose)
    }

    pub fn roll_expr(&self, who: Option<usize>, expr: &DiceExpr, purpose: &str) -> Primitive<i64> {
        // A constant (`lose 1 action`) rolls nothing and logs nothing.
        if let Some(constant) = expr.as_constant() {
            return Ok(constant);
        }
        let (rolls_wanted, named) = {
            let mut core = self.core();
            if let Some(rolled) = core.roll_unseen(expr) {
                drop(core);
                return rolled.map_err(|error| self.stop(FightError::Dice(error)));
            }
            (core.rolls_wanted, core.dice.reads_purposes())
        };
        // A seeded die reads no purpose and a run that keeps no rolls builds no event:
        // then no text is made for the roll.
        let full = match who {
            Some(who) if named => format!("{purpose} for {}", self.name(who)),
            None if named => purpose.to_string(),
            _ => String::new(),
        };
        if !rolls_wanted {
            return self
                .with_dice(|dice| expr.roll_total(dice, &full))
                .map_err(|error| self.stop(FightError::Dice(error)));
        }
        match self.with_dice(|dice| expr.roll(dice, &full)) {
            Ok(rolled) => {
                self.emit(|| Event::Roll {
                    who: who.map(|w| self.name(w)),
                    purpose: purpose.to_string(),
                    dice: expr.to_string(),
                    faces: rolled.faces,
                    total: rolled.total,
                });
                Ok(rolled.total)
            }
            Err(error) => Err(self.stop(FightError::Dice(error))),
        }
    }

    pub fn table(&self, name: &str) -> Primitive<&Table> {
        self.ruleset()
            .table(name)
            .ok_or_else(|| format!("no table `{name}` in this ruleset"))
    }

    /// Roll on a roll table for `who`; apply the built-in actions of the row (lose,
    /// condition) to `who`; return the row and the script calls the row asks for, which
    /// the caller (the script module) runs.
    pub fn roll_table(
        &self,
        who: Option<usize>,
        name: &str,
        adjustment: i64,
    ) -> Primitive<(RowRolled<'_>, Vec<ScriptCall>)> {
        let table = self.table(name)?;
        let ruleset = self.ruleset();
        let find = |other: &str| ruleset.table(other);
        let rolled = self.with_dice(|dice| roll_on_table_adjusted(table, &find, dice, adjustment));
        let rolled = match rolled {
            Ok(rolled) => rolled,
            Err(crate::tables::TableRollError::Dice(error)) => {
                return Err(self.stop(FightError::Dice(error)));
            }
            Err(other) => return Err(other.to_string()),
        };
        let mut calls = Vec::new();
        let first = self.apply_roll(who, &rolled, &mut calls)?;
        Ok((first, calls))
    }

    /// Log a rolled row (and its rerolls), apply its built-in actions, collect its calls.
    fn apply_roll<'r>(
        &self,
        who: Option<usize>,
        rolled: &crate::tables::RollOnTable<'r>,
        calls: &mut Vec<ScriptCall>,
    ) -> Primitive<RowRolled<'r>> {
        let row = rolled.selected();
        if self.logged() {
            self.emit(|| Event::TableRow {
                who: who.map(|w| self.name(w)),
                table: Name::new(&rolled.table.name.value),
                result: rolled.result,
                row: Name::new(&row.name.value),
                label: row.display_label().to_string(),
            });
        }
        self.apply_actions(who, &row.actions, calls)?;
        for step in &rolled.rerolls {
            match step {
                crate::tables::RerollStep::Ignored { result } => {
                    self.note(|| format!("{} rerolled: {result}, ignored", rolled.table.name));
                }
                crate::tables::RerollStep::Kept { roll } => {
                    self.apply_roll(who, roll, calls)?;
                }
            }
        }
        for other in &rolled.rolled_tables {
            self.apply_roll(who, other, calls)?;
        }
        Ok(RowRolled {
            result: rolled.result,
            row,
        })
    }

    /// Apply the built-in actions of a row (or of a rule of `combat.toml`) to `who`
    /// (lose, condition); collect the script calls, which the caller runs. A table roll
    /// or a reroll is the table's own business: rolling on it did them.
    pub(crate) fn apply_actions(
        &self,
        who: Option<usize>,
        actions: &[crate::source::Spanned<Action>],
        calls: &mut Vec<ScriptCall>,
    ) -> Primitive<()> {
        for action in actions {
            match &action.value {
                Action::Script {
                    module,
                    function,
                    args,
                } => calls.push(ScriptCall {
                    module: module.value.clone(),
                    function: function.value.clone(),
                    args: args.iter().map(|a| a.value.clone()).collect(),
                }),
                Action::LoseActions { count } => {
                    if let Some(who) = who {
                        let count = self.roll_expr(Some(who), count, "actions lost")?;
                        self.lose_actions(who, count);
                    }
                }
                Action::Condition {
                    condition,
                    duration,
                } => {
                    if let Some(who) = who {
                        let (length, unit) = match duration {
                            Some(Duration {
                                length: Length::Dice(dice),
                                unit,
                            }) => (
                                self.roll_expr(
                                    Some(who),
                                    dice,
                                    &format!("duration of {}", condition.value),
                                )?,
                                *unit,
                            ),
                            Some(Duration {
                                length: Length::Expr(expr),
                                ..
                            }) => return Err(not_here(expr)),
                            None => (0, DurationUnit::Actions),
                        };
                        self.set_condition(who, condition.value, length, unit)?;
                    }
                }
                Action::Clear { condition } => {
                    if let Some(who) = who {
                        self.clear_condition(who, condition.value);
                    }
                }
                Action::Set { value, to } => {
                    let to = match to {
                        Amount::Number(n) => *n,
                        Amount::Expr(expr) => return Err(not_here(expr)),
                    };
                    if let Some(who) = who {
                        self.set_value(who, value.value, to);
                    }
                }
                Action::Drop { not, which } => {
                    if let Some(who) = who
                        && let Some(id) = self.weapon_in_hand(who, *not, which.value)
                    {
                        self.drop_weapon(who, id)?;
                    }
                }
                Action::DropHand { hand } => {
                    if let Some(who) = who
                        && let Some(id) = self.weapon_in_hand_number(who, *hand)?
                    {
                        self.drop_weapon(who, id)?;
                    }
                }
                Action::Reroll { .. } | Action::RollTable { .. } => {}
                // An opposed test needs the exchange it belongs to; `check` refuses it
                // in a ruleset without combat.toml.
                Action::Spend { .. }
                | Action::Ready { .. }
                | Action::Hurt { .. }
                | Action::Toward { .. }
                | Action::Lodge
                | Action::Strike { .. }
                | Action::Decide { .. }
                | Action::If { .. }
                | Action::Party { .. } => {
                    return Err(format!(
                        "`{}` is an action of combat.toml: it cannot be done here",
                        action.value
                    ));
                }
                Action::Resist { .. } | Action::Test { .. } | Action::Contest { .. } => {
                    return Err(format!(
                        "`{}` is a test of combat.toml, done in an exchange: it cannot be done here",
                        action.value
                    ));
                }
            }
        }
        Ok(())
    }

    /// The row of a roll table that covers `result` (a die already rolled).
    pub fn table_row(&self, name: &str, result: i64) -> Primitive<RowRolled<'_>> {
        let table = self.table(name)?;
        let TableKind::Roll(roll_table) = &table.kind else {
            return Err(format!(
                "`{name}` is a {} table, not a roll table",
                table.kind.keyword()
            ));
        };
        let row = &roll_table.rows[crate::tables::row_for(roll_table, result)];
        Ok(RowRolled { result, row })
    }

    /// The cell of a matrix at `row` and `column` keys.
    pub fn matrix_cell(&self, name: &str, row: &str, column: &str) -> Primitive<&Cell> {
        let table = self.table(name)?;
        let TableKind::Matrix(matrix) = &table.kind else {
            return Err(format!(
                "`{name}` is a {} table, not a matrix",
                table.kind.keyword()
            ));
        };
        let column = matrix
            .columns
            .iter()
            .position(|k| key_matches(&k.value, column))
            .ok_or_else(|| format!("`{name}` has no column `{column}`"))?;
        let row = matrix
            .rows
            .iter()
            .find(|r| key_matches(&r.key.value, row))
            .ok_or_else(|| format!("`{name}` has no row `{row}`"))?;
        row.cells
            .get(column)
            .map(|c| &c.value)
            .ok_or_else(|| format!("`{name}` has a short row"))
    }

    /// The value of a look-up table for `key` in `column`; `None` for a `-` cell.
    pub fn lookup(&self, name: &str, key: &str, column: &str) -> Primitive<Option<&Value>> {
        let table = self.table(name)?;
        let TableKind::Lookup(lookup) = &table.kind else {
            return Err(format!(
                "`{name}` is a {} table, not a look-up",
                table.kind.keyword()
            ));
        };
        let index = lookup
            .columns
            .iter()
            .position(|c| c.value == column)
            .ok_or_else(|| format!("`{name}` has no column `{column}`"))?;
        let row = lookup
            .rows
            .iter()
            .find(|r| key_matches(&r.key.value, key))
            .ok_or_else(|| format!("`{name}` has no row for `{key}`"))?;
        Ok(row.cells.get(index).and_then(|c| c.value.as_ref()))
    }

    /// A note for the log, its text made only when the fight logs.
    pub fn note(&self, text: impl FnOnce() -> String) {
        self.emit(|| Event::Note { text: text() });
    }

    /// A test in the log whose result is its level and, given, its margin: `success, by
    /// 3`, `failure, missed by 2` (the name is made only when the fight logs).
    pub fn log_test_with_margin(
        &self,
        who: usize,
        test: Name,
        target: i64,
        roll: i64,
        level: Name,
        margin: Option<i64>,
    ) {
        let name = self.name(who);
        self.emit(|| Event::Test {
            who: name,
            test,
            target,
            roll,
            result: match margin {
                None => level,
                Some(by) if by >= 0 => Name::new(&format!("{level}, by {by}")),
                Some(by) => Name::new(&format!("{level}, missed by {}", -by)),
            },
        });
    }

    pub fn log_test(&self, who: usize, test: Name, target: i64, roll: i64, result: Name) {
        self.log_test_with_margin(who, test, target, roll, result, None);
    }
}

/// A key given by a script (a name, or a number as text) against a table key.
fn key_matches(key: &Key, wanted: &str) -> bool {
    match key {
        Key::Name(name) => name == wanted,
        Key::Range(range) => wanted.parse::<i64>().is_ok_and(|n| range.contains(n)),
    }
}

/// Dice written in a script.
fn parse_dice_text(dice: &str) -> Primitive<DiceExpr> {
    let file = SourceFile::new("dice", dice.to_string());
    parse_dice(&file, dice, 0)
        .map(|spanned| spanned.value)
        .map_err(|error| format!("`{dice}` is not a dice expression: {error}"))
}

impl FightHandle {
    /// The effects of an effect list that a winner may choose: on the `role` side
    /// (`offensive` or `defensive`), whose required result matches (`level` is the
    /// chooser's, `opponent_level` the loser's), and whose weapon restriction the
    /// weapon `weapon` (an equipment id, or "" for none) meets.
    pub fn effects(
        &self,
        table: &str,
        role: &str,
        level: &str,
        opponent_level: &str,
        weapon: &str,
    ) -> Primitive<Vec<String>> {
        let list = self.effect_list(table)?;
        let traits: Vec<Name> = if weapon.is_empty() {
            Vec::new()
        } else {
            self.weapon(Name::new(weapon))?.traits.clone()
        };
        Ok(list
            .effects
            .iter()
            .filter(|e| match role {
                "offensive" => e.offensive,
                "defensive" => e.defensive,
                _ => false,
            })
            .filter(|e| {
                e.requires.as_ref().is_none_or(|r| {
                    let wanted = if r.opponent { opponent_level } else { level };
                    r.level.value == wanted
                })
            })
            .filter(|e| {
                e.weapons.is_empty()
                    || e.weapons
                        .iter()
                        .any(|w| traits.iter().any(|t| *t == w.value))
            })
            .map(|e| e.name.value.clone())
            .collect())
    }

    pub fn effect_stackable(&self, table: &str, effect: &str) -> Primitive<bool> {
        self.effect_list(table)?
            .effects
            .iter()
            .find(|e| e.name.value == effect)
            .map(|e| e.stackable)
            .ok_or_else(|| format!("`{table}` has no effect `{effect}`"))
    }

    fn effect_list(&self, table: &str) -> Primitive<&crate::tables::EffectList> {
        let found = self.table(table)?;
        match &found.kind {
            TableKind::Effects(list) => Ok(list),
            other => Err(format!(
                "`{table}` is a {} table, not an effect list",
                other.keyword()
            )),
        }
    }
}

impl FightHandle {
    /// A modifier of a modifier list, by name.
    pub fn modifier(&self, table: &str, name: &str) -> Primitive<&ModifierValue> {
        let found = self.table(table)?;
        let TableKind::Modifiers(list) = &found.kind else {
            return Err(format!(
                "`{table}` is a {} table, not a modifier list",
                found.kind.keyword()
            ));
        };
        list.modifiers()
            .find(|m| m.name.value == name)
            .map(|m| &m.value.value)
            .ok_or_else(|| format!("`{table}` has no modifier `{name}`"))
    }

    /// Roll `dice` with its first `maximised` dice showing their highest face (a
    /// critical's maximum damage); the rest are rolled. Logged like any roll.
    pub fn roll_maximised(
        &self,
        who: Option<usize>,
        dice: &str,
        maximised: i64,
        purpose: &str,
    ) -> Primitive<i64> {
        let expr = parse_dice_text(dice)?;
        let mut fixed = 0;
        let mut left = maximised.max(0);
        let mut rest = Vec::new();
        for term in expr.terms() {
            match term.kind {
                crate::dice::TermKind::Dice { count, sides } if !term.negative && left > 0 => {
                    let take = i64::from(count).min(left);
                    left -= take;
                    fixed += take * i64::from(sides);
                    if i64::from(count) > take {
                        rest.push(crate::dice::DiceTerm {
                            negative: false,
                            kind: crate::dice::TermKind::Dice {
                                count: count - take as u32,
                                sides,
                            },
                        });
                    }
                }
                _ => rest.push(*term),
            }
        }
        if maximised <= 0 {
            return self.roll_expr(who, &expr, purpose);
        }
        let rest = DiceExpr::new(rest).map_err(|e| e.to_string())?;
        let rolled = if rest.terms().is_empty() {
            0
        } else {
            self.roll_expr(who, &rest, purpose)?
        };
        self.note(|| format!("{purpose}: {fixed} from {maximised} maximised dice"));
        Ok(fixed + rolled)
    }
}

/// An expression of an action is read in combat.toml's exchange or turn, where the
/// fight's names are bound; a table's row cannot (`affray check` refuses it there).
fn not_here(expr: &ActionExpr) -> String {
    format!("`{expr}` is an expression of combat.toml: it cannot be done here")
}

/// `who`'s name and its location `location`, or the message that it has none.
fn location_of(
    core: &mut Core,
    who: usize,
    location: Name,
) -> Result<(Name, &mut Location), String> {
    let combatant = &mut core.combatants[who];
    let name = combatant.spec.name;
    match combatant.locations.get_mut(&location) {
        Some(place) => Ok((name, place)),
        None => Err(format!("{name} has no location `{location}`")),
    }
}
