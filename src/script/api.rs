//! The fight as rhai scripts see it: the type `Fight` and its functions. Each is a thin
//! adapter from rhai values to a primitive of `engine::FightHandle`; rulesets/README.md
//! documents every one with an example.

use rhai::{Array, Dynamic, Engine, EvalAltResult, Map};

use indexmap::IndexMap;

use crate::engine::model::EquipmentValue;
use crate::engine::{FightHandle, RowRolled};
use crate::names::Name;
use crate::tables::{Cell, DurationUnit, ModifierValue, Percent, Value};

type Result<T> = std::result::Result<T, Box<EvalAltResult>>;

fn who(fight: &FightHandle, who: i64) -> Result<usize> {
    fight.who(who).map_err(Into::into)
}

/// A number that makes no sense below 0 (damage, actions lost, hit points, a duration,
/// dice to maximise): refused with the function's name and the value, rather than
/// healing, giving actions or wrapping round.
fn not_negative(function: &str, what: &str, value: i64) -> Result<i64> {
    if value < 0 {
        return Err(format!("fight.{function}: {what} must be 0 or more, not {value}").into());
    }
    Ok(value)
}

fn ids(list: Vec<usize>) -> Array {
    list.into_iter().map(|i| Dynamic::from(i as i64)).collect()
}

fn texts(list: Vec<String>) -> Array {
    list.into_iter().map(Dynamic::from).collect()
}

fn names(list: Vec<Name>) -> Array {
    list.into_iter()
        .map(|name| Dynamic::from(name.to_string()))
        .collect()
}

/// A table value as a script sees it: numbers as numbers, dice and names as text.
pub fn value_to_dynamic(value: &Value) -> Dynamic {
    match value {
        Value::Integer(n) => Dynamic::from(*n),
        Value::Percent(Percent { percent }) => Dynamic::from(*percent),
        Value::Dice(dice) => Dynamic::from(dice.to_string()),
        Value::Text(text) => Dynamic::from(text.clone()),
        Value::Name(crate::tables::Name { name }) => Dynamic::from(name.clone()),
    }
}

/// The `values` of an equipment entry as a map of numbers and texts.
fn equipment_values(values: &IndexMap<String, EquipmentValue>) -> Map {
    values
        .iter()
        .map(|(name, value)| {
            let value = match value {
                EquipmentValue::Number(n) => Dynamic::from(*n),
                EquipmentValue::Text(text) => Dynamic::from(text.clone()),
            };
            (name.as_str().into(), value)
        })
        .collect()
}

pub fn register(engine: &mut Engine) {
    engine.register_type_with_name::<FightHandle>("Fight");

    // Who is who.
    engine.register_fn("round", |f: &mut FightHandle| f.round());
    engine.register_fn("count", |f: &mut FightHandle| f.combatant_count() as i64);
    engine.register_fn("name", |f: &mut FightHandle, w: i64| -> Result<String> {
        Ok(f.name(who(f, w)?).to_string())
    });
    engine.register_fn("side", |f: &mut FightHandle, w: i64| -> Result<String> {
        Ok(f.side(who(f, w)?).to_string())
    });
    engine.register_fn("is_out", |f: &mut FightHandle, w: i64| -> Result<bool> {
        Ok(f.is_out(who(f, w)?))
    });
    engine.register_fn(
        "out_of_fight",
        |f: &mut FightHandle, w: i64| -> Result<bool> { Ok(f.out_of_fight(who(f, w)?)?) },
    );
    engine.register_fn(
        "opponents",
        |f: &mut FightHandle, w: i64| -> Result<Array> { Ok(ids(f.opponents(who(f, w)?))) },
    );
    engine.register_fn("allies", |f: &mut FightHandle, w: i64| -> Result<Array> {
        Ok(ids(f.allies(who(f, w)?)))
    });

    // Figures of the scenario.
    engine.register_fn(
        "characteristic",
        |f: &mut FightHandle, w: i64, name: &str| -> Result<i64> {
            Ok(f.characteristic(who(f, w)?, Name::new(name))?)
        },
    );
    engine.register_fn(
        "skill",
        |f: &mut FightHandle, w: i64, name: &str| -> Result<i64> {
            Ok(f.skill(who(f, w)?, Name::new(name)))
        },
    );
    engine.register_fn(
        "skill_dice",
        |f: &mut FightHandle, w: i64, name: &str| -> Result<String> {
            Ok(f.skill_dice(who(f, w)?, Name::new(name)))
        },
    );
    engine.register_fn(
        "has_skill",
        |f: &mut FightHandle, w: i64, name: &str| -> Result<bool> {
            Ok(f.has_skill(who(f, w)?, Name::new(name)))
        },
    );
    engine.register_fn("skills", |f: &mut FightHandle, w: i64| -> Result<Array> {
        Ok(names(f.skill_names(who(f, w)?)))
    });
    engine.register_fn(
        "statistic",
        |f: &mut FightHandle, w: i64, name: &str| -> Result<i64> {
            Ok(f.statistic(who(f, w)?, Name::new(name))?)
        },
    );
    engine.register_fn(
        "has_statistic",
        |f: &mut FightHandle, w: i64, name: &str| -> Result<bool> {
            Ok(f.has_statistic(who(f, w)?, Name::new(name)))
        },
    );
    engine.register_fn(
        "statistic_dice",
        |f: &mut FightHandle, w: i64, name: &str| -> Result<String> {
            Ok(f.statistic_dice(who(f, w)?, Name::new(name)))
        },
    );
    engine.register_fn(
        "statistic_text",
        |f: &mut FightHandle, w: i64, name: &str| -> Result<String> {
            Ok(f.statistic_dice(who(f, w)?, Name::new(name)))
        },
    );
    engine.register_fn(
        "has_option",
        |f: &mut FightHandle, w: i64, name: &str| -> Result<bool> {
            Ok(f.has_option(who(f, w)?, Name::new(name)))
        },
    );
    engine.register_fn(
        "has_modifier",
        |f: &mut FightHandle, w: i64, name: &str| -> Result<bool> {
            Ok(f.has_modifier(Some(who(f, w)?), Name::new(name)))
        },
    );
    engine.register_fn("has_modifier", |f: &mut FightHandle, name: &str| {
        f.has_modifier(None, Name::new(name))
    });
    engine.register_fn("has_fight_option", |f: &mut FightHandle, name: &str| {
        f.has_fight_option(Name::new(name))
    });
    engine.register_fn("distance", |f: &mut FightHandle| f.distance());
    engine.register_fn(
        "distance",
        |f: &mut FightHandle, a: i64, b: i64| -> Result<i64> {
            Ok(f.distance_between(who(f, a)?, who(f, b)?))
        },
    );
    engine.register_fn(
        "set_distance",
        |f: &mut FightHandle, a: i64, b: i64, metres: i64| -> Result<()> {
            f.set_distance(who(f, a)?, who(f, b)?, metres);
            Ok(())
        },
    );

    // Weapons.
    engine.register_fn("weapons", |f: &mut FightHandle, w: i64| -> Result<Array> {
        Ok(names(f.weapons(who(f, w)?)))
    });
    engine.register_fn(
        "carried_weapons",
        |f: &mut FightHandle, w: i64| -> Result<Array> { Ok(names(f.carried_weapons(who(f, w)?))) },
    );
    engine.register_fn(
        "dropped_weapons",
        |f: &mut FightHandle, w: i64| -> Result<Array> { Ok(names(f.dropped_weapons(who(f, w)?))) },
    );
    engine.register_fn(
        "stow_weapon",
        |f: &mut FightHandle, w: i64, id: &str| -> Result<()> {
            Ok(f.stow_weapon(who(f, w)?, Name::new(id))?)
        },
    );
    engine.register_fn(
        "ready_weapon",
        |f: &mut FightHandle, w: i64, id: &str| -> Result<()> {
            Ok(f.ready_weapon(who(f, w)?, Name::new(id))?)
        },
    );
    engine.register_fn("is_shield", |f: &mut FightHandle, id: &str| {
        f.is_shield(Name::new(id))
    });
    engine.register_fn(
        "drop_weapon",
        |f: &mut FightHandle, w: i64, id: &str| -> Result<()> {
            Ok(f.drop_weapon(who(f, w)?, Name::new(id))?)
        },
    );
    engine.register_fn(
        "lodge_weapon",
        |f: &mut FightHandle, w: i64, id: &str, victim: i64| -> Result<()> {
            let victim = who(f, victim)?;
            Ok(f.lodge_weapon(who(f, w)?, Name::new(id), victim)?)
        },
    );
    engine.register_fn(
        "lose_weapon",
        |f: &mut FightHandle, w: i64, id: &str| -> Result<()> {
            Ok(f.lose_weapon(who(f, w)?, Name::new(id))?)
        },
    );
    engine.register_fn("weapon", |f: &mut FightHandle, id: &str| -> Result<Map> {
        let weapon = f.weapon(Name::new(id))?;
        let mut map = Map::new();
        map.insert("id".into(), id.into());
        map.insert("name".into(), weapon.name.clone().into());
        map.insert(
            "damage".into(),
            weapon
                .damage
                .as_ref()
                .map_or(Dynamic::UNIT, |d| d.to_string().into()),
        );
        map.insert(
            "skill".into(),
            weapon
                .skill
                .map_or(Dynamic::UNIT, |skill| Dynamic::from(skill.to_string())),
        );
        map.insert(
            "size".into(),
            weapon.size.map_or(Dynamic::UNIT, |n| n.to_string().into()),
        );
        map.insert(
            "reach".into(),
            weapon.reach.map_or(Dynamic::UNIT, |n| n.to_string().into()),
        );
        map.insert("ap".into(), Dynamic::from(i64::from(weapon.ap)));
        map.insert("hp".into(), Dynamic::from(i64::from(weapon.hp)));
        map.insert("traits".into(), names(weapon.traits.clone()).into());
        map.insert(
            "range".into(),
            weapon
                .range
                .map_or(Dynamic::UNIT, |r| Dynamic::from(i64::from(r))),
        );
        map.insert(
            "load".into(),
            weapon
                .load
                .map_or(Dynamic::UNIT, |n| Dynamic::from(i64::from(n))),
        );
        map.insert(
            "hands".into(),
            weapon
                .hands
                .map_or(Dynamic::UNIT, |n| Dynamic::from(i64::from(n))),
        );
        map.insert(
            "damage_modifier".into(),
            weapon.damage_modifier.map_or(Dynamic::UNIT, Dynamic::from),
        );
        map.insert("shield".into(), f.is_shield(Name::new(id)).into());
        map.insert("values".into(), equipment_values(&weapon.values).into());
        Ok(map)
    });
    engine.register_fn(
        "armour_worn",
        |f: &mut FightHandle, w: i64, at: &str| -> Result<Dynamic> {
            Ok(f.armour_worn(who(f, w)?, Name::new(at))?
                .map_or(Dynamic::UNIT, Dynamic::from))
        },
    );
    engine.register_fn(
        "armour_entry",
        |f: &mut FightHandle, id: &str| -> Result<Map> {
            let armour = f.armour_entry(id)?;
            let mut map = Map::new();
            map.insert("id".into(), id.into());
            map.insert("name".into(), armour.name.clone().into());
            map.insert("ap".into(), Dynamic::from(i64::from(armour.ap)));
            map.insert(
                "enc".into(),
                armour.enc.map_or(Dynamic::UNIT, Dynamic::from),
            );
            map.insert("values".into(), equipment_values(&armour.values).into());
            Ok(map)
        },
    );

    // Locations and damage.
    engine.register_fn(
        "locations",
        |f: &mut FightHandle, w: i64| -> Result<Array> { Ok(names(f.locations(who(f, w)?))) },
    );
    engine.register_fn(
        "hit_points",
        |f: &mut FightHandle, w: i64, at: &str| -> Result<i64> {
            Ok(f.hit_points(who(f, w)?, Name::new(at))?)
        },
    );
    engine.register_fn(
        "max_hit_points",
        |f: &mut FightHandle, w: i64, at: &str| -> Result<i64> {
            Ok(f.max_hit_points(who(f, w)?, Name::new(at))?)
        },
    );
    engine.register_fn(
        "set_max_hit_points",
        |f: &mut FightHandle, w: i64, at: &str, v: i64| -> Result<()> {
            let v = not_negative("set_max_hit_points", "the hit points", v)?;
            Ok(f.set_max_hit_points(who(f, w)?, Name::new(at), v)?)
        },
    );
    engine.register_fn(
        "armour",
        |f: &mut FightHandle, w: i64, at: &str| -> Result<i64> {
            Ok(f.armour(who(f, w)?, Name::new(at))?)
        },
    );
    engine.register_fn(
        "set_armour",
        |f: &mut FightHandle, w: i64, at: &str, ap: i64| -> Result<()> {
            Ok(f.set_armour(who(f, w)?, Name::new(at), ap)?)
        },
    );
    engine.register_fn(
        "damage",
        |f: &mut FightHandle, w: i64, at: &str, amount: i64| -> Result<i64> {
            let amount = not_negative("damage", "the amount of damage", amount)?;
            Ok(f.damage(who(f, w)?, Name::new(at), amount)?)
        },
    );
    engine.register_fn(
        "heal",
        |f: &mut FightHandle, w: i64, at: &str, amount: i64| -> Result<i64> {
            let amount = not_negative("heal", "the amount healed", amount)?;
            Ok(f.heal(who(f, w)?, Name::new(at), amount)?)
        },
    );
    // A wound only logs its level: the ruleset's scripts apply what it does.
    engine.register_fn(
        "wound",
        |f: &mut FightHandle, w: i64, level: &str| -> Result<()> {
            Ok(f.wound(who(f, w)?, None, Name::new(level))?)
        },
    );
    engine.register_fn(
        "wound",
        |f: &mut FightHandle, w: i64, at: &str, level: &str| -> Result<()> {
            Ok(f.wound(who(f, w)?, Some(Name::new(at)), Name::new(level))?)
        },
    );

    // Actions and conditions.
    engine.register_fn(
        "actions_left",
        |f: &mut FightHandle, w: i64| -> Result<i64> { Ok(f.actions_left(who(f, w)?)) },
    );
    engine.register_fn(
        "spend_action",
        |f: &mut FightHandle, w: i64, reason: &str| -> Result<bool> {
            Ok(f.spend_action(who(f, w)?, reason))
        },
    );
    engine.register_fn("initiative", |f: &mut FightHandle, w: i64| -> Result<i64> {
        Ok(f.initiative(who(f, w)?))
    });
    engine.register_fn(
        "wait_for",
        |f: &mut FightHandle, w: i64, until: i64, interrupt: bool| -> Result<()> {
            Ok(f.wait_for(who(f, w)?, who(f, until)?, interrupt)?)
        },
    );
    engine.register_fn(
        "lose_actions",
        |f: &mut FightHandle, w: i64, n: i64| -> Result<()> {
            let n = not_negative("lose_actions", "the actions lost", n)?;
            f.lose_actions(who(f, w)?, n);
            Ok(())
        },
    );
    engine.register_fn(
        "has_condition",
        |f: &mut FightHandle, w: i64, c: &str| -> Result<bool> {
            Ok(f.has_condition(who(f, w)?, Name::new(c)))
        },
    );
    engine.register_fn(
        "set_condition",
        |f: &mut FightHandle, w: i64, c: &str| -> Result<()> {
            Ok(f.set_condition(who(f, w)?, Name::new(c), 0, DurationUnit::Actions)?)
        },
    );
    engine.register_fn(
        "set_condition",
        |f: &mut FightHandle, w: i64, c: &str, n: i64, unit: &str| -> Result<()> {
            let n = not_negative("set_condition", "a duration", n)?;
            let unit = match unit {
                "actions" | "action" => DurationUnit::Actions,
                "rounds" | "round" => DurationUnit::Rounds,
                "turns" | "turn" => DurationUnit::Turns,
                other => {
                    return Err(format!(
                        "a condition lasts \"actions\", \"rounds\" or \"turns\", not {other:?}"
                    )
                    .into());
                }
            };
            Ok(f.set_condition(who(f, w)?, Name::new(c), n, unit)?)
        },
    );
    engine.register_fn(
        "clear_condition",
        |f: &mut FightHandle, w: i64, c: &str| -> Result<()> {
            f.clear_condition(who(f, w)?, Name::new(c));
            Ok(())
        },
    );
    engine.register_fn(
        "value",
        |f: &mut FightHandle, w: i64, key: &str| -> Result<i64> {
            Ok(f.value(who(f, w)?, Name::new(key)))
        },
    );
    engine.register_fn(
        "set_value",
        |f: &mut FightHandle, w: i64, key: &str, v: i64| -> Result<()> {
            f.set_value(who(f, w)?, Name::new(key), v);
            Ok(())
        },
    );

    // Values kept toward another combatant (combat.toml's `toward` names).
    engine.register_fn(
        "toward",
        |f: &mut FightHandle, w: i64, key: &str, o: i64| -> Result<i64> {
            let (w, o) = (who(f, w)?, who(f, o)?);
            f.toward_value(w, key, o)
                .map_err(|e| format!("fight.toward: {e}").into())
        },
    );
    engine.register_fn(
        "set_toward",
        |f: &mut FightHandle, w: i64, key: &str, o: i64, v: i64| -> Result<()> {
            let (w, o) = (who(f, w)?, who(f, o)?);
            f.set_toward_value(w, key, o, v)
                .map_err(|e| format!("fight.set_toward: {e}").into())
        },
    );

    // Dice and tables.
    engine.register_fn(
        "roll",
        |f: &mut FightHandle, dice: &str, purpose: &str| -> Result<i64> {
            Ok(f.roll(None, dice, purpose)?)
        },
    );
    engine.register_fn(
        "roll",
        |f: &mut FightHandle, w: i64, dice: &str, purpose: &str| -> Result<i64> {
            Ok(f.roll(Some(who(f, w)?), dice, purpose)?)
        },
    );
    engine.register_fn(
        "roll_table",
        |f: &mut FightHandle, w: i64, table: &str| -> Result<Map> { roll_table(f, w, table, 0) },
    );
    engine.register_fn(
        "roll_table",
        |f: &mut FightHandle, w: i64, table: &str, adjustment: i64| -> Result<Map> {
            roll_table(f, w, table, adjustment)
        },
    );
    engine.register_fn(
        "roll_maximised",
        |f: &mut FightHandle, w: i64, dice: &str, n: i64, purpose: &str| -> Result<i64> {
            let n = not_negative("roll_maximised", "the dice maximised", n)?;
            Ok(f.roll_maximised(Some(who(f, w)?), dice, n, purpose)?)
        },
    );
    engine.register_fn(
        "modifier",
        |f: &mut FightHandle, table: &str, name: &str| -> Result<Map> {
            Ok(modifier_map(f.modifier(table, name)?))
        },
    );
    engine.register_fn(
        "table_row",
        |f: &mut FightHandle, table: &str, result: i64| -> Result<Map> {
            let row = f.table_row(table, result)?;
            Ok(row_map(row))
        },
    );
    // A matrix key may be a name or a number (a SIZ, a damage total), on either axis.
    engine.register_fn(
        "matrix",
        |f: &mut FightHandle, table: &str, row: &str, column: &str| {
            matrix_map(f, table, row, column)
        },
    );
    engine.register_fn(
        "matrix",
        |f: &mut FightHandle, table: &str, row: i64, column: &str| {
            matrix_map(f, table, &row.to_string(), column)
        },
    );
    engine.register_fn(
        "matrix",
        |f: &mut FightHandle, table: &str, row: &str, column: i64| {
            matrix_map(f, table, row, &column.to_string())
        },
    );
    engine.register_fn(
        "matrix",
        |f: &mut FightHandle, table: &str, row: i64, column: i64| {
            matrix_map(f, table, &row.to_string(), &column.to_string())
        },
    );
    engine.register_fn(
        "lookup",
        |f: &mut FightHandle, table: &str, key: &str, column: &str| -> Result<Dynamic> {
            Ok(f.lookup(table, key, column)?
                .map_or(Dynamic::UNIT, value_to_dynamic))
        },
    );
    engine.register_fn(
        "lookup",
        |f: &mut FightHandle, table: &str, key: i64, column: &str| -> Result<Dynamic> {
            Ok(f.lookup(table, &key.to_string(), column)?
                .map_or(Dynamic::UNIT, value_to_dynamic))
        },
    );
    engine.register_fn(
        "effects",
        |f: &mut FightHandle,
         table: &str,
         role: &str,
         level: &str,
         opponent_level: &str,
         weapon: &str|
         -> Result<Array> {
            Ok(texts(f.effects(
                table,
                role,
                level,
                opponent_level,
                weapon,
            )?))
        },
    );
    engine.register_fn(
        "stackable",
        |f: &mut FightHandle, table: &str, effect: &str| -> Result<bool> {
            Ok(f.effect_stackable(table, effect)?)
        },
    );
    engine.register_fn(
        "formula",
        |f: &mut FightHandle, name: &str, vars: Map| -> Result<i64> {
            let formula = super::ScriptHooks::of(f.hooks())
                .and_then(|hooks| hooks.formula(name))
                .ok_or_else(|| format!("no formula `{name}` in ruleset.toml"))?;
            formula
                .eval_named(|parameter| vars.get(parameter).and_then(|value| value.as_int().ok()))
                .map_err(|missing| {
                    format!("the formula `{name}` reads `{missing}`, which this call does not give as a number").into()
                })
        },
    );

    // Choices and the log.
    engine.register_fn(
        "choose",
        |f: &mut FightHandle, w: i64, decision: &str, options: Array| -> Result<String> {
            let options: Vec<Name> = options
                .into_iter()
                .map(|o| Name::new(&o.to_string()))
                .collect();
            if options.is_empty() {
                return Err(format!("`{decision}` offered no options").into());
            }
            let w = who(f, w)?;
            f.choose(w, Name::new(decision), options)
                .map(|chosen| chosen.to_string())
                .map_err(|error| f.stop(error).into())
        },
    );
    engine.register_fn("log", |f: &mut FightHandle, text: &str| {
        f.note(|| text.to_string())
    });
    engine.register_fn(
        "log_test",
        |f: &mut FightHandle,
         w: i64,
         test: &str,
         target: i64,
         roll: i64,
         result: &str|
         -> Result<()> {
            f.log_test(who(f, w)?, Name::new(test), target, roll, Name::new(result));
            Ok(())
        },
    );
}

fn row_map(row: RowRolled<'_>) -> Map {
    let mut map = Map::new();
    map.insert("result".into(), Dynamic::from(row.result));
    map.insert("row".into(), row.name().into());
    map.insert("label".into(), row.label().into());
    map
}

fn roll_table(f: &mut FightHandle, w: i64, table: &str, adjustment: i64) -> Result<Map> {
    let w = who(f, w)?;
    let (row, calls) = f.roll_table(Some(w), table, adjustment)?;
    for call in &calls {
        let hooks = super::ScriptHooks::of(f.hooks())
            .ok_or_else(|| format!("no script module `{}`", call.module))?;
        // What the row's script returns is not used: it acts through the fight.
        let _ = hooks.call_row_script(f, Some(w), table, row.name(), call, None)?;
    }
    Ok(row_map(row))
}

/// `#{ type: "percent", value: -20 }`, `#{ type: "automatic", level: "critical" }`, ...
fn modifier_map(value: &ModifierValue) -> Map {
    let mut map = Map::new();
    let (kind, entries): (&str, Vec<(&str, Dynamic)>) = match value {
        ModifierValue::Percent { percent } => ("percent", vec![("value", Dynamic::from(*percent))]),
        ModifierValue::Flat { amount } => ("flat", vec![("value", Dynamic::from(*amount))]),
        ModifierValue::Grade { grade } => ("grade", vec![("grade", grade.value.clone().into())]),
        ModifierValue::Dice { dice, standard } => (
            "dice",
            vec![
                ("dice", dice.to_string().into()),
                ("value", Dynamic::from(*standard)),
            ],
        ),
        ModifierValue::Automatic { level } => {
            ("automatic", vec![("level", level.value.clone().into())])
        }
        ModifierValue::Multiply {
            numerator,
            denominator,
        } => (
            "multiply",
            vec![
                ("numerator", Dynamic::from(i64::from(*numerator))),
                ("denominator", Dynamic::from(i64::from(*denominator))),
            ],
        ),
        ModifierValue::Cap { skill } => ("cap", vec![("skill", skill.value.clone().into())]),
    };
    map.insert("type".into(), kind.into());
    for (key, value) in entries {
        map.insert(key.into(), value);
    }
    map
}

/// A matrix cell as a map: `#{}` for `-`, `#{ side, levels }`, or `#{ values }`.
fn matrix_map(f: &mut FightHandle, table: &str, row: &str, column: &str) -> Result<Map> {
    let mut map = Map::new();
    match f.matrix_cell(table, row, column)? {
        Cell::Empty => {}
        Cell::Wins { side, levels } => {
            map.insert("side".into(), side.value.clone().into());
            map.insert("levels".into(), Dynamic::from(i64::from(*levels)));
        }
        Cell::Result { values, .. } => {
            let values: Array = values.iter().map(|v| value_to_dynamic(&v.value)).collect();
            map.insert("values".into(), values.into());
        }
    }
    Ok(map)
}
