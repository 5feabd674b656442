//! The sandboxed rhai engine: no file access, no clock, no `eval`, limits on everything a
//! runaway script could grow.

use rhai::Engine;
use rhai::packages::{Package, StandardPackage};

/// The limits every ruleset's engine runs under.
pub struct Limits;

impl Limits {
    /// Operations in one call of a hook (or one run of a script's top level).
    pub const OPERATIONS: u64 = 1_000_000;
    pub const CALL_LEVELS: usize = 64;
    pub const EXPRESSION_DEPTH: usize = 64;
    pub const FUNCTION_EXPRESSION_DEPTH: usize = 32;
    pub const STRING_SIZE: usize = 10_000;
    pub const ARRAY_SIZE: usize = 10_000;
    pub const MAP_SIZE: usize = 1_000;
}

/// A new engine with the standard library (built without the clock: feature `no_time`),
/// `eval` disabled, printing silenced, and the limits above.
pub fn new_engine() -> Engine {
    let mut engine = Engine::new_raw();
    engine.register_global_module(StandardPackage::new().as_shared_module());
    engine.disable_symbol("eval");
    super::fast::register(&mut engine);
    super::api::register(&mut engine);
    // Output goes through the fight log, never straight to the terminal.
    engine.on_print(|_| {});
    engine.on_debug(|_, _, _| {});
    engine
        .set_max_operations(Limits::OPERATIONS)
        .set_max_call_levels(Limits::CALL_LEVELS)
        .set_max_expr_depths(Limits::EXPRESSION_DEPTH, Limits::FUNCTION_EXPRESSION_DEPTH)
        .set_max_string_size(Limits::STRING_SIZE)
        .set_max_array_size(Limits::ARRAY_SIZE)
        .set_max_map_size(Limits::MAP_SIZE);
    engine
}
