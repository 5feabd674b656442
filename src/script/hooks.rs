//! Calling a ruleset's scripts from the engine: the hooks of ruleset.toml, functions
//! named by table rows, the tactics chooser; and rhai errors as diagnostics naming the
//! script file, line and the hook that was running.

use std::collections::HashMap;
use std::sync::Arc;

use miette::{Diagnostic, NamedSource, SourceSpan};
use rhai::{Array, CallFnOptions, Dynamic, EvalAltResult, Map, Position, Scope};
use thiserror::Error;

use super::{Script, span_of};
use crate::engine::pipeline::ExchangeContext;
use crate::engine::{Chooser, Decision, FightError, FightHandle, HookArgument};
use crate::names::Name;
use crate::ruleset::Ruleset;
use crate::source::Span;

/// A rhai error while a fight ran.
#[derive(Debug, Error, Diagnostic)]
#[error("{message}")]
#[diagnostic(
    code(affray::script::failed),
    help("the fight stopped while running the hook `{hook}`; fix the script and run again")
)]
pub struct ScriptFailure {
    #[source_code]
    src: Option<NamedSource<Arc<str>>>,
    #[label("here")]
    span: Option<SourceSpan>,
    pub hook: String,
    pub message: String,
}

/// The value a hook returned, read as the engine needs it.
pub struct HookValue(Dynamic);

impl HookValue {
    pub fn as_int(&self) -> i64 {
        self.0.as_int().unwrap_or(0)
    }

    pub fn as_bool(&self) -> bool {
        self.0.as_bool().unwrap_or(false)
    }

    pub fn as_strings(&self) -> Vec<String> {
        self.0
            .clone()
            .try_cast::<Array>()
            .map(|items| items.into_iter().map(|item| item.to_string()).collect())
            .unwrap_or_default()
    }
}

/// The hooks a ruleset names, resolved to script functions.
pub struct Hooks {
    by_hook: HashMap<String, (usize, String)>,
}

impl Hooks {
    /// Hooks the engine calls, and how many arguments each function takes (the fight
    /// first). rulesets/README.md documents each.
    pub const KNOWN: [(&'static str, usize); 10] = [
        ("setup", 2),
        ("initiative", 2),
        ("tie_break", 2),
        ("actions", 2),
        ("choices", 2),
        ("act", 3),
        ("out_of_fight", 2),
        ("round_end", 1),
        ("interrupt", 3),
        ("after_fight", 1),
    ];
    pub const REQUIRED: [&'static str; 5] =
        ["initiative", "actions", "choices", "act", "out_of_fight"];

    pub fn from_ruleset(ruleset: &Ruleset) -> Self {
        let by_hook = ruleset
            .settings
            .hooks
            .iter()
            .filter_map(|(hook, target)| {
                let (module, function) = target.get_ref().split_once("::")?;
                let index = ruleset.scripts.iter().position(|s| s.module == module)?;
                Some((hook.clone(), (index, function.to_string())))
            })
            .collect();
        Hooks { by_hook }
    }

    pub fn has(&self, hook: &str) -> bool {
        self.by_hook.contains_key(hook)
    }

    pub fn call(
        &self,
        ruleset: &Ruleset,
        hook: &str,
        fight: &FightHandle,
        args: &[HookArgument],
    ) -> Result<HookValue, ScriptFailure> {
        let Some((index, function)) = self.by_hook.get(hook) else {
            return Ok(HookValue(Dynamic::UNIT));
        };
        let mut values = vec![Dynamic::from(fight.clone())];
        values.extend(args.iter().map(|arg| match arg {
            HookArgument::Who(who) => Dynamic::from(*who as i64),
            HookArgument::Text(text) => Dynamic::from(text.clone()),
        }));
        call_function(fight, &ruleset.scripts[*index], function, values)
            .map(HookValue)
            .map_err(|error| failure(ruleset, &ruleset.scripts[*index], hook, &error))
    }
}

impl Hooks {
    /// Run a table row's (or a `combat.toml` rule's) `script module::function`; an
    /// error names the script, its line and the row.
    pub fn call_row(
        &self,
        fight: &FightHandle,
        who: Option<usize>,
        table: &str,
        row: &str,
        call: &crate::engine::ScriptCall,
        exchange: Option<&ExchangeContext>,
    ) -> Result<(), ScriptFailure> {
        let ruleset = fight.ruleset();
        call_row_script(fight, who, table, row, call, exchange)
            .map(drop)
            .map_err(|error| {
                let script = ruleset.scripts.iter().find(|s| s.module == call.module);
                match script {
                    Some(script) => failure(
                        ruleset,
                        script,
                        &format!("{}::{}", call.module, call.function),
                        &error,
                    ),
                    None => ScriptFailure {
                        src: None,
                        span: None,
                        hook: format!("{}::{}", call.module, call.function),
                        message: error.to_string(),
                    },
                }
            })
    }
}

/// Call `function` of `script` with `args` for `fight`, without running the script's top
/// level again. Its operations count against the fight's `[limits] script_operations`:
/// rhai limits each call alone, and a hook that runs just under that limit at every turn
/// would make a fight last hours.
pub fn call_function(
    fight: &FightHandle,
    script: &Script,
    function: &str,
    args: Vec<Dynamic>,
) -> Result<Dynamic, Box<EvalAltResult>> {
    fight.may_run_scripts()?;
    let options = CallFnOptions::new().eval_ast(false).rewind_scope(true);
    let engine = &fight.ruleset().engine;
    let (result, operations) = super::sandbox::counted(|| {
        engine.call_fn_with_options::<Dynamic>(
            options,
            &mut Scope::new(),
            &script.ast,
            function,
            args,
        )
    });
    fight.count_script_operations(operations);
    result
}

/// The innermost error of a chain of calls, with the module it happened in.
fn innermost(error: &EvalAltResult) -> (Option<String>, Position, String) {
    match error {
        EvalAltResult::ErrorInFunctionCall(_, source, inner, position) => {
            let (inner_source, inner_position, message) = innermost(inner);
            let source = inner_source.or_else(|| (!source.is_empty()).then(|| source.clone()));
            let position = if inner_position.is_none() {
                *position
            } else {
                inner_position
            };
            (source, position, message)
        }
        EvalAltResult::ErrorRuntime(message, position) => (None, *position, message.to_string()),
        other => {
            // rhai appends the position, which the diagnostic shows itself.
            let message = other.unwrap_inner().to_string();
            let message = match message.rfind(" (line ") {
                Some(at) => message[..at].to_string(),
                None => message,
            };
            (None, other.position(), message)
        }
    }
}

fn failure(
    ruleset: &Ruleset,
    hook_script: &Script,
    hook: &str,
    error: &EvalAltResult,
) -> ScriptFailure {
    let (source, position, message) = innermost(error);
    let script = source
        .and_then(|module| ruleset.scripts.iter().find(|s| s.module == module))
        .unwrap_or(hook_script);
    let located = (!position.is_none()).then(|| span_of(&script.file, position));
    let line = position
        .line()
        .map(|l| format!(" (line {l})"))
        .unwrap_or_default();
    ScriptFailure {
        src: located.map(|_| script.file.named()),
        span: located.map(|span: Span| span.into()),
        hook: hook.to_string(),
        message: format!("{}{line}: {message}", script.file.name()),
    }
}

impl From<ScriptFailure> for FightError {
    fn from(failure: ScriptFailure) -> Self {
        FightError::Script(Box::new(failure))
    }
}

/// The default chooser: the ruleset's priority list for the decision (`tactics.toml`)
/// if it has one; else its tactics module: for a decision `reaction` it calls
/// `choose_reaction(fight, who, options)` if the module defines it, else
/// `choose(fight, who, decision, options)`; else the first option.
pub struct TacticsChooser {
    module: Option<usize>,
}

impl TacticsChooser {
    pub fn new(ruleset: &Ruleset) -> Self {
        let module = ruleset.settings.tactics.as_ref().and_then(|name| {
            ruleset
                .scripts
                .iter()
                .position(|s| s.module == *name.get_ref())
        });
        TacticsChooser { module }
    }
}

impl Chooser for TacticsChooser {
    fn choose(
        &mut self,
        fight: &FightHandle,
        decision: &Decision,
    ) -> Result<(Name, &'static str), FightError> {
        // The priority lists of tactics.toml first: native, and always an offered option.
        if let Some(chosen) = fight.listed_choice(decision) {
            return Ok((chosen, "tactics"));
        }
        let ruleset = fight.ruleset();
        let Some(script) = self.module.map(|index| &ruleset.scripts[index]) else {
            return Ok((decision.options[0], "first option"));
        };
        let options: Array = decision
            .options
            .iter()
            .map(|o| Dynamic::from(o.to_string()))
            .collect();
        let specific = format!("choose_{}", decision.name);
        let fight_value = Dynamic::from(fight.clone());
        let who = Dynamic::from(decision.who as i64);
        let result = if script.arities(&specific).contains(&3) {
            call_function(
                fight,
                script,
                &specific,
                vec![fight_value, who, options.into()],
            )
        } else if script.arities("choose").contains(&4) {
            call_function(
                fight,
                script,
                "choose",
                vec![
                    fight_value,
                    who,
                    decision.name.to_string().into(),
                    options.into(),
                ],
            )
        } else {
            return Ok((decision.options[0], "first option"));
        };
        let hook = format!("tactics: {}", decision.name);
        let chosen = result
            .map_err(|error| failure(ruleset, script, &hook, &error))?
            .to_string();
        if let Some(offered) = decision.options.iter().find(|o| **o == chosen) {
            Ok((*offered, "tactics"))
        } else {
            Err(ScriptFailure {
                src: None,
                span: None,
                hook,
                message: format!(
                    "{} chose `{chosen}` for {}'s {}, which is not one of: {}",
                    script.file.name(),
                    decision.who_name,
                    decision.name,
                    crate::names::join(&decision.options, ", ")
                ),
            }
            .into())
        }
    }
}

/// A table row's `script module::function(args)`: called with a context map
/// `#{ fight, who, table, row }` and the row's arguments. Called from a rule of an
/// exchange, the map also holds the exchange: `attacker`, `defender`, `winner` (numbers;
/// `()` before the outcome), `weapon`, `parry` (equipment ids, or `()`), `location`,
/// `rolled`, `damage`, and `attack`, `defence` (`#{ level, roll }`, or `()`).
pub fn call_row_script(
    fight: &FightHandle,
    who: Option<usize>,
    table: &str,
    row: &str,
    call: &crate::engine::ScriptCall,
    exchange: Option<&ExchangeContext>,
) -> Result<Dynamic, Box<EvalAltResult>> {
    let ruleset = fight.ruleset();
    let script = ruleset
        .scripts
        .iter()
        .find(|s| s.module == call.module)
        .ok_or_else(|| format!("no script module `{}`", call.module))?;
    let mut context = Map::new();
    context.insert("fight".into(), Dynamic::from(fight.clone()));
    context.insert(
        "who".into(),
        who.map_or(Dynamic::UNIT, |w| Dynamic::from(w as i64)),
    );
    context.insert("table".into(), table.into());
    context.insert("row".into(), row.into());
    if let Some(exchange) = exchange {
        insert_exchange(&mut context, exchange);
    }
    let mut args = vec![Dynamic::from(context)];
    args.extend(call.args.iter().map(super::api::value_to_dynamic));
    call_function(fight, script, &call.function, args)
}

/// The exchange's part of a script's context map.
fn insert_exchange(context: &mut Map, exchange: &ExchangeContext) {
    let text = |value: &Option<Name>| value.map_or(Dynamic::UNIT, |v| Dynamic::from(v.to_string()));
    let test = |value: &Option<(Name, i64)>| {
        value.as_ref().map_or(Dynamic::UNIT, |(level, roll)| {
            let mut map = Map::new();
            map.insert("level".into(), level.to_string().into());
            map.insert("roll".into(), Dynamic::from(*roll));
            Dynamic::from(map)
        })
    };
    context.insert("attacker".into(), Dynamic::from(exchange.attacker as i64));
    context.insert("defender".into(), Dynamic::from(exchange.defender as i64));
    context.insert(
        "winner".into(),
        exchange
            .winner
            .map_or(Dynamic::UNIT, |w| Dynamic::from(w as i64)),
    );
    context.insert("weapon".into(), text(&exchange.weapon));
    context.insert("parry".into(), text(&exchange.parry));
    context.insert("location".into(), text(&exchange.location));
    context.insert("rolled".into(), Dynamic::from(exchange.rolled));
    context.insert("reached".into(), Dynamic::from(exchange.reached));
    context.insert("damage".into(), Dynamic::from(exchange.damage));
    context.insert("attack".into(), test(&exchange.attack));
    context.insert("defence".into(), test(&exchange.defence));
}
