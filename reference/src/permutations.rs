//! The handout's `RecursivePermute(s, k)` (seed 003, from Roberts' text): every
//! rearrangement of the letters of `s` after position `k`, printed one per line in the order
//! its swaps produce. It swaps `s[k]` with each `s[i]`, `i = k..n-1`, recurses on `k + 1`
//! and swaps back, so `s` is as it was when the call returns. Repeated letters are not
//! skipped: "AAB" prints six lines, as the handout's code does.

use crate::kit::Probe;

/// `RecursivePermute(s, k)`: appends what it prints to `out`.
pub fn recursive_permute(probe: &mut dyn Probe, s: &mut [u8], k: usize, out: &mut String) {
    probe.enter(
        "RecursivePermute",
        format_args!("\"{}\", {k}", String::from_utf8_lossy(s)),
    );
    if k == s.len() {
        out.push_str(&String::from_utf8_lossy(s));
        out.push('\n');
    } else {
        for i in k..s.len() {
            s.swap(k, i);
            recursive_permute(probe, s, k + 1, out);
            s.swap(k, i);
        }
    }
    probe.exit("RecursivePermute");
}

/// Calls `RecursivePermute(s, 0)` makes for a string of `n` letters: one per node of the
/// tree of prefixes, 1 + n + n(n-1) + ... + n!.
pub fn calls_for(n: u64) -> u64 {
    let mut level = 1;
    let mut total = 1;
    for i in 0..n {
        level *= n - i;
        total += level;
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::{Silent, Tally};

    fn permute(s: &str) -> String {
        let mut bytes = s.as_bytes().to_vec();
        let mut out = String::new();
        recursive_permute(&mut Silent, &mut bytes, 0, &mut out);
        assert_eq!(bytes, s.as_bytes(), "s is restored");
        out
    }

    #[test]
    fn abc_in_the_order_the_swaps_give() {
        assert_eq!(permute("ABC"), "ABC\nACB\nBAC\nBCA\nCBA\nCAB\n");
    }

    #[test]
    fn repeated_letters_are_printed_as_often_as_the_code_prints_them() {
        assert_eq!(permute("AAB"), "AAB\nABA\nAAB\nABA\nBAA\nBAA\n");
        assert_eq!(permute("").lines().count(), 1);
    }

    #[test]
    fn n_factorial_lines_and_one_call_per_prefix() {
        for n in 1..=7u64 {
            let s: String = (0..n).map(|i| (b'A' + i as u8) as char).collect();
            let mut t = Tally::new(0);
            let mut out = String::new();
            recursive_permute(&mut t, &mut s.clone().into_bytes(), 0, &mut out);
            let fact: u64 = (1..=n).product();
            assert_eq!(out.lines().count() as u64, fact);
            assert_eq!(t.calls_of("RecursivePermute"), calls_for(n));
            assert_eq!(t.max_depth["RecursivePermute"], n + 1);
        }
        // 1 + 3 + 6 + 6, counted by hand.
        assert_eq!(calls_for(3), 16);
    }
}
