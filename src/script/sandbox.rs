//! The sandboxed rhai engine: no file access, no clock, no `eval`, limits on everything a
//! runaway script could grow.

use std::cell::Cell;

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
    // The operations of the call running on this thread, for the fight's own budget
    // (`[limits] script_operations`): see `OPERATIONS`.
    engine.on_progress(|operations| {
        OPERATIONS.set(operations);
        None
    });
    engine
        .set_max_operations(Limits::OPERATIONS)
        .set_max_call_levels(Limits::CALL_LEVELS)
        .set_max_expr_depths(Limits::EXPRESSION_DEPTH, Limits::FUNCTION_EXPRESSION_DEPTH)
        .set_max_string_size(Limits::STRING_SIZE)
        .set_max_array_size(Limits::ARRAY_SIZE)
        .set_max_map_size(Limits::MAP_SIZE);
    engine
}

thread_local! {
    /// Operations of the call now running on this thread, as rhai counts them (from 0 at
    /// each call of a function). The engine is one per ruleset, shared by the threads
    /// that run fights in parallel, so the count cannot live in the engine; and a call
    /// runs on one thread from start to end, so a thread-local seen by `on_progress` is
    /// the current call's. [`counted`] reads it around one call and hands the figure to
    /// the fight, which adds it to its own total.
    static OPERATIONS: Cell<u64> = const { Cell::new(0) };
}

/// Run `call` and return its result with the operations it took. A call made from
/// inside another (a table row's script run while a hook rolls on the table) is counted
/// by itself, and the outer call's count so far is put back when it returns.
pub(super) fn counted<T>(call: impl FnOnce() -> T) -> (T, u64) {
    let outer = OPERATIONS.replace(0);
    let result = call();
    let operations = OPERATIONS.replace(outer);
    (result, operations)
}
