//! How names are matched across spellings: a student's `find_good_move` for the handout's
//! `FindGoodMove`, a mistyped problem name on the command line. Here, below every layer that
//! names things, so that specs, builds and reports share one rule.

/// A function name as spelled with case and underscores removed: `FindGoodMove`,
/// `findGoodMove`, `find_good_move` and `FINDGOODMOVE` are one name.
pub fn spelling_key(name: &str) -> String {
    name.chars()
        .filter(|c| *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

/// Of `among`, the name `wanted` most likely meant: the same letters ignoring case, `_` and
/// `-`, or at most two edits away (`labtictactoe`, `maze_lib`, `turnpik`). None when
/// nothing is that close.
pub fn did_you_mean<'a>(wanted: &str, among: &'a [String]) -> Option<&'a String> {
    let key = |s: &str| spelling_key(&s.replace('-', "_"));
    let w = key(wanted);
    among
        .iter()
        .map(|n| (strsim::levenshtein(&key(n), &w), n))
        .filter(|(d, _)| *d <= 2)
        .min_by_key(|(d, _)| *d)
        .map(|(_, n)| n)
}
