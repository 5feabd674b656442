//! The status view: what a GM keeps on paper — round, initiative order with actions left,
//! hit points and armour per location (or the pool), conditions with their time left,
//! weapons in hand — read from the engine's state.

use affray::engine::{Combatant, FightHandle, Remaining, WeaponPlace};
use affray::names::Words;

/// The status as lines of text.
pub fn view(fight: &FightHandle) -> Vec<String> {
    let core = fight.core();
    let equipment = &fight.ruleset().equipment;
    let weapon_name = |id: &affray::names::Name| {
        equipment
            .weapons
            .get(id)
            .map(|w| w.name.clone())
            .or_else(|| equipment.shields.get(id).map(|s| s.name.clone()))
            .unwrap_or_else(|| id.to_string())
    };
    let mut lines = vec![format!("status, round {}", core.round)];
    // The round's order as the engine made it (initiative, then its tie-break); before
    // the first round, scenario order.
    let order: Vec<&Combatant> = if core.order.is_empty() {
        core.combatants.iter().filter(|c| !c.out).collect()
    } else {
        core.order
            .iter()
            .map(|&who| &core.combatants[who])
            .filter(|c| !c.out)
            .collect()
    };
    let listed: Vec<String> = order
        .iter()
        .map(|c| {
            format!(
                "{} {} ({} left)",
                c.name(),
                c.initiative,
                plural(c.actions_left, "action")
            )
        })
        .collect();
    lines.push(format!("  order: {}", listed.join(", ")));
    for combatant in &core.combatants {
        let out = if combatant.out {
            ", out of the fight"
        } else {
            ""
        };
        lines.push(format!(
            "  {} ({}{out})",
            combatant.name(),
            combatant.spec.side
        ));
        let locations: Vec<String> = combatant
            .locations
            .iter()
            .map(|(name, l)| {
                let armour = if l.armour != 0 {
                    format!(" AP {}", l.armour)
                } else {
                    String::new()
                };
                format!(
                    "{} {}/{}{armour}",
                    Words(name),
                    l.hit_points,
                    l.max_hit_points
                )
            })
            .collect();
        lines.push(format!("    hit points: {}", locations.join(", ")));
        if !combatant.conditions().is_empty() {
            let conditions: Vec<String> = combatant
                .conditions()
                .iter()
                .map(|c| match c.remaining {
                    Some(Remaining::Actions(n)) => {
                        format!("{} ({} left)", Words(&c.name), plural(n, "action"))
                    }
                    Some(Remaining::Rounds(n)) => {
                        format!("{} ({} left)", Words(&c.name), plural(n, "round"))
                    }
                    Some(Remaining::Turns(n)) => {
                        format!("{} ({} left)", Words(&c.name), plural(n, "turn"))
                    }
                    None => Words(&c.name).to_string(),
                })
                .collect();
            lines.push(format!("    conditions: {}", conditions.join(", ")));
        }
        for (place, label) in [
            (WeaponPlace::InHand, "in hand"),
            (WeaponPlace::Carried, "carried"),
            (WeaponPlace::Dropped, "dropped"),
            (WeaponPlace::Lost, "lost"),
        ] {
            let weapons: Vec<String> = combatant
                .weapons
                .iter()
                .filter(|w| w.place == place)
                .map(|w| {
                    let stuck = w
                        .lodged_in
                        .map(|victim| format!(", stuck in {}", core.combatants[victim].name()))
                        .unwrap_or_default();
                    format!("{} ({} HP{stuck})", weapon_name(&w.id), w.hit_points)
                })
                .collect();
            if !weapons.is_empty() {
                lines.push(format!("    {label}: {}", weapons.join(", ")));
            }
        }
    }
    lines
}

fn plural(n: i64, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}
