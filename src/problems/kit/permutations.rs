//! The handout's permutations (seed 003): `RecursivePermute(s, k)` prints every
//! rearrangement of `s` in the order its swaps produce, and leaves `s` as it found it.

use labgrade_reference::kit::Tally;
use labgrade_reference::permutations as reference;
use serde_json::{json, Map, Value};

use super::{KitAbi, KitProblem, RefCall, RefRun};
use crate::problems::{Expected, Mismatch, RefOutcome};

/// Steps of the reference's trace kept.
const TRACE_KEEP: usize = 4096;

/// Longest string a case may permute: 9! lines are 3.6 million characters of output.
const MAX_LETTERS: usize = 9;

/// The child's side.
pub static ABI: KitAbi = KitAbi::new(
    "permutations",
    include_str!("../../../specs/permutations.toml"),
    None,
);

/// The grader's side.
pub static PROBLEM: KitProblem = problem();

/// The same without its solver (the student bundle's checker, see `crate::student`).
pub static JUDGE: KitProblem = problem().judge_only();

const fn problem() -> KitProblem {
    KitProblem::new(&ABI, run_reference)
        .with_explain(explain)
        .with_in_form(in_form)
}

/// The course reader's `RecursivePermute(prefix, rest)` (the spec's `prefix-rest` form),
/// called with the letters before k as the prefix: it prints each rearrangement of the rest
/// choosing its letters in the order they stand, and leaves the caller's string as it was
/// (strings by value). Its calls and depth are the handout's; only the order of the lines
/// differs.
fn in_form(form: &str, args: &[Value], expected: &Expected) -> Option<Expected> {
    if form != "prefix-rest" {
        return None;
    }
    let s = args.first()?.as_str()?;
    let k = usize::try_from(args.get(1)?.as_u64()?).ok()?;
    let (prefix, rest) = (s.get(..k)?, s.get(k..)?);
    let mut out = String::new();
    prefix_rest(prefix.as_bytes(), rest.as_bytes(), &mut out);
    Some(Expected {
        stdout: Some(out),
        ..expected.clone()
    })
}

/// The reader's recursion: each letter of `rest` in turn joins the prefix.
fn prefix_rest(prefix: &[u8], rest: &[u8], out: &mut String) {
    if rest.is_empty() {
        out.push_str(&String::from_utf8_lossy(prefix));
        out.push('\n');
        return;
    }
    for (i, &letter) in rest.iter().enumerate() {
        let mut longer = prefix.to_vec();
        longer.push(letter);
        let mut others = rest.to_vec();
        others.remove(i);
        prefix_rest(&longer, &others, out);
    }
}

fn run_reference(c: RefCall<'_>) -> Result<RefRun, String> {
    let s = c
        .args
        .first()
        .and_then(Value::as_str)
        .ok_or("s must be a string")?;
    let k = c
        .args
        .get(1)
        .and_then(Value::as_u64)
        .ok_or("k must be an int >= 0")? as usize;
    if s.len() > MAX_LETTERS || !s.is_ascii() {
        return Err(format!(
            "s must be at most {MAX_LETTERS} ASCII letters (its permutations are printed)"
        ));
    }
    if k > s.len() {
        return Err("k must be at most the length of s".into());
    }
    let mut tally = Tally::new(TRACE_KEEP);
    let mut bytes = s.as_bytes().to_vec();
    let mut out = String::new();
    reference::recursive_permute(&mut tally, &mut bytes, k, &mut out);
    let mut value = Map::new();
    value.insert("s".into(), json!(String::from_utf8_lossy(&bytes)));
    Ok(RefRun {
        value: Some(value),
        tally,
        stdout: Some(out),
    })
}

/// The handout's loop without the swap back: each call leaves `s` rearranged.
fn without_swap_back(s: &mut [u8], k: usize, out: &mut String) {
    if k == s.len() {
        out.push_str(&String::from_utf8_lossy(s));
        out.push('\n');
        return;
    }
    for i in k..s.len() {
        s.swap(k, i);
        without_swap_back(s, k + 1, out);
    }
}

fn explain(m: &Mismatch<'_>) -> Option<String> {
    let args = &m.case.def.args;
    let s = args.first()?.as_str()?;
    let k = usize::try_from(args.get(1)?.as_integer()?).ok()?;
    let printed = &m.observed.stdout;
    let expected = m.expected.stdout.as_deref()?;
    let mut bytes = s.as_bytes().to_vec();
    let mut unrestored = String::new();
    without_swap_back(&mut bytes, k, &mut unrestored);
    let left = m.observed.value.as_ref()?.get("s")?.as_str()?;
    if printed == &unrestored && left.as_bytes() == bytes.as_slice() && left != s {
        return Some(
            "what you printed and the string you left are exactly what the handout's loop \
             gives without its second Swap(&s[k], &s[i]): after the recursive call, swap the \
             letters back, so that the next choice starts from the string this call was given"
                .into(),
        );
    }
    // The same lines with fewer calls: the base case one level early.
    let n = s.len() as u64;
    let calls = m
        .observed
        .counts
        .as_ref()?
        .calls
        .get("RecursivePermute")
        .copied()?;
    let fact: u64 = (1..=n.saturating_sub(k as u64)).product();
    let expected_calls = *m.expected.calls.get("RecursivePermute")?;
    let ok_value = matches!(&m.expected.outcome, RefOutcome::Returns(v) if Some(v) == m.observed.value.as_ref());
    if printed == expected && ok_value && k < s.len() && calls + fact == expected_calls {
        return Some(format!(
            "your lines are right with {fact} fewer calls: your base case is one level early \
             (k == length - 1); the handout recurses until k == StringLength(s), one call per \
             printed line more"
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reader_s_form_prints_in_its_own_order() {
        let mut out = String::new();
        prefix_rest(b"", b"ABC", &mut out);
        assert_eq!(out, "ABC\nACB\nBAC\nBCA\nCAB\nCBA\n");
        let mut out = String::new();
        prefix_rest(b"X", b"YZ", &mut out);
        assert_eq!(out, "XYZ\nXZY\n");
    }

    #[test]
    fn without_the_swap_back_the_order_differs_from_the_third_letter_on() {
        let mut s = b"ABC".to_vec();
        let mut out = String::new();
        without_swap_back(&mut s, 0, &mut out);
        assert_eq!(out.lines().count(), 6);
        assert_ne!(out, "ABC\nACB\nBAC\nBCA\nCBA\nCAB\n");
    }
}
