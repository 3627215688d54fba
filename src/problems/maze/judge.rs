//! A submission's record against the reference's, in the book's terms.
//!
//! One judgement per case function, all over the same kind of record (see [`super::world`]):
//! the result ([`answer`]), the marks at the end ([`marks`]), the order of exploration
//! ([`explore`], and [`departure`] for the first call where the two explorations part),
//! exercise 2's length ([`shortest`]) and exercise 4's path ([`path_valid`],
//! [`path_order`]).

use labgrade_reference::maze::{Direction, Maze, Point, Variant, NO_SOLUTION};
use serde_json::{json, Value};

use super::draw::{marks_side_by_side, path_marks, side_by_side};
use super::world::{hex_to_marks, Op, VISITS_KEEP};
use super::Reference;
use crate::problems::ReturnComparison;

fn num(v: &Value, key: &str) -> u64 {
    v.get(key).and_then(Value::as_u64).unwrap_or(0)
}

fn bool_of(v: &Value) -> Option<bool> {
    v.get("result").and_then(Value::as_bool)
}

fn verdict(fails: Vec<String>, expected_shown: Value, observed_shown: Value) -> ReturnComparison {
    ReturnComparison {
        unjudged: None,
        ok: fails.is_empty(),
        message: fails.join("\n"),
        expected_shown,
        observed_shown,
    }
}

fn maze(r: &Reference) -> Option<&Maze> {
    r.inst.maze.as_ref().ok()
}

fn misuse_note(got: &Value) -> Option<String> {
    let n = num(got, "misuse_total");
    let first = got["misuse"].get(0)?;
    Some(format!(
        "{n} misuse(s) of mazelib; the first, at call #{}: {}",
        num(first, "call"),
        first.get("text").and_then(Value::as_str).unwrap_or("")
    ))
}

/// `SolveMaze`'s result.
pub fn answer(r: &Reference, exp: &Value, got: &Value) -> ReturnComparison {
    let (Some(e), Some(g)) = (bool_of(exp), bool_of(got)) else {
        return ReturnComparison::unreadable_record();
    };
    let mut fails = Vec::new();
    if e && !g {
        fails.push(format!(
            "SolveMaze returned false, but this maze has a way out: the reference reaches the \
             outside after {} calls, {} deep",
            r.run.calls, r.run.max_depth
        ));
    } else if !e && g {
        fails.push(format!(
            "no exit can be reached from the start {} (the reference returns false after {} \
             calls), but yours returned true",
            maze(r).map_or(Point::default(), Maze::start),
            r.run.calls
        ));
    }
    if !fails.is_empty() {
        fails.extend(misuse_note(got));
    }
    verdict(fails, json!({ "result": e }), json!({ "result": g }))
}

/// True when `marks` are exactly a simple path from the start to a square with an exit:
/// some walk through open walls from the start visits every marked square once and ends next
/// to an exit. In a maze with loops, two squares of a path may be neighbours without being
/// consecutive, so this is a search (depth first, iterative, with a step budget; None when
/// the budget runs out).
fn is_exit_path(m: &Maze, marks: &[bool]) -> Option<bool> {
    let count = marks.iter().filter(|x| **x).count();
    let at = |p: Point| m.index(p).is_some_and(|i| marks[i]);
    let start = m.start();
    if !at(start) {
        return Some(false);
    }
    let exit_next = |p: Point| {
        Direction::ALL
            .into_iter()
            .any(|d| !m.wall(p, d) && m.outside(p.adjacent(d)))
    };
    let mut on = vec![false; marks.len()];
    on[m.index(start)?] = true;
    // (square, next direction to try)
    let mut stack: Vec<(Point, usize)> = vec![(start, 0)];
    let mut budget: u64 = 2_000_000;
    while !stack.is_empty() {
        if stack.len() == count && exit_next(stack[stack.len() - 1].0) {
            return Some(true);
        }
        let top = stack.last_mut()?;
        if top.1 >= 4 {
            let (p, _) = stack.pop()?;
            on[m.index(p)?] = false;
            continue;
        }
        budget = budget.checked_sub(1)?;
        let (p, d) = (top.0, Direction::ALL[top.1]);
        top.1 += 1;
        let n = p.adjacent(d);
        if !m.wall(p, d) && at(n) {
            let i = m.index(n)?;
            if !on[i] {
                on[i] = true;
                stack.push((n, 0));
            }
        }
    }
    Some(false)
}

/// The marks at the end, judged by what the program promises, whatever order it explored in
/// (the order is [`explore`]'s business): Figure 7-3 leaves exactly a path from the start to
/// an exit after success and nothing after failure; exercise 3's other program leaves every
/// square it explored.
pub fn marks(r: &Reference, exp: &Value, got: &Value) -> ReturnComparison {
    let (Some(m), Some(g)) = (maze(r), bool_of(got)) else {
        return ReturnComparison::unreadable_record();
    };
    let n = m.width() * m.height();
    let want = hex_to_marks(exp["marks"].as_str().unwrap_or(""), n);
    let have = hex_to_marks(got["marks"].as_str().unwrap_or(""), n);
    let square = |i: usize| Point::new((i % m.width()) as i32, (i / m.width()) as i32);
    let count = have.iter().filter(|x| **x).count();
    let variant = r.inst.variant;
    let promise = match (variant, g) {
        (Variant::Unmark, true) => "exactly a path from the start to an exit",
        (Variant::Unmark, false) => "none",
        (Variant::KeepMarks, _) => "every square explored",
    };
    let expected_shown = json!({ "marks": promise });
    // The squares the submission explored, when its record kept them all.
    let explored: Option<Vec<bool>> = (num(got, "calls") as usize <= VISITS_KEEP).then(|| {
        let mut e = vec![false; n];
        for p in visits(got) {
            if let Some(i) = m.index(p) {
                e[i] = true;
            }
        }
        e
    });
    let (ok, mut text) = match (variant, g) {
        (Variant::Unmark, true) => (
            have == want || is_exit_path(m, &have) == Some(true),
            format!(
                "after success the marked squares must be exactly a path from the start to an \
                 exit (Figure 7-3 unmarks every square it backs out of); yours has {count} \
                 marked, which are not"
            ),
        ),
        (Variant::Unmark, false) => (
            count == 0,
            format!(
                "after failure no square may stay marked (Figure 7-3 unmarks each square \
                 before returning false); yours leaves {count}"
            ),
        ),
        (Variant::KeepMarks, _) => {
            let target = explored.clone().unwrap_or_else(|| want.clone());
            (
                have == target,
                format!(
                    "exercise 3's program without UnmarkSquare leaves every square it explored \
                     marked: yours explored {} and left {count} marked",
                    target.iter().filter(|x| **x).count()
                ),
            )
        }
    };
    let observed_shown = |ok: bool| json!({ "marks": if ok { promise.to_string() } else { format!("{count} square(s), not that") } });
    if ok {
        let mut note = String::new();
        if variant == Variant::Unmark && g && want != have {
            note = "your marks are a path to an exit, but not the one the book's order (North, \
                    East, South, West) finds first"
                .into();
        }
        return ReturnComparison {
            unjudged: None,
            ok: true,
            message: note,
            expected_shown,
            observed_shown: observed_shown(true),
        };
    }
    let base = match (variant, &explored) {
        (Variant::KeepMarks, Some(e)) => e.clone(),
        (Variant::Unmark, _) if !g => vec![false; n],
        _ => want.clone(),
    };
    let extra: Vec<Point> = (0..n)
        .filter(|&i| have[i] && !base[i])
        .map(square)
        .collect();
    let lacking: Vec<Point> = (0..n)
        .filter(|&i| base[i] && !have[i])
        .map(square)
        .collect();
    if let Some(p) = extra.first() {
        text.push_str(&format!(
            "; {} marked that should not be (first {p})",
            extra.len()
        ));
    }
    if let Some(p) = lacking.first() {
        text.push_str(&format!("; {} not marked (first {p})", lacking.len()));
    }
    // Said only when the submission never unmarked anything (a path through a wall leaves
    // extra marks too, and no UnmarkSquare would fix that).
    if variant == Variant::Unmark
        && lacking.is_empty()
        && !extra.is_empty()
        && op_count(got, "UnmarkSquare") == 0
    {
        text.push_str(&format!(
            "\nthe extra squares are dead ends {LEFT_MARKED}: unmark a square before \
             returning false"
        ));
    }
    if let Some(d) = marks_side_by_side(r, exp, got) {
        text.push('\n');
        text.push_str(&d);
    }
    verdict(vec![text], expected_shown, observed_shown(false))
}

fn visits(v: &Value) -> Vec<Point> {
    let a: Vec<i32> = v
        .get("visits")
        .and_then(Value::as_array)
        .map(|a| a.iter().map(|x| x.as_i64().unwrap_or(0) as i32).collect())
        .unwrap_or_default();
    a.chunks(2)
        .filter(|c| c.len() == 2)
        .map(|c| Point::new(c[0], c[1]))
        .collect()
}

/// Index in the record of the submission's `k`-th `OutsideMaze` (from 0): the start of its
/// `k`-th SolveMaze call.
fn call_index(raw: &[Value], k: usize) -> Option<usize> {
    raw.iter()
        .enumerate()
        .filter(|(_, op)| op.get(0).and_then(Value::as_i64) == Some(Op::Outside as i64))
        .nth(k)
        .map(|(i, _)| i)
}

/// One recorded mazelib call: (op, x, y, dir, result).
fn op_fields(op: &Value) -> (i64, Point, i32, i64) {
    let f = |j: usize| op.get(j).and_then(Value::as_i64).unwrap_or(-9);
    (
        f(0),
        Point::new(f(1) as i32, f(2) as i32),
        f(3) as i32,
        f(4),
    )
}

/// Where the submission's `k`-th call (from 0) came from: the last `WallExists(p, d)` before
/// its `OutsideMaze` with `p` next to it in direction `d`.
fn came_from(got: &Value, k: usize, pt: Point) -> Option<(Point, Direction)> {
    let raw = got.get("raw")?.as_array()?;
    let at = call_index(raw, k)?;
    raw[..at].iter().rev().find_map(|op| {
        let (o, p, d, _) = op_fields(op);
        if o != Op::Wall as i64 {
            return None;
        }
        let d = Direction::from_index(d)?;
        (p.adjacent(d) == pt).then_some((p, d))
    })
}

/// What the submission did at `p` before its `k`-th call, since it last entered `p`: whether
/// it asked `WallExists(p, d)`, and whether `IsMarked` told it that the square beyond was
/// marked.
fn asked_before(got: &Value, k: usize, p: Point, d: Direction) -> (bool, bool) {
    let Some(raw) = got.get("raw").and_then(Value::as_array) else {
        return (false, false);
    };
    let Some(at) = call_index(raw, k) else {
        return (false, false);
    };
    let beyond = p.adjacent(d);
    let (mut wall, mut marked) = (false, false);
    for op in raw[..at].iter().rev() {
        let (o, q, dir, result) = op_fields(op);
        if o == Op::Outside as i64 && q == p {
            break;
        }
        if o == Op::Wall as i64 && q == p && dir == d as i32 {
            wall = true;
        }
        if o == Op::IsMarked as i64 && q == beyond && result != 0 {
            marked = true;
        }
    }
    (wall, marked)
}

/// Calls the submission made to one mazelib function.
fn op_count(v: &Value, name: &str) -> u64 {
    v.get("ops")
        .and_then(|o| o.get(name))
        .and_then(Value::as_u64)
        .unwrap_or(0)
}

fn step_text(pt: Point, from: Option<(Point, Direction)>) -> String {
    match from {
        Some((p, d)) => format!("went {} from {p} into {pt}", d.name()),
        None => format!("explored {pt}"),
    }
}

/// The first call where the submission's exploration departs from the reference's.
pub fn departure(r: &Reference, exp: &Value, got: &Value) -> Option<String> {
    let ev = visits(exp);
    let gv = visits(got);
    let (et, gt) = (num(exp, "calls"), num(got, "calls"));
    let i = (0..ev.len().max(gv.len())).find(|&i| ev.get(i) != gv.get(i));
    let Some(i) = i else {
        if et != gt || exp.get("digest") != got.get("digest") {
            return Some(format!(
                "the exploration agrees with the reference's for the first {VISITS_KEEP} squares \
                 explored and departs later (the reference explores {et} squares, yours {gt})"
            ));
        }
        return None;
    };
    let refs = r.run.trace.get(i).map(|c| (c.pt, c.from));
    let ref_text = match refs {
        Some((pt, from)) => format!("the reference {}", step_text(pt, from)),
        None => format!("the reference had returned (after exploring {et} squares)"),
    };
    let got_text = match gv.get(i) {
        Some(&pt) => format!("yours {}", step_text(pt, came_from(got, i, pt))),
        None => format!("yours had returned (after exploring {gt} squares)"),
    };
    // A square is explored when OutsideMaze is asked about it: once per SolveMaze call in
    // the book, but not in code that calls SolveMaze without asking first, so this counts
    // squares, never calls (the calls case counts those).
    let mut m = format!(
        "the explorations part at square #{} explored (the reference explores {et} squares, \
         yours {gt}): {ref_text}; {got_text}",
        i + 1
    );
    let hint = match (refs, gv.get(i)) {
        (Some((_, Some((p, d)))), Some(&g)) => match came_from(got, i, g) {
            Some((q, e)) if q == p && e != d => match asked_before(got, i, p, d) {
                // It did look that way first, and was told the square beyond is marked:
                // the same order, with the IsMarked test moved before the call.
                (true, true) => Some(format!(
                    "yours asks IsMarked before it calls SolveMaze, so it skips the call into \
                     {} (marked), which the book makes: the book's SolveMaze is called there \
                     and returns false at its own IsMarked test, and that call counts",
                    p.adjacent(d)
                )),
                // It never asked about d before going e: another order.
                (false, _) => Some(format!(
                    "the book tries the directions in the order of directionT: North, East, \
                     South, West; from {p} it tries {} before {}",
                    d.name(),
                    e.name()
                )),
                (true, false) => None,
            },
            _ => None,
        },
        _ => None,
    };
    let never_unmarks = op_count(got, "UnmarkSquare") == 0 && op_count(exp, "UnmarkSquare") > 0;
    let hint = hint.or_else(|| match r.inst.variant {
        Variant::Unmark if gt < et && never_unmarks => Some(
            "yours never calls UnmarkSquare, so a square it backed out of is never explored \
             again. Figure 7-3 unmarks it (UnmarkSquare before returning false), so another \
             path may come back through it"
                .to_string(),
        ),
        Variant::KeepMarks if gt > et && op_count(got, "UnmarkSquare") > 0 => Some(
            "yours explores more, and it calls UnmarkSquare: this case grades exercise 3's \
             program without UnmarkSquare, where a square explored once stays marked"
                .to_string(),
        ),
        _ => None,
    });
    if let Some(h) = hint {
        m.push('\n');
        m.push_str(&h);
    }
    Some(m)
}

/// The order of exploration and the number of calls.
pub fn explore(r: &Reference, exp: &Value, got: &Value) -> ReturnComparison {
    if bool_of(got).is_none() {
        return ReturnComparison::unreadable_record();
    }
    let mut fails = Vec::new();
    if let Some(d) = departure(r, exp, got) {
        fails.push(d);
        if let Some(dr) = marks_side_by_side(r, exp, got) {
            fails.push(dr);
        }
    }
    let shown = |v: &Value| json!({ "calls": num(v, "calls") });
    verdict(fails, shown(exp), shown(got))
}

/// Exercise 2's length.
pub fn shortest(r: &Reference, exp: &Value, got: &Value) -> ReturnComparison {
    let (Some(e), Some(g)) = (
        exp.get("result").and_then(Value::as_i64),
        got.get("result").and_then(Value::as_i64),
    ) else {
        return ReturnComparison::unreadable_record();
    };
    let mut fails = Vec::new();
    // A course may set NO_SOLUTION (the record then says which value is in force).
    let ns = exp
        .get("no_solution")
        .and_then(Value::as_i64)
        .unwrap_or(i64::from(NO_SOLUTION));
    let squares = maze(r).map_or(0, |m| (m.width() * m.height()) as i64);
    if e != g {
        let mut m = format!("ShortestPathLength returned {g}; the shortest path is {e}");
        if e == ns {
            m = format!(
                "ShortestPathLength returned {g}, but no exit can be reached: return \
                 NO_SOLUTION ({ns})"
            );
            if g > ns && g - ns <= squares {
                // Each level of the recursion can add at most one, once per square.
                m.push_str(&format!(
                    "; yours is {} more than NO_SOLUTION, as if 1 were added to it on the way \
                     back: return NO_SOLUTION unchanged when no direction leads out",
                    g - ns
                ));
            } else if g > squares
                && exp.get("no_solution_everywhere").and_then(Value::as_i64) == Some(g)
            {
                // No path is that long: this is the code's own "no solution" value.
                m.push_str(&format!(
                    "; {g} is exactly what the exercise's code returns here with NO_SOLUTION = \
                     {g}. If your course defines NO_SOLUTION as {g}, give labgrade a course \
                     file with `[maze] params = {{ NO_SOLUTION = {g} }}` (labgrade --course \
                     FILE); otherwise use {ns}"
                ));
            }
        } else if g == e - 1 {
            m.push_str(
                ": yours is one short (it counts the steps between squares of the maze, \
                 leaving out the step out of it; the length counts the squares of the path)",
            );
        } else if g == e + 1 {
            m.push_str(": yours is one too long (it counts the square outside the maze)");
        }
        m.push_str(&format!(
            " (start {})",
            maze(r).map_or(Point::default(), Maze::start)
        ));
        fails.push(m);
    }
    verdict(fails, json!({ "length": e }), json!({ "length": g }))
}

fn path_of(v: &Value) -> Vec<Point> {
    v.get("path")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|p| {
                    Point::new(
                        p.get(0).and_then(Value::as_i64).unwrap_or(0) as i32,
                        p.get(1).and_then(Value::as_i64).unwrap_or(0) as i32,
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The form a FindPath record says its path in (see `super::find_path_result`).
fn form_of(got: &Value) -> &str {
    got.get("form")
        .and_then(Value::as_str)
        .unwrap_or(super::LENGTH_FORM)
}

/// What a FindPath returned, in its own form's terms: `true`/`false` for labgrade's, the
/// count of points (or 0) for the C edition's, 1 or 0 for a course's.
fn returned(got: &Value, found: bool) -> String {
    let length = got.get("length").and_then(Value::as_i64).unwrap_or(0);
    match (form_of(got), found) {
        (super::COUNT_FORM, true) if length > 0 => format!("{length} (a path of {length} points)"),
        (super::COUNT_FORM | super::ONE_ZERO_FORM, true) => "1".into(),
        (super::COUNT_FORM | super::ONE_ZERO_FORM, false) => "0".into(),
        (_, found) => found.to_string(),
    }
}

/// How the three-parameter forms say their path, for a message about one.
fn form_words(got: &Value) -> &'static str {
    match form_of(got) {
        super::ONE_ZERO_FORM => {
            "a function that returns 1 or 0 ends its path at the first square outside the maze"
        }
        _ => {
            "the C edition's FindPath returns the number of points it put in path[]; a course's \
             form that returns 1 or 0 ends its path at the first square outside the maze"
        }
    }
}

/// The first thing wrong with `path` as a way out from the start (CS106B's checks).
pub fn path_problem(m: &Maze, path: &[Point]) -> Option<String> {
    let Some(first) = path.first() else {
        return Some("the path is empty (it must begin with the start)".into());
    };
    if *first != m.start() {
        return Some(format!(
            "the path begins at {first}, not at the start {}",
            m.start()
        ));
    }
    let mut seen = std::collections::HashSet::new();
    for (k, w) in path.windows(2).enumerate() {
        let (a, b) = (w[0], w[1]);
        if m.outside(a) {
            return Some(format!(
                "step {}: {a} is outside the maze, but the path goes on (it must end at the \
                 first square outside)",
                k + 1
            ));
        }
        if !seen.insert(a) {
            return Some(format!("step {}: {a} is on the path twice", k + 1));
        }
        let Some(d) = Direction::between(a, b) else {
            return Some(format!(
                "step {}: from {a} to {b} is not a move to an adjacent square",
                k + 1
            ));
        };
        if m.wall(a, d) {
            return Some(format!(
                "step {}: from {a} {} to {b} goes through a wall",
                k + 1,
                d.name()
            ));
        }
    }
    let last = *path.last()?;
    if !m.outside(last) {
        return Some(format!(
            "the path ends at {last}, inside the maze (it must end at the first square outside)"
        ));
    }
    None
}

/// The diagnosis of a SolveMaze that never unmarks the squares it backs out of.
pub const LEFT_MARKED: &str = "explored and left marked";

/// The diagnosis of a FindPath that stores the exit square but does not count it.
pub const EXIT_NOT_COUNTED: &str = "it was stored but not counted";

/// When a path ends inside the maze and the point stored right after its counted ones (in
/// `path[*length]`) is the square outside next to its end: the exit was stored but not
/// counted, the slip an off-by-one length makes.
fn exit_not_counted(m: &Maze, path: &[Point], got: &Value) -> Option<String> {
    let last = *path.last()?;
    let after = got.get("stored_after")?.as_array()?;
    let q = Point::new(
        after.first()?.as_i64()? as i32,
        after.get(1)?.as_i64()? as i32,
    );
    let d = Direction::between(last, q)?;
    (!m.outside(last) && m.outside(q) && !m.wall(last, d)).then(|| {
        format!(
            "; the next point in path[], {q}, is that square outside: {EXIT_NOT_COUNTED} \
             (*length is {}, one short: count the exit square too)",
            path.len()
        )
    })
}

/// Both sides of a FindPath case in one shape, so that every row has a value on each side:
/// the paths themselves when both are short, else both lengths (a long path on one side and
/// a short one, or none, on the other never reads as "not observed").
fn paths_shown(exp: &Value, got: &Value) -> (Value, Value) {
    let short = path_of(exp).len() <= 12 && path_of(got).len() <= 12;
    let shown = |v: &Value| {
        let res = bool_of(v).unwrap_or(false);
        if short {
            json!({ "result": res, "path": v.get("path").cloned().unwrap_or(json!([])) })
        } else {
            json!({ "result": res, "path_length": path_of(v).len() })
        }
    };
    (shown(exp), shown(got))
}

/// Exercise 4: a path from the start, adjacent square by adjacent square, no wall crossed,
/// no square twice, ending at the first square outside.
pub fn path_valid(r: &Reference, exp: &Value, got: &Value) -> ReturnComparison {
    let (Some(m), Some(e), Some(g)) = (maze(r), bool_of(exp), bool_of(got)) else {
        return ReturnComparison::unreadable_record();
    };
    let mut fails = Vec::new();
    if got.get("wrote_past_end") == Some(&json!(true)) {
        fails.push(
            "FindPath wrote past the end of path (it holds `capacity` points: no path that \
             visits a square at most once needs more)"
                .to_string(),
        );
    }
    let path = path_of(got);
    match (e, g) {
        (true, false) => fails.push(format!(
            "FindPath returned {}, but this maze has a way out ({} squares long along the \
             reference's path)",
            returned(got, false),
            path_of(exp).len().saturating_sub(1)
        )),
        (false, true) => fails.push(format!(
            "no exit can be reached from {}, but FindPath returned {}",
            m.start(),
            returned(got, true)
        )),
        (true, true) if path.is_empty() && form_of(got) != super::LENGTH_FORM => {
            fails.push(format!(
                "FindPath returned {}, but path[] holds no path from the start to a square \
                 outside the maze ({})",
                returned(got, true),
                form_words(got)
            ))
        }
        (true, true) => {
            if let Some(p) = path_problem(m, &path) {
                let mut t = format!("the path FindPath returned is not a way out: {p}");
                if let Some(note) = exit_not_counted(m, &path, got) {
                    t.push_str(&note);
                }
                if let Some(d) = side_by_side(
                    m,
                    ("the reference's path", &path_marks(m, &path_of(exp))),
                    ("yours", &path_marks(m, &path)),
                ) {
                    t.push('\n');
                    t.push_str(&d);
                }
                fails.push(t);
            }
        }
        (false, false) => {}
    }
    let (e, g) = paths_shown(exp, got);
    verdict(fails, e, g)
}

/// Exercise 4 in the book's order: the path the reference finds (or, as Figure 7-3's
/// unmarking search finds it, when that one differs).
pub fn path_order(r: &Reference, exp: &Value, got: &Value) -> ReturnComparison {
    let (Some(m), Some(g)) = (maze(r), bool_of(got)) else {
        return ReturnComparison::unreadable_record();
    };
    let want = path_of(exp);
    let have = path_of(got);
    let mut fails = Vec::new();
    let accepted = have == want || r.other_path.as_ref() == Some(&have);
    if bool_of(exp) != Some(g) || (g && !accepted) {
        let i = want
            .iter()
            .zip(&have)
            .position(|(a, b)| a != b)
            .unwrap_or(want.len().min(have.len()));
        let mut t = format!(
            "the path differs from the one the book's order (North, East, South, West) finds \
             at its point #{}: the reference's is {}, yours {}",
            i + 1,
            want.get(i).map_or("the end".to_string(), Point::to_string),
            have.get(i).map_or("the end".to_string(), Point::to_string)
        );
        if path_problem(m, &have).is_none() && g {
            t.push_str(" (yours is a valid way out, found in another order)");
        } else if g && want.len() == have.len() + 1 && want.starts_with(&have) {
            // The book's path but for its last square: the exit stored, not counted?
            if let Some(note) = exit_not_counted(m, &have, got) {
                t.push_str(&note);
            }
        }
        if let Some(d) = side_by_side(
            m,
            ("the reference's path", &path_marks(m, &want)),
            ("yours", &path_marks(m, &have)),
        ) {
            t.push('\n');
            t.push_str(&d);
        }
        fails.push(t);
    }
    let (e, g) = paths_shown(exp, got);
    verdict(fails, e, g)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::maze::reference_for;
    use crate::problems::maze::world::World;
    use labgrade_reference::maze::{solve, Counter, MazeLib, Recurse};

    /// A FindPath's return is said in its own form's terms, never as another form's.
    #[test]
    fn what_find_path_returned_is_said_in_its_form() {
        let rec = |form: &str, length: i64| json!({ "form": form, "length": length });
        assert_eq!(returned(&rec("length", 3), true), "true");
        assert_eq!(returned(&rec("length", 0), false), "false");
        assert_eq!(returned(&rec("count", 5), true), "5 (a path of 5 points)");
        assert_eq!(returned(&rec("count", 0), false), "0");
        assert_eq!(returned(&rec("one-zero", 4), true), "1");
        assert_eq!(returned(&rec("one-zero", 0), false), "0");
        assert!(form_words(&rec("one-zero", 0)).contains("returns 1 or 0"));
    }

    fn small() -> Value {
        json!({ "map": [
            "+-+-+-+", "|   | |", "+ +-+ +", "|S    |", "+ +-+-+", "|     |", "+-+-+ +"
        ] })
    }

    /// Figure 7-3 trying East before North.
    struct EastFirst;
    impl<L: MazeLib + ?Sized> Recurse<L> for EastFirst {
        fn solve(&mut self, lib: &mut L, pt: Point, _from: labgrade_reference::maze::From) -> bool {
            if lib.outside_maze(pt) {
                return true;
            }
            if lib.is_marked(pt) {
                return false;
            }
            lib.mark_square(pt);
            for d in [
                Direction::East,
                Direction::North,
                Direction::South,
                Direction::West,
            ] {
                if !lib.wall_exists(pt, d) && self.solve(lib, pt.adjacent(d), None) {
                    return true;
                }
            }
            lib.unmark_square(pt);
            false
        }
        fn shortest(&mut self, _: &mut L, _: Point, _: labgrade_reference::maze::From) -> i32 {
            0
        }
        fn find_path<P: labgrade_reference::maze::PathStack + ?Sized>(
            &mut self,
            _: &mut L,
            _: Point,
            _: &mut P,
            _: labgrade_reference::maze::From,
        ) -> bool {
            false
        }
    }

    #[test]
    fn another_direction_order_is_named_at_the_first_call_that_differs() {
        let r = reference_for("SolveMaze", &small()).unwrap();
        let m = r.inst.maze.clone().unwrap();
        let mut w = World::new(m.clone());
        let ok = EastFirst.solve(&mut w, m.start(), None);
        let got = w.summary(json!(ok), None);
        let d = departure(&r, &r.summary, &got).unwrap();
        assert!(d.contains("square #2 explored"), "{d}");
        assert!(
            d.contains("the reference went North from (0, 1) into (0, 2)"),
            "{d}"
        );
        assert!(d.contains("yours went East from (0, 1) into (1, 1)"), "{d}");
        assert!(d.contains("North, East, South, West"), "{d}");
        assert!(explore(&r, &r.summary, &r.summary).ok);
        assert!(!explore(&r, &r.summary, &got).ok);
    }

    #[test]
    fn marks_left_on_dead_ends_are_drawn() {
        let r = reference_for("SolveMaze_marks", &small()).unwrap();
        let m = r.inst.maze.clone().unwrap();
        let mut w = World::new(m.clone());
        let (ok, _) = solve(&mut w, m.start(), Variant::KeepMarks, 0);
        assert!(ok);
        let got = w.summary(json!(ok), None);
        let c = marks(&r, &r.summary, &got);
        assert!(!c.ok);
        assert!(c.message.contains("exactly a path"), "{}", c.message);
        assert!(c.message.contains("dead ends"), "{}", c.message);
        assert!(c.message.contains("the reference's marks"), "{}", c.message);
        assert!(marks(&r, &r.summary, &r.summary).ok);
        let _ = Counter::new(Variant::Unmark, 0);
    }

    #[test]
    fn paths_are_checked_step_by_step() {
        let m =
            Maze::parse("+-+-+-+\n|   | |\n+ +-+ +\n|S    |\n+ +-+-+\n|     |\n+-+-+ +\n").unwrap();
        let p =
            |v: &[(i32, i32)]| -> Vec<Point> { v.iter().map(|&(x, y)| Point::new(x, y)).collect() };
        assert_eq!(
            path_problem(&m, &p(&[(0, 1), (0, 0), (1, 0), (2, 0), (2, -1)])),
            None
        );
        let through = path_problem(&m, &p(&[(0, 1), (1, 1), (1, 0), (2, 0), (2, -1)])).unwrap();
        assert!(
            through.contains("step 2: from (1, 1) South to (1, 0) goes through a wall"),
            "{through}"
        );
        let jump = path_problem(&m, &p(&[(0, 1), (2, 0)])).unwrap();
        assert!(jump.contains("not a move to an adjacent square"), "{jump}");
        let inside = path_problem(&m, &p(&[(0, 1), (0, 0)])).unwrap();
        assert!(inside.contains("inside the maze"), "{inside}");
        let twice = path_problem(&m, &p(&[(0, 1), (0, 0), (0, 1)])).unwrap();
        assert!(
            twice.contains("twice") || twice.contains("inside"),
            "{twice}"
        );
    }

    #[test]
    fn an_exit_stored_past_the_length_is_named_only_when_it_is_that_exit() {
        let m =
            Maze::parse("+-+-+-+\n|   | |\n+ +-+ +\n|S    |\n+ +-+-+\n|     |\n+-+-+ +\n").unwrap();
        let short = [
            Point::new(0, 1),
            Point::new(0, 0),
            Point::new(1, 0),
            Point::new(2, 0),
        ];
        let with = |after: Value| json!({ "result": true, "stored_after": after });
        let note = exit_not_counted(&m, &short, &with(json!([2, -1]))).unwrap();
        assert!(
            note.contains("(2, -1), is that square outside: it was stored but not counted")
                && note.contains("*length is 4, one short"),
            "{note}"
        );
        // Nothing stored past the length, a square inside, or one beyond a wall: no note.
        assert_eq!(
            exit_not_counted(&m, &short, &json!({ "result": true })),
            None
        );
        assert_eq!(exit_not_counted(&m, &short, &with(json!([1, 0]))), None);
        assert_eq!(exit_not_counted(&m, &short, &with(json!([3, 0]))), None);
    }

    #[test]
    fn a_path_may_touch_itself_in_a_room() {
        // An open 2 x 2 room, the exit east of (1, 0): S, (0,1), (1,1), (1,0) is a path,
        // although S and (1,0) are neighbours too.
        let m = Maze::parse("+-+-+\n|   |\n+ + +\n|S   \n+-+-+\n").unwrap();
        assert_eq!(is_exit_path(&m, &[true, true, true, true]), Some(true));
        assert_eq!(is_exit_path(&m, &[true, true, false, false]), Some(true));
        assert_eq!(is_exit_path(&m, &[true, false, true, false]), Some(false));
        assert_eq!(is_exit_path(&m, &[false, true, false, false]), Some(false));
    }

    #[test]
    fn both_sides_of_a_path_case_have_the_same_keys() {
        let long: Vec<Value> = (0..20).map(|i| json!([0, i])).collect();
        let exp = json!({ "result": true, "path": long });
        for got in [
            json!({ "result": false, "path": [] }),
            json!({ "result": true, "path": [[0, 0], [0, 1]] }),
            json!({ "result": false }),
        ] {
            let (e, g) = paths_shown(&exp, &got);
            let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
            assert_eq!(keys(&e), keys(&g), "{e} {g}");
        }
        let (e, g) = paths_shown(
            &json!({ "result": false, "path": [] }),
            &json!({ "result": false }),
        );
        assert_eq!(e, g);
    }

    #[test]
    fn shortest_hints() {
        let r = reference_for("ShortestPathLength", &small()).unwrap();
        let c = shortest(&r, &json!({ "result": 4 }), &json!({ "result": 3 }));
        assert!(c.message.contains("one short"), "{}", c.message);
        let c = shortest(&r, &json!({ "result": 10000 }), &json!({ "result": 10003 }));
        assert!(
            c.message.contains("3 more than NO_SOLUTION"),
            "{}",
            c.message
        );
        assert!(!c.message.contains("course"), "{}", c.message);
        // A course's own constant is no "added 1": it is named, with the setting, when
        // every run of the submission agrees with it.
        let c = shortest(
            &r,
            &json!({ "result": 10000, "no_solution_everywhere": 100000 }),
            &json!({ "result": 100000 }),
        );
        assert!(
            !c.message.contains("more than NO_SOLUTION"),
            "{}",
            c.message
        );
        assert!(
            c.message.contains("params = { NO_SOLUTION = 100000 }"),
            "{}",
            c.message
        );
        // One case alone is not the code's constant: no claim, and no "added 1" either.
        let c = shortest(
            &r,
            &json!({ "result": 10000 }),
            &json!({ "result": 100000 }),
        );
        assert!(!c.ok);
        assert!(
            !c.message.contains("NO_SOLUTION = 100000") && !c.message.contains("more than"),
            "{}",
            c.message
        );
        // Under that course, 100000 is right and 10000 is the wrong one.
        let c = shortest(
            &r,
            &json!({ "result": 100000, "no_solution": 100000 }),
            &json!({ "result": 100000 }),
        );
        assert!(c.ok, "{}", c.message);
    }
}
