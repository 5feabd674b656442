//! Names: interned once so that a fight compares and copies them as pointers, and the
//! known name a misspelt one most likely meant.

use std::collections::HashSet;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::{Mutex, OnceLock};

use indexmap::IndexMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A name (a combatant, a condition, a value, a location, a weapon's trait, ...) interned
/// for the life of the process: each text is stored once, so a `Name` is a pointer that
/// is copied without allocating and compared by address, never by its characters.
///
/// Its hash is its address, which differs from run to run: a map keyed by names must keep
/// insertion order ([`NameMap`]) so that nothing a fight prints depends on it. Names
/// order by their text.
#[derive(Clone, Copy)]
pub struct Name(&'static str);

/// Every text interned so far. Names come from the files a user loads and from what
/// scripts make of them: few, and kept for the process's life. Hashed with foldhash
/// rather than SipHash: a script names a value or condition by its text at every call
/// (`fight.value(who, "aim")`), and nothing here faces untrusted keys.
type Interned = HashSet<&'static str, foldhash::fast::FixedState>;

fn interned() -> &'static Mutex<Interned> {
    static NAMES: OnceLock<Mutex<Interned>> = OnceLock::new();
    NAMES.get_or_init(|| Mutex::new(Interned::default()))
}

impl Name {
    /// The name of `text`, interning it the first time it is seen.
    pub fn new(text: &str) -> Name {
        let mut names = interned().lock().unwrap_or_else(|p| p.into_inner());
        match names.get(text) {
            Some(known) => Name(known),
            None => {
                let stored: &'static str = Box::leak(text.to_owned().into_boxed_str());
                names.insert(stored);
                Name(stored)
            }
        }
    }

    pub fn as_str(self) -> &'static str {
        self.0
    }

    /// One of 64 bits for the name, from its text's address (higher bits folded in, since
    /// the lowest often follow the allocator's alignment): names whose bits differ are
    /// different, so a set of names as the or of their bits tells at once that a name is
    /// not among them. Two names may share a bit.
    #[inline]
    pub fn bit(self) -> u64 {
        1 << self.bit_index()
    }

    /// Which of the 64 bits [`Name::bit`] is.
    #[inline]
    pub fn bit_index(self) -> usize {
        let at = self.0.as_ptr() as usize;
        (at ^ (at >> 6) ^ (at >> 12)) & 63
    }
}

/// The [`Name`] of a text written in the code, interned once per place it is written:
/// `name!("action")`.
#[macro_export]
macro_rules! name {
    ($text:literal) => {{
        static NAME: std::sync::OnceLock<$crate::names::Name> = std::sync::OnceLock::new();
        *NAME.get_or_init(|| $crate::names::Name::new($text))
    }};
}

/// The names as one text, `separator` between them.
pub fn join(names: &[Name], separator: &str) -> String {
    let texts: Vec<&str> = names.iter().map(|name| name.as_str()).collect();
    texts.join(separator)
}

/// A map keyed by names, in insertion order (so that its order never depends on where a
/// name is stored), hashed by address.
pub type NameMap<V> = IndexMap<Name, V, foldhash::fast::FixedState>;

/// A few values keyed by names, in insertion order, found by comparing pointers: for the
/// handful of numbers a combatant keeps (`fight.set_value`), read hundreds of times a
/// fight, a scan of a few pointers costs less than hashing one.
///
/// Most reads are of a value the combatant does not have or holds at nothing (a hold
/// nobody put on it, a flag a round's start set back to 0), so the list keeps a bit for
/// each name it holds a value other than the default for, from its pointer: a name whose
/// bit is clear holds the default, without a scan. Its readers take a name not there
/// as the default ([`NameList::get`] may answer `None` for one that holds it).
///
/// Each name is found with one look at the first entry of its bit (the place kept in
/// `first`), rather than a scan of the list: only a name whose bit an earlier entry
/// has is looked for past that entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NameList<V> {
    entries: Vec<(Name, V)>,
    /// The bits of the names holding something else than `V::default()`.
    present: u64,
    /// For each of the 64 bits ([`Name::bit_index`]), 1 + the place of the first entry
    /// whose name has it; 0 for none (or one past the first 255 entries, which a list
    /// of that length finds by a scan).
    first: [u8; 64],
}

impl<V> Default for NameList<V> {
    fn default() -> Self {
        NameList {
            entries: Vec::new(),
            present: 0,
            first: [0; 64],
        }
    }
}

impl<V: Default + PartialEq> NameList<V> {
    /// The name's bit among the 64 of `present` ([`Name::bit`]).
    #[inline]
    pub fn bit(name: &Name) -> u64 {
        name.bit()
    }

    /// The place of `name`'s entry: the first of its bit, else (another name having
    /// the bit first) the one after it that is `name`'s.
    #[inline]
    fn place(&self, name: &Name) -> Option<usize> {
        let first = usize::from(self.first[name.bit_index()]);
        if first == 0 {
            // No entry has the bit, unless the list is past what `first` records.
            return if self.entries.len() < usize::from(u8::MAX) {
                None
            } else {
                self.entries.iter().position(|(n, _)| n == name)
            };
        }
        if self.entries[first - 1].0 == *name {
            return Some(first - 1);
        }
        self.entries[first..]
            .iter()
            .position(|(n, _)| n == name)
            .map(|at| first + at)
    }

    /// What `name` holds; `None` where it holds nothing, and maybe where it holds the
    /// default.
    #[inline]
    pub fn get(&self, name: &Name) -> Option<&V> {
        if self.present & Self::bit(name) == 0 {
            return None;
        }
        self.place(name).map(|at| &self.entries[at].1)
    }

    /// Set `name` to `value`: in its place when it has one, else at the end.
    pub fn insert(&mut self, name: Name, value: V) {
        let default = value == V::default();
        match self.place(&name) {
            Some(at) => self.entries[at].1 = value,
            None => {
                self.entries.push((name, value));
                let first = &mut self.first[name.bit_index()];
                if *first == 0 {
                    *first = u8::try_from(self.entries.len()).unwrap_or(0);
                }
            }
        }
        if !default {
            self.present |= Self::bit(&name);
        } else if self.present & Self::bit(&name) != 0 {
            // Another name may share the bit: the bits of those holding something.
            self.present = self
                .entries
                .iter()
                .filter(|(_, v)| *v != V::default())
                .fold(0, |bits, (n, _)| bits | Self::bit(n));
        }
    }

    /// Whether `name` was ever set, whatever it holds (the default too).
    pub fn holds(&self, name: &Name) -> bool {
        self.place(name).is_some()
    }

    pub fn iter(&self) -> impl Iterator<Item = (&Name, &V)> {
        self.entries.iter().map(|(n, v)| (n, v))
    }
}

impl NameList<i64> {
    /// Whether none of `names` holds anything but 0; `mask` is their bits
    /// ([`NameList::bit`] of each, or'd): a list that holds none of them says so at once.
    #[inline]
    pub fn none_of(&self, names: &[Name], mask: u64) -> bool {
        self.present & mask == 0
            || names
                .iter()
                .all(|name| self.get(name).is_none_or(|v| *v == 0))
    }
}

impl PartialEq for Name {
    fn eq(&self, other: &Name) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for Name {}

impl Hash for Name {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_usize(self.0.as_ptr() as usize);
    }
}

impl PartialOrd for Name {
    fn partial_cmp(&self, other: &Name) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Name {
    fn cmp(&self, other: &Name) -> std::cmp::Ordering {
        self.0.cmp(other.0)
    }
}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl PartialEq<String> for Name {
    fn eq(&self, other: &String) -> bool {
        self.0 == other.as_str()
    }
}

impl std::ops::Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        self.0
    }
}

impl AsRef<str> for Name {
    fn as_ref(&self) -> &str {
        self.0
    }
}

impl From<&str> for Name {
    fn from(text: &str) -> Name {
        Name::new(text)
    }
}

impl From<&String> for Name {
    fn from(text: &String) -> Name {
        Name::new(text)
    }
}

impl From<String> for Name {
    fn from(text: String) -> Name {
        Name::new(&text)
    }
}

impl From<Name> for String {
    fn from(name: Name) -> String {
        name.0.to_owned()
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.0, f)
    }
}

impl Serialize for Name {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0)
    }
}

impl<'de> Deserialize<'de> for Name {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Name, D::Error> {
        let text = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
        Ok(Name::new(&text))
    }
}

/// A name as the log's prose reads it: `held_back` as "held back". Ids keep
/// their underscores wherever a GM types them back (`--action`, a choice at the table,
/// `--dial`), and GM mode takes either form; only the prose shows words.
#[derive(Clone, Copy)]
pub struct Words<'a>(pub &'a str);

impl fmt::Display for Words<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, part) in self.0.split('_').enumerate() {
            if index > 0 {
                f.write_str(" ")?;
            }
            f.write_str(part)?;
        }
        Ok(())
    }
}

/// Names as prose reads them, `separator` between them.
pub fn join_words(names: &[Name], separator: &str) -> String {
    let texts: Vec<String> = names.iter().map(|name| Words(name).to_string()).collect();
    texts.join(separator)
}

/// Whether `typed` is `name`, as its id (`keep_watch`) or its words (`keep watch`).
pub fn typed_as(name: &str, typed: &str) -> bool {
    name == typed || (name.len() == typed.len() && name.replace('_', " ") == typed)
}

/// The known name closest to `name`, if it is close enough to be a typo.
pub fn suggest<'k>(name: &str, known: &'k [String]) -> Option<&'k str> {
    let length = name.chars().count();
    known
        .iter()
        .filter_map(|candidate| {
            let allowed = (candidate.chars().count() / 3).max(1);
            // Names whose lengths differ by more cannot be that close: not compared (a
            // name of a million characters is refused at once, not in minutes).
            if length.abs_diff(candidate.chars().count()) > allowed {
                return None;
            }
            let distance = edit_distance(name, candidate);
            (distance <= allowed).then_some((distance, candidate))
        })
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate.as_str())
}

/// Levenshtein distance, by characters.
fn edit_distance(a: &str, b: &str) -> usize {
    // Levenshtein with two neighbours swapped as one edit (optimal string alignment):
    // `prnoe` is one slip from `prone`, as a person types it.
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut before: Vec<usize> = Vec::new();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for i in 0..a.len() {
        let mut current = vec![i + 1; b.len() + 1];
        for j in 0..b.len() {
            let substitution = previous[j] + usize::from(a[i] != b[j]);
            let mut best = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
            if i > 0 && j > 0 && a[i] == b[j - 1] && a[i - 1] == b[j] {
                best = best.min(before[j - 1] + 1);
            }
            current[j + 1] = best;
        }
        before = std::mem::replace(&mut previous, current);
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_its_text_stored_once() {
        let a = Name::new("prone");
        let b = Name::new(&String::from("prone"));
        assert_eq!(a, b);
        assert!(std::ptr::eq(a.as_str(), b.as_str()));
        assert_ne!(a, Name::new("prone2"));
        assert_eq!(a, "prone");
        assert_eq!(a.to_string(), "prone");
        assert!(Name::new("alpha") < Name::new("beta"));
    }

    #[test]
    fn suggests_a_close_name_only() {
        let known = vec![
            "critical".to_string(),
            "success".to_string(),
            "failure".to_string(),
        ];
        assert_eq!(suggest("critcal", &known), Some("critical"));
        assert_eq!(suggest("sucess", &known), Some("success"));
        assert_eq!(suggest("banana", &known), None);
        // Two letters swapped are one slip.
        let conditions = vec!["prone".to_string(), "winded".to_string()];
        assert_eq!(suggest("prnoe", &conditions), Some("prone"));
        assert_eq!(edit_distance("prnoe", "prone"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn a_name_list_keeps_one_value_a_name_in_the_order_first_set() {
        let mut values = NameList::default();
        values.insert(Name::new("steps"), 1);
        values.insert(Name::new("marks"), 2);
        values.insert(Name::new("steps"), 3);
        assert_eq!(values.get(&Name::new("steps")), Some(&3));
        assert_eq!(values.get(&Name::new("tries")), None);
        let order: Vec<(&str, i64)> = values.iter().map(|(n, v)| (n.as_str(), *v)).collect();
        assert_eq!(order, [("steps", 3), ("marks", 2)]);
    }

    /// A value set back to 0 reads as none held, at once (`none_of` tests its bit), while
    /// the others keep theirs, whatever bits they share.
    #[test]
    fn a_name_list_set_back_to_nothing_holds_none_of_it() {
        let names: Vec<Name> = (0..200).map(|i| Name::new(&format!("value_{i}"))).collect();
        let mut values = NameList::default();
        for (i, name) in names.iter().enumerate() {
            values.insert(*name, i as i64 + 1);
        }
        for name in names.iter().step_by(2) {
            values.insert(*name, 0);
        }
        for (i, name) in names.iter().enumerate() {
            let held = values.get(name).copied().unwrap_or(0);
            let mask = NameList::<i64>::bit(name);
            if i % 2 == 0 {
                assert_eq!(held, 0);
                assert!(values.none_of(&[*name], mask));
            } else {
                assert_eq!(held, i as i64 + 1);
                assert!(!values.none_of(&[*name], mask));
            }
        }
        // Every name keeps its place, 0 or not.
        assert_eq!(values.iter().count(), 200);
        let mut cleared = NameList::default();
        cleared.insert(names[0], 5);
        cleared.insert(names[0], 0);
        assert!(cleared.none_of(&names[..1], NameList::<i64>::bit(&names[0])));
        assert_eq!(cleared.present, 0);
    }

    #[test]
    fn prose_reads_an_id_as_words_and_a_gm_may_type_either() {
        assert_eq!(Words("held_back").to_string(), "held back");
        assert_eq!(Words("ready").to_string(), "ready");
        let names = [Name::new("keep_watch"), Name::new("wait")];
        assert_eq!(join_words(&names, ", "), "keep watch, wait");
        assert!(typed_as("keep_watch", "keep_watch"));
        assert!(typed_as("keep_watch", "keep watch"));
        assert!(!typed_as("keep_watch", "keep"));
        assert!(!typed_as("wait", "keep watch"));
    }
}
