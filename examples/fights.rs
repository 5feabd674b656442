//! Run seeded fights of one scenario with the log off, as `cargo bench --bench fights`
//! does, for an instruction-counting profiler:
//!
//! ```text
//! cargo build --release --example fights
//! valgrind --tool=callgrind target/release/examples/fights \
//!     rulesets/legend/scenarios/sword_and_shield_duel.toml 200
//! ```
//!
//! Counting N + 1 fights less 1 fight gives the instructions of N fights without the
//! loading (README.md, "Performance").

use std::path::PathBuf;
use std::sync::Arc;

use affray::analysis::run::seeded_fight;
use affray::engine::Log;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(path), count) = (args.next(), args.next()) else {
        eprintln!("usage: fights <scenario.toml> [fights, default 100]");
        std::process::exit(2);
    };
    let count: u64 = count.map_or(100, |n| n.parse().expect("a number of fights"));
    let (ruleset, scenario) = match affray::scenario::load(&PathBuf::from(&path), None) {
        Ok(loaded) => loaded,
        Err(errors) => {
            for error in errors {
                eprintln!("{error:?}");
            }
            std::process::exit(1);
        }
    };
    let ruleset = Arc::new(ruleset);
    let mut rounds = 0u64;
    for seed in 1..=count {
        let fight = seeded_fight(&ruleset, &scenario, seed, Log::Off).expect("it sets up");
        rounds += u64::from(fight.run().expect("it fights").rounds);
    }
    println!("{count} fights, {rounds} rounds");
}
