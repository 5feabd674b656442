//! The readable rendering of the log.

use std::fmt::Write;

use super::Event;
use crate::names::{Words, join_words};

/// One event as a line (or lines) of text, indented under its round and turn.
pub fn render_text(event: &Event, out: &mut String) {
    let _ = match event {
        Event::FightStarted {
            title,
            ruleset,
            combatants,
        } => {
            let _ = writeln!(out, "{title} ({ruleset})");
            for line in combatants {
                let _ = writeln!(out, "  {} ({})", line.name, line.side);
            }
            Ok(())
        }
        Event::RoundStarted { round } => writeln!(out, "\nRound {round}"),
        Event::Initiative { who, value } => writeln!(out, "  initiative {who}: {value}"),
        Event::TurnOrder { order } => {
            let order: Vec<String> = order
                .iter()
                .map(|e| {
                    format!(
                        "{} ({}, {})",
                        e.who,
                        e.initiative,
                        count(e.actions, "action")
                    )
                })
                .collect();
            writeln!(out, "  order: {}", order.join(", "))
        }
        Event::Turn { who, actions_left } => {
            writeln!(
                out,
                "  {who} acts ({} left)",
                count(*actions_left, "action")
            )
        }
        Event::Roll {
            who,
            purpose,
            dice,
            faces,
            total,
        } => {
            let who = who
                .as_deref()
                .map(|w| format!(" for {w}"))
                .unwrap_or_default();
            if faces.len() == 1 && dice.starts_with("1D") && !dice[2..].contains(['+', '-']) {
                writeln!(out, "    {dice} {}{who} → {total}", Words(purpose))
            } else {
                // What each die showed, where the total is more than one die.
                let faces: Vec<String> = faces.iter().map(ToString::to_string).collect();
                writeln!(
                    out,
                    "    {dice} {}{who} → {total} (dice showed {})",
                    Words(purpose),
                    faces.join(", ")
                )
            }
        }
        Event::Test {
            who,
            test,
            target,
            roll,
            result,
        } => writeln!(
            out,
            "    {who}: {} {target}, rolled {roll}: {}",
            Words(test),
            Words(result)
        ),
        Event::Choice {
            who,
            decision,
            options,
            chosen,
            by,
        } => {
            if options.len() > 1 {
                writeln!(
                    out,
                    "    {who} chooses {}: {} (of {}; {by})",
                    Words(decision),
                    Words(chosen),
                    join_words(options, ", ")
                )
            } else {
                writeln!(out, "    {who} {}: {}", Words(decision), Words(chosen))
            }
        }
        Event::TableRow {
            who,
            table,
            result,
            row,
            label,
        } => {
            let who = who
                .as_deref()
                .map(|w| format!(" for {w}"))
                .unwrap_or_default();
            let _ = row;
            writeln!(out, "    {}{who}: {result} → {label}", Words(table))
        }
        Event::Damage {
            who,
            location,
            amount,
            hit_points,
        } if location == "total" => writeln!(out, "    {who} takes {amount}, {hit_points} HP left"),
        Event::Damage {
            who,
            location,
            amount,
            hit_points,
        } => writeln!(
            out,
            "    {who} takes {amount} to {}, {hit_points} HP left there",
            Words(location)
        ),
        Event::Wound {
            who,
            location,
            level,
        } => match location {
            Some(location) => writeln!(
                out,
                "    {who}: {} wound to {}",
                Words(level),
                Words(location)
            ),
            // "(wound level)" tells it apart from the line of a condition of that name.
            None => writeln!(out, "    {who}: {} (wound level)", Words(level)),
        },
        Event::Armour {
            who,
            location,
            armour,
        } => writeln!(out, "    {who}'s {} now has {armour} AP", Words(location)),
        Event::Deflected { who, amount } => writeln!(out, "    {who} deflects {amount}"),
        Event::AgainstArmour {
            who,
            damage,
            armour,
            through,
        } => writeln!(
            out,
            "    {who}: damage {damage} against armour {armour}, {through} through"
        ),
        // An opposed test: a better level wins, the same level the higher roll; or, by
        // margin, who passes by more.
        Event::Resisted {
            who,
            resisted,
            against,
            by_margin,
        } => match (resisted, against) {
            (true, Some(roll)) => writeln!(out, "    {who} resists the original roll of {roll}"),
            (false, Some(roll)) if *by_margin => writeln!(
                out,
                "    {who} fails to resist the original roll of {roll} (who passes by more wins)"
            ),
            (false, Some(roll)) => writeln!(
                out,
                "    {who} fails to resist the original roll of {roll} (a better level wins, then the higher roll)"
            ),
            (_, None) => writeln!(out, "    {who} fails to resist: there is no roll to beat"),
        },
        // Both rolled now: a better level wins, the same passing level the higher roll.
        Event::Contested {
            who,
            against,
            won,
            by_margin,
        } => match (against, won) {
            (Some(other), true) => writeln!(out, "    {who} wins the contest against {other}"),
            (Some(other), false) if *by_margin => writeln!(
                out,
                "    {who} does not win the contest against {other} (who passes by more wins)"
            ),
            (Some(other), false) => writeln!(
                out,
                "    {who} loses the contest against {other} (a better level wins, then the higher roll)"
            ),
            (None, _) => writeln!(out, "    {who} wins the contest: nobody stands against it"),
        },
        Event::Knockback { who, metres } => {
            writeln!(out, "    {who} is knocked back {metres} m")
        }
        Event::Distance {
            between: [a, b],
            distance,
        } => match distance {
            0 => writeln!(out, "    {a} and {b} are engaged"),
            d => writeln!(out, "    {a} and {b} are {d} apart"),
        },
        Event::ActionSpent {
            who,
            reason,
            actions_left,
        } => writeln!(
            out,
            "    {who} spends an action on {} ({actions_left} left)",
            Words(reason)
        ),
        Event::Waits {
            who,
            until,
            interrupt,
        } => match interrupt {
            true => writeln!(out, "    {who} waits to interrupt {until}"),
            false => writeln!(out, "    {who} waits until {until} has acted"),
        },
        Event::ActionsLost { who, count: lost } => {
            writeln!(out, "    {who} loses {}", count(*lost, "action"))
        }
        Event::ConditionSet {
            who,
            condition,
            lasts,
        } => match lasts {
            Some(lasts) => writeln!(out, "    {who}: {} for {lasts}", Words(condition)),
            None => writeln!(out, "    {who}: {}", Words(condition)),
        },
        Event::ConditionEnded { who, condition } => {
            writeln!(out, "    {who}: {} ends", Words(condition))
        }
        Event::Note { text } => writeln!(out, "    {text}"),
        Event::OutOfFight { who } => writeln!(out, "    {who} is out of the fight"),
        Event::RoundEnded { .. } => Ok(()),
        Event::FightEnded {
            rounds,
            winner,
            standing,
        } => match winner {
            Some(winner) => writeln!(
                out,
                "\nWon by {winner} after {}; standing: {}",
                count(i64::from(*rounds), "round"),
                crate::names::join(standing, ", ")
            ),
            None => writeln!(
                out,
                "\nNo winner after {}; standing: {}",
                count(i64::from(*rounds), "round"),
                crate::names::join(standing, ", ")
            ),
        },
    };
}

/// "1 action", "3 actions".
fn count(n: i64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}
