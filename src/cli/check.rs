//! `affray check <ruleset>`

use std::path::Path;

use affray::ruleset::{self, Problems};

pub fn run(dir: &Path) -> Result<(), Problems> {
    let ruleset = ruleset::load(dir)?;
    println!("{}", ruleset.summary());
    Ok(())
}
