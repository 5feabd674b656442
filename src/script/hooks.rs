//! Calling a ruleset's scripts from the engine: the hooks of ruleset.toml, functions
//! named by table rows (the engine's [`RulesetHooks`], implemented by [`ScriptHooks`]),
//! the tactics chooser; and rhai errors as diagnostics naming the script file, line and
//! the hook that was running.

use std::collections::HashMap;
use std::sync::Arc;

use indexmap::IndexMap;
use miette::{Diagnostic, NamedSource, SourceSpan};
use rhai::{Array, CallFnOptions, Dynamic, Engine, EvalAltResult, Map, Position, Scope};
use thiserror::Error;
use toml::Spanned;

use super::{Limits, Script, is_runaway, span_of};
use crate::engine::hooks::{self, HookError, HookFailure, RulesetHooks};
use crate::engine::pipeline::ExchangeContext;
use crate::engine::{Chooser, Decision, FightError, FightHandle, HookArgument, Rules};
use crate::expr::Formula;
use crate::names::Name;
use crate::source::Span;

/// A rhai error while a fight ran.
#[derive(Debug, Error)]
#[error("{message}")]
pub struct ScriptFailure {
    src: Option<NamedSource<Arc<str>>>,
    span: Option<SourceSpan>,
    pub hook: String,
    pub message: String,
    /// The sandbox stopped it (a limit of one call); the span is then the function the
    /// hook called, since rhai keeps no place for such an error.
    runaway: bool,
}

impl Diagnostic for ScriptFailure {
    fn code<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        Some(Box::new(if self.runaway {
            "affray::script::runaway"
        } else {
            "affray::script::failed"
        }))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        Some(Box::new(if self.runaway {
            format!(
                "the fight stopped while running the hook `{}`: scripts run under a limit of {} operations a call and {} nested calls; look for a loop that never ends or a function that calls itself",
                self.hook,
                Limits::OPERATIONS,
                Limits::CALL_LEVELS
            )
        } else {
            format!(
                "the fight stopped while running the hook `{}`; fix the script and run again",
                self.hook
            )
        }))
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.src.as_ref().map(|src| src as &dyn miette::SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        let label = if self.runaway {
            "in this function"
        } else {
            "here"
        };
        let span = self.span?;
        Some(Box::new(std::iter::once(
            miette::LabeledSpan::new_with_span(Some(label.to_string()), span),
        )))
    }
}

/// A hook's function returned another type than the engine reads from that hook (an
/// `actions` hook returning a map, an `out_of_fight` hook returning nothing).
#[derive(Debug, Error, Diagnostic)]
#[error("{file}{line}: the hook `{hook}` returned {found}, but it should return {expected}")]
#[diagnostic(
    code(affray::script::wrong_return),
    help(
        "return {expected} from `{function}` on every path (an `if` without `else` gives nothing when it does not hold); rulesets/README.md, \"Hooks\", says what each hook returns"
    )
)]
pub struct WrongReturn {
    #[source_code]
    src: Option<NamedSource<Arc<str>>>,
    #[label("this function")]
    span: Option<SourceSpan>,
    pub hook: String,
    function: String,
    file: String,
    line: String,
    expected: &'static str,
    found: String,
}

impl From<WrongReturn> for FightError {
    fn from(wrong: WrongReturn) -> Self {
        HookError::from(wrong).into()
    }
}

impl From<WrongReturn> for HookError {
    fn from(wrong: WrongReturn) -> Self {
        HookError::WrongReturn(HookFailure::new(wrong))
    }
}

/// What a hook returned, with the function that returned it, to be read as the engine
/// needs it: a value of another type stops the fight with a [`WrongReturn`].
struct HookValue<'h> {
    value: Dynamic,
    hook: &'h str,
    /// The script (an index of the host's `scripts`) and function it came from;
    /// `None` when the ruleset names no function for the hook.
    function: Option<(usize, &'h str)>,
}

impl HookValue<'_> {
    /// A whole number (`initiative`, `tie_break`, `actions`).
    fn number(self, scripts: &[Script]) -> Result<i64, WrongReturn> {
        match self.value.as_int() {
            Ok(number) => Ok(number),
            Err(_) if self.function.is_none() => Ok(0),
            Err(_) => Err(self.wrong(scripts, "a whole number")),
        }
    }

    /// `true` or `false` (`out_of_fight`, `interrupt`).
    fn flag(self, scripts: &[Script]) -> Result<bool, WrongReturn> {
        match self.value.as_bool() {
            Ok(flag) => Ok(flag),
            Err(_) if self.function.is_none() => Ok(false),
            Err(_) => Err(self.wrong(scripts, "`true` or `false`")),
        }
    }

    /// A list of names (`choices`): an array of texts.
    fn names(self, scripts: &[Script]) -> Result<Vec<Name>, WrongReturn> {
        const NAMES: &str = "a list of names, such as [\"attack\", \"parry\"]";
        if self.function.is_none() {
            return Ok(Vec::new());
        }
        let Some(items) = self.value.read_lock::<Array>() else {
            return Err(self.wrong(scripts, NAMES));
        };
        let mut names = Vec::with_capacity(items.len());
        let mut other = None;
        for item in items.iter() {
            if let Ok(text) = item.as_immutable_string_ref() {
                names.push(Name::new(text.as_str()));
            } else {
                other = Some(format!("a list holding {}", described(item)));
                break;
            }
        }
        drop(items);
        match other {
            Some(found) => Err(self.wrong_with(scripts, NAMES, found)),
            None => Ok(names),
        }
    }

    fn wrong(&self, scripts: &[Script], expected: &'static str) -> WrongReturn {
        self.wrong_with(scripts, expected, described(&self.value))
    }

    fn wrong_with(&self, scripts: &[Script], expected: &'static str, found: String) -> WrongReturn {
        let (index, function) = self.function.unwrap_or((0, ""));
        let script = &scripts[index];
        let arity = hooks::KNOWN
            .iter()
            .find(|(hook, _)| *hook == self.hook)
            .map(|(_, arity)| *arity);
        wrong_return(script, self.hook, function, arity, expected, found)
    }
}

/// A [`WrongReturn`] pointing at the first line of `function` (with `arity` parameters,
/// when known) in `script`.
fn wrong_return(
    script: &Script,
    hook: &str,
    function: &str,
    arity: Option<usize>,
    expected: &'static str,
    found: String,
) -> WrongReturn {
    let span = function_header(script, function, arity);
    WrongReturn {
        src: span.map(|_| script.file.named()),
        span: span.map(Into::into),
        hook: hook.to_string(),
        function: format!("{}::{function}", script.module),
        file: script.file.name().to_string(),
        line: span.map_or(String::new(), |span| {
            format!(" (line {})", script.file.line_of(span.start))
        }),
        expected,
        found,
    }
}

/// Where `function` (with `arity` parameters, when known) is written in `script`: its
/// first line, `fn name(a, b)`, not its whole body.
fn function_header(script: &Script, function: &str, arity: Option<usize>) -> Option<Span> {
    let text = script.file.text();
    super::layout::functions_in(text)
        .into_iter()
        .find(|f| f.name == function && arity.is_none_or(|arity| f.arity == arity))
        .map(|f| {
            let header = &text[f.span.start..f.span.end];
            let end = header.find(['{', '\n']).unwrap_or(header.len());
            Span::new(f.span.start, f.span.start + header[..end].trim_end().len())
        })
}

/// A value as a message names it: its kind, and what it is, cut short.
fn described(value: &Dynamic) -> String {
    let kind = if value.is_unit() {
        return "nothing (`()`)".to_string();
    } else if value.is_int() {
        "a whole number"
    } else if value.is_bool() {
        "a true/false value"
    } else if value.is_string() {
        "a text"
    } else if value.is_array() {
        "a list"
    } else if value.is_map() {
        "a map"
    } else if value.is::<rhai::FLOAT>() {
        "a decimal number"
    } else {
        "a value"
    };
    format!(
        "{kind} (`{}`)",
        crate::source::excerpt(&format!("{value:?}"))
    )
}

/// A ruleset's scripts as the engine calls them: its hooks of ruleset.toml resolved to
/// script functions, the functions table rows and combat.toml's rules name, and the
/// tactics module, on the sandboxed engine they were compiled on. The ruleset's loader
/// builds it and hands it to the engine as the rules' [`RulesetHooks`].
pub struct ScriptHooks {
    /// The sandboxed engine the scripts were compiled on, and run on.
    engine: Arc<Engine>,
    /// The ruleset's scripts, in the order of `Ruleset::scripts`.
    scripts: Vec<Script>,
    /// The `[formulas]` of ruleset.toml, which scripts evaluate (`fight.formula`).
    formulas: Vec<Formula>,
    by_hook: HashMap<String, (usize, String)>,
    /// The tactics module (an index of `scripts`), if ruleset.toml names one.
    tactics: Option<usize>,
    /// For each script, whether it may read the tests of an exchange it is given
    /// ([`reads_tests`]).
    reads_tests: Vec<bool>,
}

/// Whether a script's text may read `attack` or `defence` of the context map a row's
/// call is given: it names either as a word (`ctx.attack`, `c["defence"]`), imports
/// another module, or calls something that reads a map whole, without naming its
/// keys (outside lines of comment). A script that does none of these cannot reach a
/// test's roll, so an enumeration need not draw the roll before calling it.
fn reads_tests(text: &str) -> bool {
    const NAMES: &[&str] = &[
        "attack",
        "defence",
        "import",
        "values",
        "keys",
        "to_json",
        "to_string",
        "to_debug",
        "print",
        "debug",
        "drain",
        "retain",
        "filter",
        "map",
        "reduce",
        "fill_with",
        "mixin",
        "eval",
        "call",
        "curry",
        "Fn",
        "this",
    ];
    // Lines of comment say nothing the script does.
    text.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .flat_map(|line| line.split(|c: char| !(c.is_alphanumeric() || c == '_')))
        .any(|word| NAMES.contains(&word))
}

impl ScriptHooks {
    /// The hooks of `hooks` (ruleset.toml's `[hooks]`: hook → `module::function`) and the
    /// tactics module `tactics` over `scripts`, run on `engine`.
    pub fn new(
        engine: Arc<Engine>,
        scripts: Vec<Script>,
        formulas: Vec<Formula>,
        hooks: &IndexMap<String, Spanned<String>>,
        tactics: Option<&str>,
    ) -> Self {
        let by_hook = hooks
            .iter()
            .filter_map(|(hook, target)| {
                let (module, function) = target.get_ref().split_once("::")?;
                let index = scripts.iter().position(|s| s.module == module)?;
                Some((hook.clone(), (index, function.to_string())))
            })
            .collect();
        let tactics = tactics.and_then(|name| scripts.iter().position(|s| s.module == name));
        let reads_tests = scripts.iter().map(|s| reads_tests(s.file.text())).collect();
        ScriptHooks {
            engine,
            scripts,
            formulas,
            by_hook,
            tactics,
            reads_tests,
        }
    }

    /// The script host that `hooks` are, when they are one (a loaded ruleset's always
    /// are): how a script's call into the fight finds the scripts again.
    pub fn of(hooks: &dyn RulesetHooks) -> Option<&ScriptHooks> {
        let hooks: &dyn std::any::Any = hooks;
        hooks.downcast_ref()
    }

    /// The formula `name` of ruleset.toml.
    pub fn formula(&self, name: &str) -> Option<&Formula> {
        self.formulas.iter().find(|formula| formula.name == name)
    }

    /// Call `hook`'s function, if the ruleset names one: what it returned, to be read.
    fn call_hook<'h>(
        &'h self,
        fight: &FightHandle,
        hook: &'h str,
        args: &[HookArgument],
    ) -> Result<HookValue<'h>, HookError> {
        let Some((index, function)) = self.by_hook.get(hook) else {
            return Ok(HookValue {
                value: Dynamic::UNIT,
                hook,
                function: None,
            });
        };
        let mut values = vec![Dynamic::from(fight.clone())];
        values.extend(args.iter().map(|arg| match arg {
            HookArgument::Who(who) => Dynamic::from(*who as i64),
            HookArgument::Text(text) => Dynamic::from(text.clone()),
        }));
        self.call_function(fight, &self.scripts[*index], function, values)
            .map(|value| HookValue {
                value,
                hook,
                function: Some((*index, function.as_str())),
            })
            .map_err(|error| {
                let failure = failure(&self.scripts, &self.scripts[*index], hook, function, &error);
                HookError::Failed(HookFailure::new(failure))
            })
    }

    /// Call `function` of `script` with `args` for `fight`, without running the script's
    /// top level again. Its operations count against the fight's `[limits]
    /// script_operations`: rhai limits each call alone, and a hook that runs just under
    /// that limit at every turn would make a fight last hours.
    pub fn call_function(
        &self,
        fight: &FightHandle,
        script: &Script,
        function: &str,
        args: Vec<Dynamic>,
    ) -> Result<Dynamic, Box<EvalAltResult>> {
        fight.may_run_scripts()?;
        let options = CallFnOptions::new().eval_ast(false).rewind_scope(true);
        let engine = &self.engine;
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
}

impl RulesetHooks for ScriptHooks {
    fn may_read_tests(&self, module: &str) -> bool {
        self.scripts
            .iter()
            .position(|s| s.module == module)
            .is_none_or(|at| self.reads_tests[at])
    }

    fn has(&self, hook: &str) -> bool {
        self.by_hook.contains_key(hook)
    }

    fn call(
        &self,
        fight: &FightHandle,
        hook: &str,
        args: &[HookArgument],
    ) -> Result<(), HookError> {
        self.call_hook(fight, hook, args).map(drop)
    }

    fn number(
        &self,
        fight: &FightHandle,
        hook: &str,
        args: &[HookArgument],
    ) -> Result<i64, HookError> {
        Ok(self.call_hook(fight, hook, args)?.number(&self.scripts)?)
    }

    fn flag(
        &self,
        fight: &FightHandle,
        hook: &str,
        args: &[HookArgument],
    ) -> Result<bool, HookError> {
        Ok(self.call_hook(fight, hook, args)?.flag(&self.scripts)?)
    }

    fn names(
        &self,
        fight: &FightHandle,
        hook: &str,
        args: &[HookArgument],
    ) -> Result<Vec<Name>, HookError> {
        Ok(self.call_hook(fight, hook, args)?.names(&self.scripts)?)
    }

    /// Run a table row's (or a `combat.toml` rule's) `script module::function`; an
    /// error names the script, its line and the row.
    fn call_row(
        &self,
        fight: &FightHandle,
        who: Option<usize>,
        table: &str,
        row: &str,
        call: &crate::engine::ScriptCall,
        exchange: Option<&ExchangeContext>,
    ) -> Result<(), HookFailure> {
        self.call_row_script(fight, who, table, row, call, exchange)
            .map(drop)
            .map_err(|error| {
                let script = self.scripts.iter().find(|s| s.module == call.module);
                HookFailure::new(match script {
                    Some(script) => failure(
                        &self.scripts,
                        script,
                        &format!("{}::{}", call.module, call.function),
                        &call.function,
                        &error,
                    ),
                    None => ScriptFailure {
                        src: None,
                        span: None,
                        hook: format!("{}::{}", call.module, call.function),
                        message: error.to_string(),
                        runaway: false,
                    },
                })
            })
    }
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

/// A rhai error of `function` of `hook_script` (one of `scripts`), called for `hook`, as
/// a diagnostic.
fn failure(
    scripts: &[Script],
    hook_script: &Script,
    hook: &str,
    function: &str,
    error: &EvalAltResult,
) -> ScriptFailure {
    let (source, position, message) = innermost(error);
    if is_runaway(error.unwrap_inner()) {
        return runaway(hook_script, hook, function, error.unwrap_inner());
    }
    let script = source
        .and_then(|module| scripts.iter().find(|s| s.module == module))
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
        runaway: false,
    }
}

/// A call the sandbox stopped at one of its limits. rhai gives such an error the place
/// of the call from outside, which is none: the report points at the function called.
fn runaway(script: &Script, hook: &str, function: &str, error: &EvalAltResult) -> ScriptFailure {
    let span = function_header(script, function, None);
    let line = span.map_or(String::new(), |span| {
        format!(" (line {})", script.file.line_of(span.start))
    });
    let what = match error {
        EvalAltResult::ErrorStackOverflow(_) => format!(
            "nested its calls more than {} deep (the most calls may nest): does a function call itself without end?",
            Limits::CALL_LEVELS
        ),
        _ => format!(
            "ran more than {} operations in one call (the most one call may run): does it loop forever?",
            Limits::OPERATIONS
        ),
    };
    ScriptFailure {
        src: span.map(|_| script.file.named()),
        span: span.map(Into::into),
        hook: hook.to_string(),
        message: format!(
            "{}{line}: `{}::{function}`, called for `{hook}`, {what}",
            script.file.name(),
            script.module
        ),
        runaway: true,
    }
}

impl From<ScriptFailure> for FightError {
    fn from(failure: ScriptFailure) -> Self {
        FightError::Script(Box::new(HookFailure::new(failure)))
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
    pub fn new(rules: &Rules) -> Self {
        let module = ScriptHooks::of(&*rules.hooks).and_then(|hooks| hooks.tactics);
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
        let hooks = ScriptHooks::of(fight.hooks());
        let Some((hooks, script)) =
            hooks.and_then(|hooks| Some((hooks, &hooks.scripts[self.module?])))
        else {
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
        let (function, arity) = if script.arities(&specific).contains(&3) {
            (specific.as_str(), 3)
        } else {
            ("choose", 4)
        };
        let result = if arity == 3 {
            hooks.call_function(
                fight,
                script,
                &specific,
                vec![fight_value, who, options.into()],
            )
        } else if script.arities("choose").contains(&4) {
            hooks.call_function(
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
        let chosen =
            result.map_err(|error| failure(&hooks.scripts, script, &hook, function, &error))?;
        let Some(chosen) = chosen
            .read_lock::<rhai::ImmutableString>()
            .map(|c| c.to_string())
        else {
            return Err(wrong_return(
                script,
                &hook,
                function,
                Some(arity),
                "a text: the name of one of the options",
                described(&chosen),
            )
            .into());
        };
        if let Some(offered) = decision.options.iter().find(|o| **o == chosen) {
            Ok((*offered, "tactics"))
        } else {
            Err(ScriptFailure {
                src: None,
                span: None,
                hook,
                runaway: false,
                message: format!(
                    "{} chose `{}` for {}'s {}, which is not one of: {}",
                    script.file.name(),
                    crate::source::excerpt(&chosen),
                    decision.who_name,
                    decision.name,
                    crate::names::join(&decision.options, ", ")
                ),
            }
            .into())
        }
    }
}

impl ScriptHooks {
    /// A table row's `script module::function(args)`: called with a context map
    /// `#{ fight, who, table, row }` and the row's arguments. Called from a rule of an
    /// exchange, the map also holds the exchange: `attacker`, `defender`, `winner` (numbers;
    /// `()` before the outcome), `weapon`, `parry` (equipment ids, or `()`), `location`,
    /// `rolled`, `damage`, and `attack`, `defence` (`#{ level, roll }`, or `()`).
    pub fn call_row_script(
        &self,
        fight: &FightHandle,
        who: Option<usize>,
        table: &str,
        row: &str,
        call: &crate::engine::ScriptCall,
        exchange: Option<&ExchangeContext>,
    ) -> Result<Dynamic, Box<EvalAltResult>> {
        let script = self
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
        self.call_function(fight, script, &call.function, args)
    }
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
    let chosen: Array = exchange
        .chosen
        .iter()
        .map(|name| Dynamic::from(name.to_string()))
        .collect();
    context.insert("chosen".into(), Dynamic::from(chosen));
}

#[cfg(test)]
mod tests {
    use super::reads_tests;

    /// A script that names neither test, nor reads a map whole, cannot reach a roll: an
    /// enumeration need not draw the rolls before calling it. A comment says nothing.
    #[test]
    fn a_script_reads_the_tests_only_if_it_may_reach_them() {
        let rolls_itself = "/// Roll again: the Games Master's call.\n\
                            fn damage(ctx) { let d = ctx.fight.roll(ctx.who, \"1d8\", \"damage\");\n\
                            ctx.fight.set_condition(ctx.who, \"cannot_attack\", d, \"actions\"); }";
        assert!(!reads_tests(rolls_itself));
        for reads in [
            "fn f(ctx) { if ctx.attack.roll > 50 { 1 } else { 0 } }",
            "fn f(ctx) { ctx[\"defence\"] }",
            "fn f(ctx) { for v in ctx.values() { print(v) } }",
            "import \"other\" as other;\nfn f(ctx) { other::g(ctx) }",
        ] {
            assert!(reads_tests(reads), "{reads}");
        }
    }
}
