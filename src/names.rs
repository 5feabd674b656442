//! Names a user wrote that refer to nothing: the known name they most likely meant.

/// The known name closest to `name`, if it is close enough to be a typo.
pub fn suggest<'k>(name: &str, known: &'k [String]) -> Option<&'k str> {
    known
        .iter()
        .map(|candidate| (edit_distance(name, candidate), candidate))
        .filter(|(distance, candidate)| *distance <= (candidate.chars().count() / 3).max(1))
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate.as_str())
}

/// Levenshtein distance, by characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != *cb);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        previous = current;
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }
}
