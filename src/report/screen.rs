//! One screen: what the default text report may take, and how it stays within it.
//!
//! A student reads the report in a terminal of 80 columns. When one mistake fails eighty
//! cases, printing eighty rows and a dozen explanations buries the cause; the report instead
//! keeps to [`LINES`] lines where it can: the case table groups each function's inputs into
//! one row ([`coarse_groups`]), the first mistake is explained in full, and the others get a
//! line each ([`fit`]). `-v` still shows everything.

use unicode_width::UnicodeWidthStr;

pub use crate::columns::WIDTH;

/// Lines the default report aims to fit in (a screen).
pub const LINES: usize = 40;

/// Rows the case table may have before each function's inputs become one row.
pub const TABLE_ROWS: usize = 12;

/// The lines of `text` wider than [`WIDTH`] columns of display width.
pub fn too_wide(text: &str) -> Vec<&str> {
    text.lines().filter(|l| l.width() > WIDTH).collect()
}

/// `text` cut to `width` columns of display width, ending in `…` when cut.
pub fn clip(text: &str, width: usize) -> String {
    if text.width() <= width {
        return text.to_string();
    }
    let mut out = String::new();
    let mut used = 0;
    for ch in text.chars() {
        let w = unicode_width::UnicodeWidthChar::width(ch).unwrap_or(0);
        if used + w + 1 > width {
            break;
        }
        out.push(ch);
        used += w;
    }
    out.push('…');
    out
}

/// One row of a long table: its cases, and the name it is shown by when more than one part
/// of their names varies (`repeats/*/*`, a glob `--case` takes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// The cases, in report order.
    pub members: Vec<usize>,
    /// The row's name as a glob, when two parts vary; `None` when one does.
    pub glob: Option<String>,
}

/// The cases of a long table grouped into rows, each row the cases whose names differ in one
/// `/`-separated part only: `FindGoodMove/2/return` to `FindGoodMove/15/return` are one row
/// whatever their verdicts. A name of one part is a row of its own (equal names share one:
/// the caller gives every hidden case the same name). For names with the same number of parts, the varying part is the
/// one that makes the fewest rows (the input: `fill/<picture>/calls`). When that still makes
/// more than [`TABLE_ROWS`] rows, names of three parts or more vary in two
/// (`repeats/<set>/<check>`). Rows keep the order of their first case.
pub fn coarse_groups(names: &[&str]) -> Vec<Group> {
    let parts: Vec<Vec<&str>> = names.iter().map(|n| n.split('/').collect()).collect();
    // The name with the parts in `blank` blanked: cases with equal keys share a row.
    let key = |i: usize, blank: &[usize]| -> Vec<&str> {
        let mut p = parts[i].clone();
        for &k in blank {
            if k < p.len() {
                p[k] = "*";
            }
        }
        p
    };
    let lens: std::collections::BTreeSet<usize> = parts.iter().map(Vec::len).collect();
    let rows_of = |len: usize, blank: &[usize]| {
        (0..names.len())
            .filter(|&i| parts[i].len() == len)
            .map(|i| key(i, blank))
            .collect::<std::collections::BTreeSet<_>>()
            .len()
    };
    // The different values the parts in `blank` take: the input is the part that varies most.
    let variety = |len: usize, blank: &[usize]| -> usize {
        blank
            .iter()
            .map(|&k| {
                (0..names.len())
                    .filter(|&i| parts[i].len() == len)
                    .map(|i| parts[i][k])
                    .collect::<std::collections::BTreeSet<_>>()
                    .len()
            })
            .sum()
    };
    // Fewest rows; on a tie the parts that vary most, then the later parts (a row is a
    // prefix: `repeats/*/*`).
    let best = |len: usize, choices: Vec<Vec<usize>>| -> Vec<usize> {
        choices
            .into_iter()
            .rev()
            .min_by_key(|b| (rows_of(len, b), std::cmp::Reverse(variety(len, b))))
            .unwrap_or_default()
    };
    // A name of one part names a check, not an input (`GenerateMoveList`): its own row.
    let mut blank: std::collections::BTreeMap<usize, Vec<usize>> = lens
        .iter()
        .map(|&len| match len {
            1 => (len, Vec::new()),
            _ => (len, best(len, (0..len).map(|k| vec![k]).collect())),
        })
        .collect();
    let total = |blank: &std::collections::BTreeMap<usize, Vec<usize>>| -> usize {
        blank.iter().map(|(&len, b)| rows_of(len, b)).sum()
    };
    if total(&blank) > TABLE_ROWS {
        for &len in lens.iter().filter(|&&len| len >= 3) {
            let pairs = (0..len)
                .flat_map(|a| (a + 1..len).map(move |b| vec![a, b]))
                .collect();
            blank.insert(len, best(len, pairs));
        }
    }
    let mut groups: Vec<(Vec<&str>, Group)> = Vec::new();
    for i in 0..names.len() {
        let b = &blank[&parts[i].len()];
        let k = key(i, b);
        match groups.iter_mut().find(|(g, _)| *g == k) {
            Some((_, group)) => group.members.push(i),
            None => groups.push((
                k.clone(),
                Group {
                    members: vec![i],
                    glob: (b.len() > 1).then(|| k.join("/")),
                },
            )),
        }
    }
    groups.into_iter().map(|(_, g)| g).collect()
}

/// Which of the blocks (each a list of lines, in the order they are to be read) are shown in
/// full within `budget` lines, given that every block not shown in full costs one line
/// (`brief`) plus `brief_heading` lines once. The first block is always shown in full; each
/// later one while the rest still fits.
pub fn fit(blocks: &[usize], budget: usize, brief_heading: usize) -> Vec<bool> {
    let mut full = vec![false; blocks.len()];
    if blocks.iter().sum::<usize>() <= budget {
        return vec![true; blocks.len()];
    }
    let mut used = 0;
    for (i, &len) in blocks.iter().enumerate() {
        let rest = blocks.len() - i - 1;
        let briefs = if rest > 0 { rest + brief_heading } else { 0 };
        if i == 0 || used + len + briefs <= budget {
            full[i] = true;
            used += len;
        } else {
            break;
        }
    }
    full
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clip_counts_display_width() {
        assert_eq!(clip("abcdef", 6), "abcdef");
        assert_eq!(clip("abcdef", 4), "abc…");
        assert_eq!(clip("日本語です", 5), "日本…");
        assert!(clip("日本語です", 5).width() <= 5);
    }

    #[test]
    fn each_function_and_check_is_one_row() {
        let names = [
            "build/no-warnings",
            "F/2/return",
            "F/3/return",
            "F/2/calls",
            "F/3/calls",
            "G/1/return",
            "robustness/F/1",
            "robustness/G/0",
            "game/figure",
            "game/ones",
        ];
        let groups = coarse_groups(&names);
        let named: Vec<Vec<&str>> = groups
            .iter()
            .map(|g| g.members.iter().map(|&i| names[i]).collect())
            .collect();
        assert!(groups.iter().all(|g| g.glob.is_none()));
        assert_eq!(
            named,
            vec![
                vec!["build/no-warnings"],
                vec!["F/2/return", "F/3/return"],
                vec!["F/2/calls", "F/3/calls"],
                vec!["G/1/return"],
                vec!["robustness/F/1"],
                vec!["robustness/G/0"],
                vec!["game/figure", "game/ones"],
            ]
        );
        // Pictures named by their input, then what is checked of them.
        // Names of one part are checks: a row each, but equal names share one.
        let names = ["GameIsOver", "MakeMove", "hidden", "hidden"];
        let members: Vec<Vec<usize>> = coarse_groups(&names)
            .into_iter()
            .map(|g| g.members)
            .collect();
        assert_eq!(members, vec![vec![0], vec![1], vec![2, 3]]);
        let names = [
            "fill/house door",
            "fill/house door/calls",
            "fill/house wall",
            "fill/house wall/calls",
        ];
        let members: Vec<Vec<usize>> = coarse_groups(&names)
            .into_iter()
            .map(|g| g.members)
            .collect();
        assert_eq!(members, vec![vec![0, 2], vec![1, 3]]);
    }

    #[test]
    fn too_many_rows_vary_in_two_parts() {
        let mut names = Vec::new();
        for set in ["repeats", "homometric", "random", "no-solution", "worked"] {
            for input in ["a", "b", "c", "d"] {
                for check in ["answer", "calls", "search"] {
                    names.push(format!("{set}/{set}-{input}/{check}"));
                }
            }
        }
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let groups = coarse_groups(&names);
        let globs: Vec<&str> = groups.iter().filter_map(|g| g.glob.as_deref()).collect();
        // One part varying gives 15 rows (set and check); two give 3 (the check).
        assert_eq!(globs, ["*/*/answer", "*/*/calls", "*/*/search"]);
        assert_eq!(groups[0].members.len(), 20);
    }

    #[test]
    fn the_first_block_is_whole_and_the_rest_fit_or_are_brief() {
        // Everything fits: all in full.
        assert_eq!(fit(&[5, 5], 10, 2), vec![true, true]);
        // The first always; the second only if the third's brief line still fits.
        assert_eq!(fit(&[5, 4, 6], 11, 2), vec![true, false, false]);
        assert_eq!(fit(&[5, 4, 6], 11, 1), vec![true, true, false]);
        assert_eq!(fit(&[50, 4], 10, 2), vec![true, false]);
    }
}
