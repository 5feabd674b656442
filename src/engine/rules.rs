//! What a fight runs of a ruleset, as the engine defines it: the settings it reads, the
//! tables, the equipment, the tactics, `combat.toml` compiled, and the hooks. The
//! ruleset's loader builds it from the files it read and checked (`ruleset::load`), and
//! every fight of the ruleset shares it.

use std::collections::HashMap;
use std::sync::Arc;

use super::hooks::RulesetHooks;
use super::model::{Equipment, FightSettings};
use super::pipeline::{Combat, Specialised};
use super::tactics::Tactics;
use crate::names::Name;
use crate::tables::{Table, TableKind};

/// A ruleset as the engine runs it.
pub struct Rules {
    /// The ruleset's directory as the user named it, for messages.
    pub dir: String,
    pub settings: FightSettings,
    pub tables: Vec<Table>,
    table_index: HashMap<String, usize>,
    pub equipment: Equipment,
    /// The default chooser's priority lists (`tactics.toml`), by decision.
    pub tactics: Tactics,
    /// `combat.toml`, compiled: the turn and exchange the engine runs natively.
    pub combat: Option<Combat>,
    /// `combat` specialised to what fights know before their first turn, each made once
    /// and shared by the fights that know the same.
    pub specialised: Specialised,
    /// The ruleset's scripts as the engine calls them.
    pub hooks: Arc<dyn RulesetHooks>,
    /// What each combatant's body starts as: the hit locations in order (`total` alone
    /// without a location table), named once here rather than for every fight.
    pub start_locations: Vec<Name>,
}

impl std::fmt::Debug for Rules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rules")
            .field("dir", &self.dir)
            .finish_non_exhaustive()
    }
}

impl Rules {
    pub fn new(
        dir: String,
        settings: FightSettings,
        tables: Vec<Table>,
        equipment: Equipment,
        tactics: Tactics,
        combat: Option<Combat>,
        hooks: Arc<dyn RulesetHooks>,
    ) -> Self {
        let table_index = tables
            .iter()
            .enumerate()
            .map(|(index, table)| (table.name.value.clone(), index))
            .collect();
        let mut rules = Rules {
            dir,
            settings,
            tables,
            table_index,
            equipment,
            tactics,
            combat,
            specialised: Specialised::default(),
            hooks,
            start_locations: Vec::new(),
        };
        let mut locations: Vec<Name> = rules
            .hit_location_names()
            .iter()
            .map(|name| Name::new(name))
            .collect();
        if locations.is_empty() {
            locations.push(crate::name!("total"));
        }
        rules.start_locations = locations;
        rules
    }

    pub fn table(&self, name: &str) -> Option<&Table> {
        self.table_index.get(name).map(|&index| &self.tables[index])
    }

    /// The names of the hit locations (rows of the `hit_locations` table), in order.
    pub fn hit_location_names(&self) -> Vec<String> {
        let table = self
            .settings
            .hit_locations
            .as_ref()
            .and_then(|name| self.table(name));
        match table.map(|t| &t.kind) {
            Some(TableKind::Roll(roll)) => roll.rows.iter().map(|r| r.name.value.clone()).collect(),
            _ => Vec::new(),
        }
    }
}
