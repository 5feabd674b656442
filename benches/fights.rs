//! Whole fights per second, one thread, log off: the figure issue notes quote.
//! Run with `cargo bench --bench fights`; criterion prints the time per fight.

use std::path::Path;
use std::sync::Arc;

use affray::dice::DiceSource;
use affray::engine::{FightHandle, FightSetup, ScriptedChooser};
use affray::script::TacticsChooser;
use criterion::{Criterion, criterion_group, criterion_main};

/// A closure running one seeded fight of `scenario` per call, seeds 0, 1, 2, ...
fn fights(scenario: &str) -> impl FnMut() -> u32 {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(scenario);
    let (ruleset, scenario) = affray::scenario::load(&path, None).expect("a shipped scenario");
    let ruleset = Arc::new(ruleset);
    let mut seed = 0;
    move || {
        seed += 1;
        let chooser = ScriptedChooser::new(&scenario.choices, TacticsChooser::new(&ruleset));
        let setup = FightSetup {
            dice: DiceSource::seeded(seed),
            chooser: Box::new(chooser),
            log: false,
            observer: None,
        };
        let fight = FightHandle::new(Arc::clone(&ruleset), &scenario, setup).expect("it sets up");
        fight.run().expect("it fights").rounds
    }
}

fn whole_fights(c: &mut Criterion) {
    let mut group = c.benchmark_group("fight");
    for (name, scenario) in [
        (
            "legend duel",
            "rulesets/legend/scenarios/sword_and_shield_duel.toml",
        ),
        (
            "legend goblin fight",
            "rulesets/legend/scenarios/goblin_fight.toml",
        ),
        (
            "d20 fixture",
            "tests/fixtures/d20_skirmish/scenarios/skirmish.toml",
        ),
    ] {
        let mut fight = fights(scenario);
        group.bench_function(name, |b| b.iter(&mut fight));
    }
    group.finish();
}

criterion_group!(benches, whole_fights);
criterion_main!(benches);
