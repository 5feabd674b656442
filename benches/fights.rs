//! The speed figures of the README's "Performance" section: one exchange, whole fights
//! (one thread), the odds of one exchange, and loading + checking a ruleset. Run with `cargo bench --bench fights`;
//! criterion prints the time per iteration.

use std::path::Path;
use std::sync::Arc;

use affray::analysis::exchange::Exchange;
use affray::analysis::run::seeded_fight;
use affray::dice::DiceSource;
use affray::engine::Log;
use criterion::{Criterion, criterion_group, criterion_main};

// The allocator of the affray binary (src/main.rs), so that these are the command's times.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// A closure running one seeded fight of `scenario` per call, seeds 0, 1, 2, ...
fn fights(scenario: &str) -> impl FnMut() -> u32 {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(scenario);
    let (ruleset, scenario) = affray::scenario::load(&path, None).expect("a shipped scenario");
    let ruleset = Arc::new(ruleset);
    let mut seed = 0;
    move || {
        seed += 1;
        let fight = seeded_fight(&ruleset, &scenario, seed, Log::Off).expect("it sets up");
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
        // Each ruleset's duel, the scenario PORTING.md holds to 20,000 fights a second.
        (
            "runequest duel",
            "rulesets/runequest-srd/scenarios/sword_and_shield_duel.toml",
        ),
        (
            "classic fantasy duel",
            "rulesets/classic-fantasy/scenarios/sword_and_shield_duel.toml",
        ),
        ("3d6 hex duel", "rulesets/3d6-hex/scenarios/duel.toml"),
        (
            "opend6 sword duel",
            "rulesets/opend6/scenarios/sword_duel.toml",
        ),
        (
            "d20 fixture",
            "tests/fixtures/d20_skirmish/scenarios/skirmish.toml",
        ),
        (
            "d100 fixture duel",
            "tests/fixtures/d100_duel/scenarios/duel.toml",
        ),
    ] {
        let mut fight = fights(scenario);
        group.bench_function(name, |b| b.iter(&mut fight));
    }
    group.finish();
}

/// One exchange of the Legend duel (the attacker's first turn, as `affray odds` runs it
/// once per branch), seeds 1, 2, 3, ...
fn one_exchange(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("rulesets/legend/scenarios/sword_and_shield_duel.toml");
    let (ruleset, scenario) = affray::scenario::load(&path, None).expect("a shipped scenario");
    let exchange = Exchange::new(Arc::new(ruleset), scenario, None, None, None).expect("two sides");
    let mut seed = 0;
    c.bench_function("exchange/legend duel", |b| {
        b.iter(|| {
            seed += 1;
            exchange
                .run(DiceSource::seeded(seed))
                .expect("it runs")
                .1
                .len()
        })
    });
}

/// `affray odds` without the loading: the Legend duel's exchange at the default
/// branching limit, and the d100 fixture's walked to the end (exact).
fn odds(c: &mut Criterion) {
    let mut group = c.benchmark_group("odds");
    group.sample_size(10);
    for (name, scenario, branches) in [
        (
            "legend duel",
            "rulesets/legend/scenarios/sword_and_shield_duel.toml",
            10_000,
        ),
        (
            "d100 fixture duel, exact",
            "tests/fixtures/d100_duel/scenarios/duel.toml",
            100_000_000,
        ),
    ] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(scenario);
        let (ruleset, scenario) = affray::scenario::load(&path, None).expect("a shipped scenario");
        let exchange =
            Exchange::new(Arc::new(ruleset), scenario, None, None, None).expect("two sides");
        group.bench_function(name, |b| {
            b.iter(|| {
                affray::analysis::odds::odds(&exchange, branches, 1)
                    .expect("it runs")
                    .branches
            })
        });
    }
    group.finish();
}

/// Loading and checking a whole ruleset directory (parse, compile, resolve), as
/// `affray check` does.
fn ruleset_load(c: &mut Criterion) {
    let mut group = c.benchmark_group("load and check");
    for name in ["legend", "classic-fantasy"] {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("rulesets")
            .join(name);
        group.bench_function(name, |b| {
            b.iter(|| {
                affray::ruleset::load(&dir)
                    .expect("a shipped ruleset")
                    .rules
                    .tables
                    .len()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, whole_fights, one_exchange, odds, ruleset_load);
criterion_main!(benches);
