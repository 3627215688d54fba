//! Submission's record against the reference's, in the text's terms.
//!
//! Three judgements, one per case function, all over the same record (see [`super::world`]):
//!
//! - [`answer`]: `turnpike`'s result and, when TRUE, x\[1..n\] exactly (the points Weiss'
//!   search finds first, not any set with the same distances);
//! - [`distances_after`]: D after the call: empty after TRUE, exactly as given after FALSE
//!   (every copy), and no misuse on the way;
//! - [`search`]: the order of the search (committed placements and undo blocks, step by
//!   step) and the number of backtracks. The first step that departs is explained: which
//!   point the reference placed, and which one the submission did.

use labgrade_reference::turnpike::{distances, Side, Step};
use serde_json::{json, Value};

use super::world::{multiset_hash, Event, EVENTS_KEEP};
use super::Reference;
use crate::problems::ReturnComparison;

fn result(v: &Value) -> Option<bool> {
    v.get("result").and_then(Value::as_i64).map(|r| r != 0)
}

fn num(v: &Value, key: &str) -> u64 {
    v.get(key).and_then(Value::as_u64).unwrap_or(0)
}

fn points(v: &Value) -> Option<Vec<i32>> {
    v.get("points")?
        .as_array()
        .map(|a| a.iter().map(|p| p.as_i64().unwrap_or(0) as i32).collect())
}

fn bool_word(b: bool) -> &'static str {
    if b {
        "TRUE"
    } else {
        "FALSE"
    }
}

/// `{1, 3, 7}`.
pub fn fmt_set(items: &[i32]) -> String {
    let mut v = items.to_vec();
    v.sort_unstable();
    let parts: Vec<String> = v.iter().map(i32::to_string).collect();
    format!("{{{}}}", parts.join(", "))
}

/// `{0, 3, 5, 6, 8, 10}`, or the first and last few of a large set.
pub fn fmt_points(p: &[i32]) -> String {
    if p.len() <= 24 {
        let parts: Vec<String> = p.iter().map(i32::to_string).collect();
        return format!("{{{}}}", parts.join(", "));
    }
    let first: Vec<String> = p[..6].iter().map(i32::to_string).collect();
    let last: Vec<String> = p[p.len() - 2..].iter().map(i32::to_string).collect();
    format!(
        "{{{}, ..., {}}} ({} points)",
        first.join(", "),
        last.join(", "),
        p.len()
    )
}

/// Expands `[[d, copies], ...]` into `{d, d, ...}` (with the total when some are left out).
fn fmt_entries(v: &Value, total: u64) -> String {
    let mut items = Vec::new();
    for e in v.as_array().into_iter().flatten() {
        let d = e.get(0).and_then(Value::as_i64).unwrap_or(0) as i32;
        let c = e.get(1).and_then(Value::as_u64).unwrap_or(0);
        for _ in 0..c.min(50) {
            items.push(d);
        }
    }
    let shown = fmt_set(&items);
    if (items.len() as u64) < total {
        format!(
            "{} distances, the smallest {}",
            total,
            shown.trim_end_matches('}').to_string() + ", ...}"
        )
    } else {
        shown
    }
}

fn expand(v: &Value) -> Vec<i32> {
    let mut items = Vec::new();
    for e in v.as_array().into_iter().flatten() {
        let d = e.get(0).and_then(Value::as_i64).unwrap_or(0) as i32;
        let c = e.get(1).and_then(Value::as_u64).unwrap_or(0);
        for _ in 0..c.min(1000) {
            items.push(d);
        }
    }
    items
}

fn answer_shown(found: bool, p: Option<&[i32]>) -> Value {
    match p.filter(|_| found) {
        Some(p) if p.len() <= 24 => json!({ "result": bool_word(true), "points": p }),
        Some(p) => json!({ "result": bool_word(true), "points": fmt_points(p) }),
        None => json!({ "result": bool_word(found) }),
    }
}

fn is_reconstruction(p: &[i32], d: &[i32]) -> bool {
    p.first() == Some(&0) && p.windows(2).all(|w| w[0] <= w[1]) && distances(p) == d
}

/// Both found points, not the same ones: where they first part, and why (a valid
/// reconstruction Weiss' order does not find, or not one at all); and how many differ.
fn other_points(r: &Reference, ep: &[i32], gp: &[i32]) -> (String, usize) {
    let differing = ep.iter().zip(gp).filter(|(a, b)| a != b).count() + ep.len().abs_diff(gp.len());
    let i = ep
        .iter()
        .zip(gp)
        .position(|(a, b)| a != b)
        .unwrap_or(ep.len().min(gp.len()));
    let mut m = format!(
        "x[{}] is {} in the reference's answer and {} in yours: the reference finds x = \
             {}, yours is {}",
        i + 1,
        ep.get(i).map_or("missing".into(), i32::to_string),
        gp.get(i).map_or("missing".into(), i32::to_string),
        fmt_points(ep),
        fmt_points(gp)
    );
    if is_reconstruction(gp, &r.inst.distances) {
        m.push_str(
            "\nyours is a valid reconstruction of D (its mirror image, or a homometric \
                 set with the same distances), but not the one Weiss' algorithm finds: place \
                 tries x[Right] = dmax before x[Left] = x[n] - dmax, and turnpike puts the \
                 second largest distance at x[n-1]",
        );
    } else if gp.first() != Some(&0) || !gp.windows(2).all(|w| w[0] <= w[1]) {
        m.push_str("\nthe answer must have x[1] = 0 and the points in nondecreasing order");
    } else {
        m.push_str("\nand those points' distances are not D");
    }
    (m, differing)
}

/// `turnpike`'s result and points.
pub fn answer(r: &Reference, exp: &Value, got: &Value) -> ReturnComparison {
    let (Some(ef), Some(gf)) = (result(exp), result(got)) else {
        return ReturnComparison::unreadable_record();
    };
    let ep = points(exp).unwrap_or_default();
    let gp = points(got).unwrap_or_default();
    let mut fails = Vec::new();
    if let Some(past) = got
        .get("wrote_past_end")
        .and_then(Value::as_array)
        .filter(|a| !a.is_empty())
    {
        let first = &past[0];
        fails.push(format!(
            "turnpike wrote past the end of x: x[{}] = {} (x has n + 1 = {} ints; the points are \
             x[1..n])",
            first[0],
            first[1],
            r.inst.n + 1
        ));
    }
    let mut differing = 0;
    match (ef, gf) {
        (true, false) => {
            let mut m = format!(
                "turnpike returned FALSE, but D has a solution: the reference finds x = {} \
                 ({} place calls, {} backtrack(s))",
                fmt_points(&ep),
                r.run.place_calls,
                r.run.backtracks
            );
            if num(got, "misuse_total") > 0 || num(got, "undo_errors_total") > 0 {
                m.push_str(
                    "\nyour search lost track of D on the way (see this input's distances case)",
                );
            }
            fails.push(m);
        }
        (false, true) => {
            let mut m = format!(
                "D has no solution (the reference returns FALSE after {} place calls and {} \
                 backtrack(s)), but yours returned TRUE with x = {}",
                r.run.place_calls,
                r.run.backtracks,
                fmt_points(&gp)
            );
            if !is_reconstruction(&gp, &r.inst.distances) {
                m.push_str(", whose distances are not D");
            }
            fails.push(m);
        }
        (true, true) if ep != gp => {
            let (m, n) = other_points(r, &ep, &gp);
            differing = n;
            fails.push(m);
        }
        _ => {}
    }
    let never_used_d =
        got.get("own_d").is_none() && got.get("ops_total").and_then(Value::as_u64) == Some(0);
    if !fails.is_empty() && never_used_d {
        fails.push(
            "your turnpike never used labgrade's D (not one find_max, delete_max, contains, \
             delete_dist or insert_dist call): if it works on a distance set of its own, add the \
             adapter `int labgrade_turnpike(int x[], const int distances[], unsigned int count, \
             unsigned int n)` that builds your D from the distances and calls your turnpike (see \
             turnpike.h)"
                .to_string(),
        );
    }
    let mut observed_shown = answer_shown(gf, Some(&gp));
    // Shown as returned: a -1 is not TRUE, whatever C makes of it in a condition.
    if let Some(raw) = got
        .get("result")
        .and_then(Value::as_i64)
        .filter(|r| *r != 0 && *r != 1)
    {
        fails.insert(
            0,
            format!(
                "turnpike returned {raw}, which is neither TRUE (1) nor FALSE (0): return one of \
                 them, as Figure 10.64 does"
            ),
        );
        observed_shown["result"] = json!(raw);
    }
    if differing > 0 {
        observed_shown["differing_points"] = json!(differing);
    }
    ReturnComparison {
        unjudged: None,
        ok: fails.is_empty(),
        message: fails.join("\n"),
        expected_shown: answer_shown(ef, Some(&ep)),
        observed_shown,
    }
}

fn undo_error_text(e: &Value) -> String {
    let list = |k: &str| -> Vec<i32> {
        e.get(k)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_i64().map(|d| d as i32))
                    .collect()
            })
            .unwrap_or_default()
    };
    match e.get("kind").and_then(Value::as_str) {
        Some("unmatched") => e
            .get("text")
            .and_then(Value::as_str)
            .unwrap_or("an insertion no placement explains")
            .to_string(),
        kind => {
            let what = if kind == Some("rollback") {
                "the distances a feasibility check deleted (op #{op}) were put back wrongly"
            } else {
                "an undo block does not put back what its placement removed"
            };
            let mut s = format!(
                "{} (placement at op #{}, undo at op #{}): it removed {}, put back {}",
                what.replace("{op}", &num(e, "op").to_string()),
                num(e, "op"),
                num(e, "undo_op"),
                fmt_set(&list("removed")),
                fmt_set(&list("restored"))
            );
            if !list("left_out").is_empty() {
                s.push_str(&format!("; never put back: {}", fmt_set(&list("left_out"))));
            }
            if !list("extra").is_empty() {
                s.push_str(&format!(
                    "; put back but never removed by it: {}",
                    fmt_set(&list("extra"))
                ));
            }
            s
        }
    }
}

/// x\[n\], x\[n-1\] and their difference, as the driver takes them from D.
fn driver_trio(d: &[i32]) -> (i32, i32, i32) {
    let m = d.len();
    let xn = d[m - 1];
    let xn1 = d[m - 2];
    (xn, xn1, xn - xn1)
}

/// D after the call, and misuse.
pub fn distances_after(r: &Reference, got: &Value) -> ReturnComparison {
    let Some(gf) = result(got) else {
        return ReturnComparison::unreadable_record();
    };
    let size = num(got, "size_after");
    let (missing, extra) = (num(got, "missing_total"), num(got, "extra_total"));
    let misuse = num(got, "misuse_total");
    let mut fails = Vec::new();
    if gf && size != 0 {
        fails.push(format!(
            "turnpike returned TRUE, but D is not empty: after success every distance belongs to \
             a pair of the points placed, so D must be empty; yours still holds {}",
            fmt_entries(&got["remaining"], size)
        ));
    }
    if !gf && missing + extra > 0 {
        let mut m = String::from(
            "turnpike returned FALSE, and D is not as it was given: the text promises that after \
             failure \"the distance array D will be untouched\" (every copy of every distance)",
        );
        if missing > 0 {
            m.push_str(&format!(
                "; yours is missing {}",
                fmt_entries(&got["missing"], missing)
            ));
        }
        if extra > 0 {
            m.push_str(&format!(
                "; yours has, beyond what was given, {}",
                fmt_entries(&got["extra"], extra)
            ));
        }
        let (xn, xn1, diff) = driver_trio(&r.inst.distances);
        let mut lost = expand(&got["missing"]);
        lost.sort_unstable();
        let mut trio = vec![xn, xn1, diff];
        trio.sort_unstable();
        let mut pair = vec![xn1, xn];
        pair.sort_unstable();
        if extra == 0 && lost == trio {
            m.push_str(&format!(
                "\nthose are x[n] = {xn}, x[n-1] = {xn1} and x[n] - x[n-1] = {diff}, which \
                 turnpike removes before calling place: Figure 10.64 returns place's FALSE \
                 without putting them back; put them back to keep the text's promise"
            ));
        } else if extra == 0 && lost == pair {
            m.push_str(&format!(
                "\nthose are the two largest distances ({xn} and {xn1}), which turnpike removes \
                 first: when x[n] - x[n-1] = {diff} is not in D, put them back before returning \
                 FALSE"
            ));
        }
        fails.push(m);
    }
    if misuse > 0 {
        let notes: Vec<String> = got["misuse"]
            .as_array()
            .into_iter()
            .flatten()
            .take(3)
            .map(|m| {
                format!(
                    "op #{}: {}",
                    num(m, "op"),
                    m.get("text").and_then(Value::as_str).unwrap_or("")
                )
            })
            .collect();
        let mut m = format!("{misuse} misuse(s) of D; the first: {}", notes.join("; "));
        if notes.iter().any(|n| n.contains("is not in D")) {
            m.push_str(
                "\na placement needs every distance |x[j] - p| in D in the correct quantity: \
                 `contains` alone accepts x[2] = 4 in the worked example, where D has one 4 and \
                 the placement needs two. Delete each distance as you find it, and put back those \
                 you deleted when one is missing",
            );
        }
        fails.push(m);
    }
    if !fails.is_empty() {
        if let Some(e) = got["undo_errors"].as_array().and_then(|a| a.first()) {
            fails.push(format!(
                "the first bookkeeping error: {}",
                undo_error_text(e)
            ));
        }
    }
    let want = if gf { "empty" } else { "as given" };
    let ok = fails.is_empty();
    ReturnComparison {
        unjudged: None,
        ok,
        message: fails.join("\n"),
        expected_shown: json!({ "D_after": want, "misuse": 0 }),
        observed_shown: if ok {
            json!({ "D_after": want, "misuse": 0 })
        } else {
            json!({
                "D_after": format!(
                    "{size} distance(s): {missing} missing, {extra} not given"
                ),
                "misuse": misuse,
            })
        },
    }
}

fn events(v: &Value) -> Vec<Event> {
    v.get("events")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Event::from_json).collect())
        .unwrap_or_default()
}

/// The reference's points at one moment of its search.
struct State {
    x: Vec<Option<i32>>,
}

impl State {
    fn replay(steps: &[Step], n: usize) -> State {
        let mut x = vec![None; n + 1];
        for s in steps {
            match s {
                Step::Driver { xn, xn1 } => {
                    x[1] = Some(0);
                    x[n] = Some(*xn);
                    x[n - 1] = Some(*xn1);
                }
                Step::Placed { index, value, .. } => x[*index] = Some(*value),
                Step::Undone { index, .. } => x[*index] = None,
                Step::DriverRestored => {
                    x[1] = None;
                    x[n] = None;
                    x[n - 1] = None;
                }
            }
        }
        State { x }
    }

    fn n(&self) -> usize {
        self.x.len() - 1
    }

    fn started(&self) -> bool {
        self.x[self.n()].is_some()
    }

    /// Distances from `p` to every placed point but x\[skip\].
    fn distances_to(&self, p: i32, skip: usize) -> Vec<i32> {
        self.x
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != skip)
            .filter_map(|(_, q)| q.map(|q| (q - p).abs()))
            .collect()
    }

    fn left(&self) -> usize {
        (1..=self.n()).find(|&j| self.x[j].is_none()).unwrap_or(0)
    }

    fn right(&self) -> usize {
        (1..=self.n())
            .rev()
            .find(|&j| self.x[j].is_none())
            .unwrap_or(0)
    }
}

fn describe_step(s: &Step, st: &State) -> String {
    match s {
        Step::Driver { xn, xn1 } => format!(
            "set x[n] = {xn} and x[n-1] = {xn1}, removing {}",
            fmt_set(&[*xn, *xn1, xn - xn1])
        ),
        Step::Placed {
            side,
            index,
            value,
            dmax,
        } => format!(
            "placed x[{index}] = {value} ({}, dmax = {dmax}), removing {}",
            side.rule(),
            fmt_set(&st.distances_to(*value, usize::MAX))
        ),
        Step::Undone { index, value, .. } => format!(
            "undid x[{index}] = {value} (a backtrack: nothing fits below it), putting back {}",
            fmt_set(&st.distances_to(*value, *index))
        ),
        Step::DriverRestored => "put back x[n], x[n-1] and x[n] - x[n-1], leaving D as it was \
                                 given (the text's promise after failure)"
            .into(),
    }
}

/// What a submission's event is, seen from the reference's state before it.
struct Reading {
    text: String,
    /// The side it matches, for a placement.
    side: Option<Side>,
    /// A placement that removed only part of what a candidate needs: D lacked the rest.
    short: bool,
}

/// True when `have` is a sub-multiset of `want`.
fn within(have: &[i32], want: &[i32]) -> bool {
    let mut want = want.to_vec();
    have.iter().all(|d| match want.iter().position(|w| w == d) {
        Some(i) => {
            want.swap_remove(i);
            true
        }
        None => false,
    })
}

/// "2 more copies of 3", "without 5", ...
fn multiset_diff(have: &[i32], want: &[i32]) -> String {
    let mut more: std::collections::BTreeMap<i32, i64> = std::collections::BTreeMap::new();
    for &d in have {
        *more.entry(d).or_insert(0) += 1;
    }
    for &d in want {
        *more.entry(d).or_insert(0) -= 1;
    }
    let parts: Vec<String> = more
        .iter()
        .filter(|(_, &c)| c != 0)
        .map(|(d, &c)| match c {
            1 => format!("one more {d}"),
            c if c > 1 => format!("{c} more copies of {d}"),
            -1 => format!("without {d}"),
            c => format!("{} fewer copies of {d}", -c),
        })
        .collect();
    parts.join(", ")
}

fn read_event(e: &Event, st: &State, d: &[i32]) -> Reading {
    let what = e
        .items
        .as_ref()
        .map_or(format!("{} distances", e.len), |i| fmt_set(i));
    if e.kind == 'U' {
        return Reading {
            text: format!("put back {what} (an undo block)"),
            side: None,
            short: false,
        };
    }
    if !st.started() {
        let (xn, xn1, diff) = driver_trio(d);
        if e.hash == multiset_hash(&[xn, xn1, diff]) {
            return Reading {
                text: format!("set x[n] = {xn} and x[n-1] = {xn1}"),
                side: None,
                short: false,
            };
        }
        return Reading {
            text: format!("removed {what}"),
            side: None,
            short: false,
        };
    }
    let xn = st.x[st.n()].unwrap_or(0);
    let Some(dmax) = e.dmax else {
        return Reading {
            text: format!("removed {what} without asking find_max first"),
            side: None,
            short: false,
        };
    };
    let candidates = [
        (Side::Right, st.right(), dmax),
        (Side::Left, st.left(), xn - dmax),
    ];
    for (side, index, value) in candidates {
        if multiset_hash(&st.distances_to(value, usize::MAX)) == e.hash {
            return Reading {
                text: format!(
                    "placed x[{index}] = {value} ({}, dmax = {dmax})",
                    side.rule()
                ),
                side: Some(side),
                short: false,
            };
        }
    }
    if let Some(items) = &e.items {
        for (side, index, value) in candidates {
            let want = st.distances_to(value, usize::MAX);
            if items.len() < want.len() && within(items, &want) {
                return Reading {
                    text: format!(
                        "placed x[{index}] = {value} ({}, dmax = {dmax}), which needs {}, but \
                         could remove only {}: D does not hold {}",
                        side.rule(),
                        fmt_set(&want),
                        fmt_set(items),
                        multiset_diff(&want, items).replace("one more", "another")
                    ),
                    side: None,
                    short: true,
                };
            }
        }
    }
    let mut text = format!(
        "removed {what} after find_max gave {dmax}: neither x[{}] = {dmax} ({}) nor x[{}] = {} \
         ({})",
        st.right(),
        Side::Right.rule(),
        st.left(),
        xn - dmax,
        Side::Left.rule()
    );
    if let Some(items) = &e.items {
        let best = candidates
            .iter()
            .map(|&(side, index, value)| (side, index, value, st.distances_to(value, usize::MAX)))
            .min_by_key(|(_, _, _, want)| multiset_diff(items, want).matches(", ").count());
        if let Some((side, index, value, want)) = best {
            text.push_str(&format!(
                "; the closest is x[{index}] = {value} ({}), which removes {}: yours has {}",
                side.rule(),
                fmt_set(&want),
                multiset_diff(items, &want)
            ));
        }
    }
    Reading {
        text,
        side: None,
        short: false,
    }
}

fn fmt_raw(op: &Value) -> String {
    let code = op.get(0).and_then(Value::as_u64).unwrap_or(99) as u8;
    let arg = op.get(1).and_then(Value::as_i64).unwrap_or(0);
    let res = op.get(2).and_then(Value::as_i64).unwrap_or(0);
    match labgrade_reference::turnpike::Op::from_code(code) {
        Some(o) if o.takes_distance() && o == labgrade_reference::turnpike::Op::Contains => {
            format!("contains({arg}, D) = {res}")
        }
        Some(o) if o.takes_distance() => format!("{}({arg}, D)", o.name()),
        Some(o) => format!("{}(D) = {res}", o.name()),
        None => "?".into(),
    }
}

/// Operations `from..from+count` of a record, as C calls.
fn raw_window(v: &Value, from: u64, count: usize) -> Option<String> {
    let raw = v.get("raw")?.as_array()?;
    let from = from as usize;
    if from >= raw.len() {
        return None;
    }
    let ops: Vec<String> = raw[from..].iter().take(count).map(fmt_raw).collect();
    Some(format!("#{}: {}", from + 1, ops.join(", ")))
}

/// The first step where the submission's search departs from the reference's, explained.
pub fn departure(r: &Reference, exp: &Value, got: &Value) -> Option<String> {
    let ee = events(exp);
    let ge = events(got);
    let i = (0..ee.len().max(ge.len())).find(|&i| match (ee.get(i), ge.get(i)) {
        (Some(a), Some(b)) => !a.same(b),
        _ => true,
    });
    let Some(i) = i else {
        let (et, gt) = (num(exp, "events_total"), num(got, "events_total"));
        if et != gt || exp.get("digest") != got.get("digest") {
            return Some(format!(
                "the search agrees with the reference's for the first {EVENTS_KEEP} steps and \
                 departs later ({et} steps in the reference's, {gt} in yours)"
            ));
        }
        return None;
    };
    let steps = &r.run.steps;
    let st = State::replay(&steps[..i.min(steps.len())], r.inst.n);
    let ref_step = steps.get(i);
    let ref_text = match ref_step {
        Some(s) => describe_step(s, &st),
        None if steps.is_empty() => {
            "made no lasting change to D (it put back whatever it removed)".to_string()
        }
        None => "had finished its search".to_string(),
    };
    // Where the reference backed out here and the submission did something else, read the
    // submission's step against the state after the reference's undo: that is the state the
    // submission's own recursion is in once it returns (its undo is what it missed).
    let after_undo = matches!(ref_step, Some(Step::Undone { .. }))
        .then(|| State::replay(&steps[..(i + 1).min(steps.len())], r.inst.n));
    let reading = ge
        .get(i)
        .map(|e| read_event(e, after_undo.as_ref().unwrap_or(&st), &r.inst.distances));
    let got_text = reading
        .as_ref()
        .map_or("made no further change to D".to_string(), |r| {
            r.text.clone()
        });
    let mut m = format!(
        "the search departs from the reference's at step {} (the reference's has {}): the \
         reference {ref_text}; yours {got_text}",
        i + 1,
        num(exp, "events_total")
    );
    let got_side = reading.as_ref().and_then(|r| r.side);
    let short = reading.as_ref().is_some_and(|r| r.short);
    let hint = match (ref_step, ge.get(i)) {
        (Some(Step::Undone { .. }), Some(e)) if e.kind == 'P' => Some(
            "after a recursive call fails, place must put back the distances it removed (lines 9-11 and 18-20) before trying anything else",
        ),
        _ if short => Some(
            "a placement is feasible only when D holds every distance it needs in the correct quantity (Figure 10.65's line 4 reads \"in D\"; the text's example rules out x[2] = 4 because D has only one 4): checking with contains alone is not enough",
        ),
        (Some(Step::Placed { side: Side::Right, .. }), Some(_)) if got_side == Some(Side::Left) => {
            Some("place must first try x[Right] = dmax, and try x[Left] = x[n] - dmax only when that fails (Figure 10.65: lines 4-11 before lines 12-20)")
        }
        (Some(Step::Undone { .. }), Some(e)) if e.kind == 'P' => Some(
            "after a recursive call fails, place must put back the distances it removed (lines 9-11 and 18-20) before trying anything else",
        ),
        (Some(Step::Undone { .. }), None) => Some(
            "after a recursive call fails, place must put back the distances it removed (lines 9-11 and 18-20)",
        ),
        (Some(Step::Undone { .. }), Some(e)) if e.kind == 'U' => Some(
            "an undo block puts back exactly the distances its placement removed, one copy each",
        ),
        (Some(Step::DriverRestored), _) => Some(
            "when place fails, turnpike must put back x[n], x[n-1] and x[n] - x[n-1] before returning FALSE: the text promises D untouched after failure (Figure 10.64 alone does not)",
        ),
        (None, Some(e)) if e.kind == 'P' => Some(
            "whatever is removed after the reference's last step must go back: with no solution, D must end exactly as it was given",
        ),
        (Some(Step::Placed { .. }), Some(e)) if e.kind == 'P' && got_side.is_none() => Some(
            "a placement removes one copy of |x[j] - p| for each placed point x[j], no more, no less",
        ),
        _ => None,
    };
    if let Some(h) = hint {
        m.push('\n');
        m.push_str(h);
    }
    let window =
        |v: &Value, e: Option<&Event>| e.and_then(|e| raw_window(v, e.op.saturating_sub(2), 8));
    if let (Some(a), Some(b)) = (window(exp, ee.get(i)), window(got, ge.get(i))) {
        m.push_str(&format!("\nthe reference's operations {a}\nyours {b}"));
    }
    Some(m)
}

/// The order of the search and the number of backtracks.
pub fn search(r: &Reference, exp: &Value, got: &Value) -> ReturnComparison {
    if result(got).is_none() {
        return ReturnComparison::unreadable_record();
    }
    let mut fails = Vec::new();
    let dep = departure(r, exp, got);
    if let Some(d) = &dep {
        fails.push(d.clone());
    }
    let (be, bg) = (num(exp, "backtracks"), num(got, "backtracks"));
    if be != bg {
        fails.push(format!(
            "the reference backtracked {be} time(s) (undo blocks executed by place after a failed \
             recursive call); yours {bg}"
        ));
    }
    let departs = dep.as_ref().and_then(|_| {
        let ee = events(exp);
        let ge = events(got);
        (0..ee.len().max(ge.len()))
            .find(|&i| match (ee.get(i), ge.get(i)) {
                (Some(a), Some(b)) => !a.same(b),
                _ => true,
            })
            .map(|i| i + 1)
    });
    ReturnComparison {
        unjudged: None,
        ok: fails.is_empty(),
        message: fails.join("\n"),
        expected_shown: json!({ "steps": num(exp, "events_total"), "backtracks": be }),
        observed_shown: if fails.is_empty() {
            json!({ "steps": num(got, "events_total"), "backtracks": bg })
        } else {
            json!({ "steps": num(got, "events_total"), "backtracks": bg, "departs_at_step": departs })
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::turnpike::reference_for;
    use crate::problems::turnpike::world::World;

    const WORKED: [i32; 15] = [1, 2, 2, 2, 3, 3, 3, 4, 5, 5, 5, 6, 7, 8, 10];

    fn driver(w: &mut World) {
        w.delete_max();
        w.delete_max();
        w.contains(2);
        w.delete(2);
    }

    #[test]
    fn trying_left_first_is_named() {
        let r = reference_for(&json!(WORKED)).unwrap();
        let mut w = World::new(&WORKED);
        driver(&mut w);
        w.is_empty();
        w.find_max();
        for d in [3, 5, 7] {
            w.contains(d);
            w.delete(d);
        }
        w.is_empty();
        w.finish();
        let got = w.summary(0, None, &[]);
        let m = departure(&r, &r.summary, &got).unwrap();
        assert!(m.contains("at step 2"), "{m}");
        assert!(
            m.contains("the reference placed x[4] = 7 (x[Right] = dmax"),
            "{m}"
        );
        assert!(
            m.contains("yours placed x[2] = 3 (x[Left] = x[n] - dmax"),
            "{m}"
        );
        assert!(m.contains("must first try x[Right] = dmax"), "{m}");
        let c = search(&r, &r.summary, &got);
        assert!(!c.ok);
        assert!(c.message.contains("backtracked 1 time(s)"), "{}", c.message);
        assert!(search(&r, &r.summary, &r.summary).ok);
    }

    #[test]
    fn the_driver_that_keeps_its_distances_is_named() {
        let given = [1, 2, 2, 2, 3, 3, 3, 4, 5, 5, 5, 5, 7, 8, 10];
        let r = reference_for(&json!(given)).unwrap();
        let mut w = World::new(&given);
        driver(&mut w);
        w.is_empty();
        w.finish();
        let c = distances_after(&r, &w.summary(0, None, &[]));
        assert!(!c.ok);
        assert!(
            c.message.contains("yours is missing {2, 8, 10}"),
            "{}",
            c.message
        );
        assert!(c.message.contains("x[n] = 10, x[n-1] = 8"), "{}", c.message);
        assert!(distances_after(&r, &r.summary).ok);
    }

    #[test]
    fn a_valid_but_different_reconstruction_fails_with_reasons() {
        let r = reference_for(&json!({ "points": [0, 1, 4, 10, 12, 17] })).unwrap();
        let w = World::new(&r.inst.distances);
        let got = w.summary(1, Some(&[0, 1, 4, 10, 12, 17]), &[]);
        let c = answer(&r, &r.summary, &got);
        assert!(!c.ok);
        assert!(c
            .message
            .contains("x[2] is 5 in the reference's answer and 1 in yours"));
        assert!(c.message.contains("valid reconstruction"), "{}", c.message);
        let past = w.summary(1, Some(&[0, 5, 7, 13, 16, 17]), &[(7, 99)]);
        let c = answer(&r, &r.summary, &past);
        assert!(
            c.message.contains("wrote past the end of x: x[7] = 99"),
            "{}",
            c.message
        );
        assert!(answer(&r, &r.summary, &r.summary).ok);
    }

    #[test]
    fn a_return_other_than_true_or_false_is_shown_as_returned() {
        let r = reference_for(&json!([1, 2, 2, 2, 3, 3, 3, 4, 5, 5, 5, 6, 7, 8, 10])).unwrap();
        let got = json!({ "result": -1, "points": [0, 3, 5, 6, 8, 10] });
        let c = answer(&r, &r.summary, &got);
        assert!(!c.ok);
        assert!(
            c.message
                .starts_with("turnpike returned -1, which is neither"),
            "{}",
            c.message
        );
        assert_eq!(c.observed_shown["result"], json!(-1));
        let got = json!({ "result": 1, "points": [0, 3, 5, 6, 8, 10] });
        assert!(answer(&r, &r.summary, &got).ok);
    }

    #[test]
    fn formats() {
        assert_eq!(fmt_set(&[7, 1, 3]), "{1, 3, 7}");
        let big: Vec<i32> = (0..100).collect();
        assert_eq!(
            fmt_points(&big),
            "{0, 1, 2, 3, 4, 5, ..., 98, 99} (100 points)"
        );
        assert_eq!(
            multiset_diff(&[1, 3, 3, 3, 7], &[1, 3, 7]),
            "2 more copies of 3"
        );
        assert_eq!(fmt_entries(&json!([[3, 2], [5, 1]]), 3), "{3, 3, 5}");
    }
}
