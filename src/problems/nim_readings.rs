//! Other readings of Figure 7-5 that real nim code has, so that an explanation names the one a
//! submission wrote only when it reproduces what the submission did.
//!
//! A wrong answer or count has many causes: another constant (`MAX_MOVE 4`, `NO_GOOD_MOVE 0`),
//! a memo, no recursion at all. A reading here is run on the case's input and compared with
//! what the submission returned and, when the case counts calls, with every count; the
//! explanation that names it is given only when it agrees on all of them. (A loop that goes
//! on after the first good move is no such reading: in Figure 7-5 it always reaches
//! `IsBadPosition(0)` and overflows the stack, which the stack-overflow verdict explains.)

use std::collections::{BTreeMap, HashMap};
use std::sync::{Mutex, OnceLock};

use labgrade_reference::nim::{run_with, Function, Outcome, Rules, Value as NimValue};
use serde_json::Value;

use super::Runs;

/// What a reading does on one call: the returned value, calls and depth per function.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Behaviour {
    /// The value returned.
    pub value: Value,
    /// Entries of `FindGoodMove` and `IsBadPosition`.
    pub calls: BTreeMap<String, u64>,
    /// Their maximum depths.
    pub max_depth: BTreeMap<String, u64>,
}

fn to_json(v: NimValue) -> Value {
    match v {
        NimValue::Int(i) => Value::from(i),
        NimValue::Bool(b) => Value::from(b),
    }
}

fn function(name: &str) -> Option<Function> {
    Function::ALL.into_iter().find(|f| f.name() == name)
}

/// How a reading is computed: the book's algorithm (the reference's solver).
pub type Compute = fn(Rules, &str, i64) -> Option<Behaviour>;

/// The book's algorithm under `rules`, or None when it never returns: computed by
/// `compute`, or, without it (the student bundle's checker has no solver), read from the
/// bundle's evidence, where export put it under [`key`]. Remembered: one submission's
/// explanations ask the same (rules, function, n) of every case.
pub fn with_rules(rules: Rules, name: &str, n: i64, compute: Option<Compute>) -> Option<Behaviour> {
    type Key = (Rules, String, i64);
    static SEEN: OnceLock<Mutex<HashMap<Key, Option<Behaviour>>>> = OnceLock::new();
    let seen = SEEN.get_or_init(Default::default);
    let remembered = (rules, name.to_string(), n);
    if let Some(b) = seen.lock().expect("readings").get(&remembered) {
        return b.clone();
    }
    let b = match compute {
        Some(compute) => compute(rules, name, n),
        None => crate::problems::precomputed::evidence(&key(rules, name, n))
            .and_then(|v| serde_json::from_value(v.clone()).ok())?,
    };
    seen.lock().expect("readings").insert(remembered, b.clone());
    b
}

/// The evidence's key of one reading.
pub fn key(rules: Rules, name: &str, n: i64) -> String {
    format!(
        "nim reading: {name}({n}) with N_COINS {} MAX_MOVE {} NO_GOOD_MOVE {}",
        rules.n_coins, rules.max_move, rules.no_good_move
    )
}

/// A reading computed with the book's algorithm ([`Compute`]).
pub fn compute(rules: Rules, name: &str, n: i64) -> Option<Behaviour> {
    let run = run_with(rules, function(name)?, n);
    let Outcome::Returns(v) = run.value else {
        return None;
    };
    Some(Behaviour {
        value: to_json(v),
        calls: BTreeMap::from([
            ("FindGoodMove".to_string(), run.calls_find_good_move),
            ("IsBadPosition".to_string(), run.calls_is_bad_position),
        ]),
        max_depth: BTreeMap::from([
            ("FindGoodMove".to_string(), run.max_depth_find_good_move),
            ("IsBadPosition".to_string(), run.max_depth_is_bad_position),
        ]),
    })
}

/// Does `b` agree with what was observed? The value always; the counts when observed.
pub fn agrees(
    b: &Behaviour,
    value: Option<&Value>,
    calls: Option<&BTreeMap<String, u64>>,
    max_depth: Option<&BTreeMap<String, u64>>,
) -> bool {
    let same = |mine: &BTreeMap<String, u64>, theirs: &BTreeMap<String, u64>| {
        mine.iter().all(|(f, n)| theirs.get(f) == Some(n))
    };
    value.is_some_and(|v| same_number(v, &b.value))
        && calls.is_none_or(|c| same(&b.calls, c))
        && max_depth.is_none_or(|d| same(&b.max_depth, d))
}

/// True when no call of `function` in the submission contradicts `rules`: every one that
/// returned returned what Figure 7-5 returns under them. A run that crashed or timed out is
/// no evidence either way. This is what lets an explanation say the code *uses* another
/// constant (returns 0 wherever the book returns NO_GOOD_MOVE): one case agreeing can be a
/// coincidence, or a bug.
pub fn consistent_everywhere(
    rules: Rules,
    function: &str,
    runs: &Runs<'_>,
    compute: Option<Compute>,
) -> bool {
    runs.iter().all(|(case, obs)| {
        let (Some(value), Some(n)) = (
            obs.value.as_ref(),
            case.def.args.first().and_then(toml::Value::as_integer),
        ) else {
            return true;
        };
        case.def.call.as_deref() != Some(function)
            || with_rules(rules, function, n, compute).is_some_and(|b| same_number(value, &b.value))
    })
}

fn same_number(a: &Value, b: &Value) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_book_s_rules_reproduce_the_reference() {
        let b = with_rules(Rules::BOOK, "FindGoodMove", 7, Some(compute)).unwrap();
        assert_eq!(b.value, Value::from(2));
        assert_eq!(b.calls["FindGoodMove"], 18);
        assert_eq!(b.calls["IsBadPosition"], 31);
    }

    #[test]
    fn agreement_needs_the_value_and_every_observed_count() {
        let b = with_rules(Rules::BOOK, "FindGoodMove", 7, Some(compute)).unwrap();
        assert!(agrees(&b, Some(&Value::from(2)), None, None));
        assert!(!agrees(&b, Some(&Value::from(3)), None, None));
        assert!(!agrees(&b, None, None, None));
        let mut calls = b.calls.clone();
        assert!(agrees(
            &b,
            Some(&Value::from(2)),
            Some(&calls),
            Some(&b.max_depth)
        ));
        *calls.get_mut("IsBadPosition").unwrap() += 1;
        assert!(!agrees(&b, Some(&Value::from(2)), Some(&calls), None));
    }
}
