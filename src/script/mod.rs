//! The rhai side: one sandboxed engine per ruleset, scripts compiled once, and rhai errors
//! turned into diagnostics. This module is the only one that sees rhai.

// Errors are the cold path (loading a ruleset once); see parse/mod.rs.
#![allow(clippy::result_large_err)]

mod api;
mod calls;
mod fast;
mod hooks;
pub mod layout;
mod problem;
mod sandbox;

use std::sync::Arc;

pub use calls::module_calls;
pub use hooks::{ScriptFailure, ScriptHooks, TacticsChooser, WrongReturn};
pub use problem::ScriptProblem;
pub use sandbox::{Limits, new_engine};

use rhai::{AST, Engine, EvalAltResult, Scope};

use crate::source::{SourceFile, Span};

/// A compiled `scripts/<module>.rhai`.
#[derive(Clone, Debug)]
pub struct Script {
    pub module: String,
    pub file: SourceFile,
    pub ast: Arc<AST>,
    /// Every function the script defines, with its number of parameters.
    pub functions: Vec<(String, usize)>,
}

impl Script {
    /// The names of its functions, for suggestions.
    pub fn function_names(&self) -> Vec<String> {
        self.functions
            .iter()
            .map(|(name, _)| name.clone())
            .collect()
    }

    /// The arities under which `function` is defined (rhai overloads by arity).
    pub fn arities(&self, function: &str) -> Vec<usize> {
        self.functions
            .iter()
            .filter(|(name, _)| name == function)
            .map(|(_, arity)| *arity)
            .collect()
    }
}

/// Compile a script and run its top level once (constants, checks), under the sandbox's
/// limits, so that a script that loops forever is reported when the ruleset loads.
pub fn compile_script(
    engine: &Engine,
    module: &str,
    file: &SourceFile,
) -> Result<Script, ScriptProblem> {
    let mut ast = engine
        .compile(file.text())
        .map_err(|error| ScriptProblem::syntax(file, *error.0, error.1))?;
    // Errors raised inside this script's functions name it by its module.
    ast.set_source(module);
    engine
        .run_ast_with_scope(&mut Scope::new(), &ast)
        .map_err(|error| {
            ScriptProblem::runtime(
                file,
                &error,
                "its top level, run once when the ruleset loads",
            )
        })?;
    // Sorted: rhai keeps functions in a hash map, and messages must not depend on its order.
    let mut functions: Vec<(String, usize)> = ast
        .iter_functions()
        .map(|f| (f.name.to_string(), f.params.len()))
        .collect();
    functions.sort();
    Ok(Script {
        module: module.to_string(),
        file: file.clone(),
        ast: Arc::new(ast),
        functions,
    })
}

/// Where a rhai error happened, as a byte span in `file`.
fn span_of(file: &SourceFile, position: rhai::Position) -> Span {
    match (position.line(), position.position()) {
        (Some(line), column) => {
            let start = file.offset_of(line, column.unwrap_or(1));
            let end = file.text()[start..]
                .char_indices()
                .find(|(_, c)| !(c.is_alphanumeric() || *c == '_'))
                .map_or(file.text().len(), |(i, _)| start + i.max(1));
            Span::new(
                start,
                end.max(start + usize::from(start < file.text().len())),
            )
        }
        (None, _) => Span::new(0, 0),
    }
}

/// Whether a runtime error is the sandbox stopping a script that ran too long.
fn is_runaway(error: &EvalAltResult) -> bool {
    matches!(
        error,
        EvalAltResult::ErrorTooManyOperations(_) | EvalAltResult::ErrorStackOverflow(_)
    )
}
