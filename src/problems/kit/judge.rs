//! Judging a kit call: what it returned and left behind, against the reference's (or a
//! checker's verdict), and the calls it made into labgrade's library; in the assignment's
//! words (`*whatnis`, `PROBABLY_PRIME`, the board drawn).

use serde_json::{Map, Value};

use super::abi::{CType, Cells, FunctionDef, KitDef, LineOp, ParamDef, Pass, WorldDef};
use super::call::{grid_rows, shape_of, split_args, Shape};
use super::{CheckCall, CheckFailure, KitProblem};
use crate::problems::{Params, ReturnComparison};
use crate::spec::Case;

/// How a problem's values are drawn.
#[derive(Debug, Clone, Copy)]
pub struct Shown {
    /// A true cell of a bool grid (`Q` for a queen).
    pub yes: char,
    /// A false one.
    pub no: char,
}

impl Shown {
    /// `#` and `.`.
    pub const PLAIN: Shown = Shown { yes: '#', no: '.' };
}

/// Checks a case's arguments against the declaration: labgrade's error, with the file and
/// line, rather than a surprise in the child.
pub fn check_args(kit: &KitDef, f: &FunctionDef, args: &[Value]) -> Result<(), String> {
    let (own, world, _) = split_args(f, args);
    if own.len() + world.len() != f.fixture_arity() {
        return Err(format!(
            "`{}` takes {} argument(s) in a case ({}), the case gives {}",
            f.declaration,
            f.fixture_arity(),
            f.fixture_params()
                .map(|p| p.name.as_str())
                .chain(f.world_inputs.iter().map(String::as_str))
                .collect::<Vec<_>>()
                .join(", "),
            own.len() + world.len()
        ));
    }
    for p in &f.params {
        if shape_of(kit, f, args, p).is_none() {
            return Err(format!(
                "`{}` of `{}`: its size is missing, negative or more than {} cells",
                p.name,
                f.declaration,
                super::call::MAX_CELLS
            ));
        }
    }
    for (p, v) in f.fixture_params().zip(own) {
        let scalar = |x: &Value| super::call::scalar_bits(p.ty, x).is_some();
        let ok = match (p.ty, shape_of(kit, f, args, p)) {
            _ if p.fields.is_some() => v
                .as_array()
                .is_some_and(|a| Some(a.len()) == p.fields && a.iter().all(Value::is_string)),
            (CType::String, _) => v.is_string(),
            _ if super::call::starts_empty(p, v) => true,
            (_, Some(Shape::Grid(rows, cols))) => grid_rows(p.ty, v).is_some_and(|r| {
                r.len() == rows
                    && r.iter()
                        .all(|row| row.len() == cols && row.iter().all(scalar))
            }),
            (_, Some(Shape::Array(n))) => v
                .as_array()
                .is_some_and(|a| a.len() == n && a.iter().all(scalar)),
            (_, _) => scalar(v),
        };
        if let (false, Some(why)) = (ok, length_mismatch(kit, f, args, p, v)) {
            return Err(why);
        }
        if !ok {
            return Err(format!(
                "argument `{}` of `{}` must be {} (got `{v}`)",
                p.name,
                f.declaration,
                describe_type(kit, f, args, p)
            ));
        }
    }
    Ok(())
}

/// Where an array's length and the argument that sizes it disagree, which of them says
/// what (`set` has 3 values, its size `n` is 4).
fn length_mismatch(
    kit: &KitDef,
    f: &FunctionDef,
    args: &[Value],
    p: &ParamDef,
    v: &Value,
) -> Option<String> {
    let (Some(Shape::Array(n)), Some(given)) = (shape_of(kit, f, args, p), v.as_array()) else {
        return None;
    };
    if given.len() == n || given.is_empty() {
        return None;
    }
    let size = match &p.array {
        Some(super::abi::Dim::Param(name)) => format!("its size `{name}` is {n}"),
        _ => format!("its size is {n}"),
    };
    Some(format!(
        "argument `{}` of `{}` has {} value(s), but {size}: make the two agree",
        p.name,
        f.declaration,
        given.len()
    ))
}

fn describe_type(kit: &KitDef, f: &FunctionDef, args: &[Value], p: &ParamDef) -> String {
    let scalar = match p.ty {
        CType::Int => "an int",
        CType::Uint => "an unsigned int (0 to 4294967295)",
        CType::Long => "a long long",
        CType::Ulong => "an unsigned long long",
        CType::Bool => "a bool",
        CType::Char => "one character",
        CType::String => "a string",
        CType::Point => "a point [x, y]",
        CType::Void => "nothing",
    };
    match shape_of(kit, f, args, p) {
        Some(Shape::Grid(r, c)) if p.pass == Pass::Inout => {
            format!("{r} rows of {c} values, each {scalar} (or [], all zero)")
        }
        Some(Shape::Grid(r, c)) => format!("{r} rows of {c} values, each {scalar}"),
        Some(Shape::Array(n)) => format!("an array of {n} values, each {scalar}"),
        _ => scalar.to_string(),
    }
}

/// Prefix of the functions of labgrade's own drivers (the game side's `lg_moves`): a name no
/// student wrote, so never shown to one.
const DRIVER_PREFIX: &str = "lg_";

/// `power(2, 560, 561, &result, &whatnis)`, with the world's inputs after it. A function of
/// labgrade's own driver is called what its declaration says it runs (`your own
/// FindBestMove(state, 0, rating)`), never by its name.
pub fn describe(f: &FunctionDef, args: &[Value]) -> String {
    if f.name.starts_with(DRIVER_PREFIX) {
        return f
            .declaration
            .split(", in ")
            .next()
            .unwrap_or(&f.declaration)
            .to_string();
    }
    let (own, world, _) = split_args(f, args);
    let mut given = own.iter();
    let shown: Vec<String> = f
        .params
        .iter()
        .map(|p| {
            let v = if p.from_fixture() { given.next() } else { None };
            let many = p.grid.is_some() || p.array.is_some();
            let pointer = p.pass != super::abi::Pass::Value && p.ty != CType::String;
            match (many || pointer, v) {
                (true, _) if many || p.pass == Pass::World => p.name.clone(),
                (true, _) => format!("&{}", p.name),
                (false, Some(v)) if p.fields.is_some() => {
                    let fields: Vec<String> = v
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(Value::to_string)
                        .collect();
                    format!("{{{}}}", fields.join(", "))
                }
                (false, Some(v)) => show_scalar(p.ty, &p.names, v),
                (false, None) => p.name.clone(),
            }
        })
        .collect();
    let mut s = format!("{}({})", f.name, shown.join(", "));
    if !world.is_empty() {
        let inputs: Vec<String> = f
            .world_inputs
            .iter()
            .zip(world)
            .map(|(n, v)| match v {
                // A picture or a board is drawn where it matters, not in every message.
                Value::Array(rows) if v.to_string().len() > 40 => {
                    format!("{n}: {} rows", rows.len())
                }
                _ => format!("{n} = {v}"),
            })
            .collect();
        s.push_str(&format!(" [{}]", inputs.join(", ")));
    }
    s
}

/// A scalar as the handout writes it (an enum's name, a quoted string).
pub fn show_scalar(ty: CType, names: &[String], v: &Value) -> String {
    if let Some(name) = v.as_u64().and_then(|i| names.get(i as usize)) {
        return name.clone();
    }
    match (ty, v) {
        (CType::Point, Value::Array(xy)) if xy.len() == 2 => format!("({}, {})", xy[0], xy[1]),
        (CType::String, Value::String(s)) => format!("\"{s}\""),
        (CType::Char, Value::String(s)) => format!("'{s}'"),
        _ => v.to_string(),
    }
}

/// A grid as text, one row per line.
pub fn draw_grid(v: &Value, shown: Shown) -> Vec<String> {
    let rows: Vec<Vec<String>> = v
        .as_array()
        .into_iter()
        .flatten()
        .map(|row| {
            // A row of characters may come as one string ("GBRWWR").
            let cells: Vec<Value> = match row {
                Value::String(s) => s.chars().map(|c| Value::String(c.to_string())).collect(),
                _ => row.as_array().cloned().unwrap_or_default(),
            };
            cells
                .iter()
                .map(|c| match c {
                    Value::Bool(b) => (if *b { shown.yes } else { shown.no }).to_string(),
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                })
                .collect()
        })
        .collect();
    let width = rows.iter().flatten().map(String::len).max().unwrap_or(1);
    rows.iter()
        .map(|r| {
            r.iter()
                .map(|c| format!("{c:>width$}"))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

/// A 3 x 3 board given as its nine characters, one row per line (`" X O X"`).
pub fn board_3x3(text: &str) -> String {
    text.as_bytes()
        .chunks(3)
        .map(|row| {
            row.iter()
                .map(|&c| format!(" {}", c as char))
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Two grids side by side under their captions.
pub fn side_by_side(left: &[String], right: &[String], captions: (&str, &str)) -> String {
    let w = left
        .iter()
        .map(|l| l.chars().count())
        .chain([captions.0.len()])
        .max()
        .unwrap_or(0);
    let right_w = right.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    // Too wide for the report's 80 columns (after its indent): one above the other.
    if 2 + w + 3 + right_w > crate::columns::WIDTH - 4 {
        let mut out = format!("  {}", captions.0);
        for l in left {
            out.push_str(&format!("\n  {l}"));
        }
        out.push_str(&format!("\n  {}", captions.1));
        for r in right {
            out.push_str(&format!("\n  {r}"));
        }
        return out;
    }
    let mut out = format!("  {:<w$}   {}", captions.0, captions.1);
    for i in 0..left.len().max(right.len()) {
        let l = left.get(i).map_or("", String::as_str);
        let r = right.get(i).map_or("", String::as_str);
        out.push_str(&format!("\n  {l:<w$}   {r}"));
    }
    out
}

fn without_world(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(k, _)| k.as_str() != "world")
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The tag of a case that judges an `any_valid` function by the reference's answer, not by
/// the checker: for courses that fix the handout's order of choices.
pub const EXACT_TAG: &str = "exact";

/// Judges what a call returned and left behind (`exact`: by equality even where any valid
/// answer is accepted).
pub fn compare(
    problem: &KitProblem,
    f: &FunctionDef,
    args: &[Value],
    case: &Case,
    expected: &Value,
    got: &Value,
) -> ReturnComparison {
    let params: &Params = &case.params;
    let exact = case.tags.iter().any(|t| t == EXACT_TAG);
    let call = describe(f, args);
    let expected_shown = without_world(expected);
    let observed_shown = without_world(got);
    // The checker's message says it all for such a problem: nothing is shown beside it.
    let hidden =
        f.any_valid && !exact && problem.checker.is_some() && problem.checked_values_hidden;
    let (Some(exp), Some(obs)) = (expected_shown.as_object(), observed_shown.as_object()) else {
        return ReturnComparison::unreadable_record();
    };
    let shown = |v: &Value| if hidden { Value::Null } else { v.clone() };
    let result = |ok: bool, message: String| ReturnComparison {
        unjudged: None,
        ok,
        message,
        expected_shown: shown(&expected_shown),
        observed_shown: shown(&observed_shown),
    };
    let unchanged = unchanged(problem.def(), f, args, &call, obs);
    if f.any_valid && !exact {
        if let Some(checker) = problem.checker {
            if !unchanged.failures.is_empty() {
                let mut all: Vec<String> = return_failure(f, &call, exp, obs).into_iter().collect();
                all.extend(unchanged.failures);
                return result(false, all.join("\n"));
            }
            let (own, _, _) = split_args(f, args);
            return match checker(&CheckCall {
                problem: problem.abi.name,
                function: &f.name,
                args: own,
                params,
                expected: exp,
                got: obs,
                tags: &case.tags,
            }) {
                Ok(note) => result(true, note),
                Err(CheckFailure::Wrong(m)) => result(false, m),
                Err(CheckFailure::Unjudged(why)) => ReturnComparison {
                    unjudged: Some(why.clone()),
                    ..result(false, why)
                },
            };
        }
    }
    let mut failures: Vec<String> = return_failure(f, &call, exp, obs).into_iter().collect();
    failures.extend(unchanged.failures);
    for p in f.params.iter().filter(|p| p.read_back()) {
        if !unchanged.judged.contains(&p.name.as_str()) {
            failures.extend(param_failure(problem, p, &call, exp, obs));
        }
    }
    failures.extend(state_failure(problem, &call, exp, obs));
    result(failures.is_empty(), failures.join("\n"))
}

/// What the call returned, against the reference's.
fn return_failure(
    f: &FunctionDef,
    call: &str,
    exp: &Map<String, Value>,
    obs: &Map<String, Value>,
) -> Option<String> {
    if exp.get("return") == obs.get("return") || f.returns == CType::Void {
        return None;
    }
    let show =
        |v: Option<&Value>| show_scalar(f.returns, &f.return_names, v.unwrap_or(&Value::Null));
    Some(format!(
        "{call} returned {}; the reference returns {}",
        show(obs.get("return")),
        show(exp.get("return"))
    ))
}

/// What the call left in one argument it writes, against what the reference left there.
fn param_failure(
    problem: &KitProblem,
    p: &ParamDef,
    call: &str,
    exp: &Map<String, Value>,
    obs: &Map<String, Value>,
) -> Option<String> {
    let (e, o) = (exp.get(&p.name), obs.get(&p.name));
    if e == o {
        return None;
    }
    let (e, o) = (e.unwrap_or(&Value::Null), o.unwrap_or(&Value::Null));
    if p.grid.is_some() {
        return Some(format!(
            "{} after {call} differs from the reference's:\n{}",
            p.name,
            side_by_side(
                &draw_grid(o, problem.shown),
                &draw_grid(e, problem.shown),
                ("yours", "the reference's")
            )
        ));
    }
    let deref = if p.ty == CType::String || p.array.is_some() {
        ""
    } else {
        "*"
    };
    Some(format!(
        "after {call}, {deref}{} is {}; the reference leaves {}",
        p.name,
        show_scalar(p.ty, &p.names, o),
        show_scalar(p.ty, &p.names, e)
    ))
}

/// The world's state after the call (a package's picture), against the reference's.
fn state_failure(
    problem: &KitProblem,
    call: &str,
    exp: &Map<String, Value>,
    obs: &Map<String, Value>,
) -> Option<String> {
    let name = problem.def().world.as_ref()?.state.as_ref()?;
    let (e, o) = (exp.get(name), obs.get(name));
    if e == o {
        return None;
    }
    let none = Value::Null;
    let (o, e) = (o.unwrap_or(&none), e.unwrap_or(&none));
    Some(if o.is_string() || e.is_string() {
        format!(
            "the {name} after {call}: yours {}; the reference's {}",
            show_table(o),
            show_table(e)
        )
    } else {
        format!(
            "the {name} after {call} differs from the reference's:\n{}",
            picture_diff(o, e, problem.shown, problem.def().cells)
        )
    })
}

/// The arguments a call must leave as given because of what it returned
/// ([`ParamDef::unchanged_when`]): judged on that, not on the reference's.
struct Unchanged<'a> {
    /// The parameters so judged on this call.
    judged: Vec<&'a str>,
    /// What the call changed that it had to leave.
    failures: Vec<String>,
}

fn unchanged<'a>(
    kit: &KitDef,
    f: &'a FunctionDef,
    args: &[Value],
    call: &str,
    obs: &Map<String, Value>,
) -> Unchanged<'a> {
    let (own, _, _) = split_args(f, args);
    let returned = obs.get("return").unwrap_or(&Value::Null);
    let mut out = Unchanged {
        judged: Vec::new(),
        failures: Vec::new(),
    };
    for (p, given) in f.fixture_params().zip(own) {
        let Some(when) = p.unchanged_when.filter(|w| w.is(returned)) else {
            continue;
        };
        out.judged.push(p.name.as_str());
        let left = obs.get(&p.name).unwrap_or(&Value::Null);
        if let Some(change) = first_change(kit, p, given, left) {
            out.failures.push(format!(
                "{call} returned {} but changed {}: {change}; when it returns {}, {} must be \
                 left as it was given",
                when.shown(),
                p.name,
                when.shown(),
                p.name
            ));
        }
    }
    out
}

/// Where `left` first differs from `given` (`[]` given is all zero), in the handout's terms.
fn first_change(kit: &KitDef, p: &ParamDef, given: &Value, left: &Value) -> Option<String> {
    let scalar = |v: &Value| v.as_i64().or_else(|| v.as_bool().map(i64::from));
    let same = |a: &Value, b: &Value| a == b || (scalar(a).is_some() && scalar(a) == scalar(b));
    let shown = |v: &Value| show_scalar(p.ty, &p.names, v);
    let zero = Value::from(0);
    let rows = |v: &Value| match p.grid {
        Some(_) => grid_rows(p.ty, v).unwrap_or_default(),
        None if p.array.is_some() => vec![v.as_array().cloned().unwrap_or_default()],
        None => vec![vec![v.clone()]],
    };
    let (g, l) = (rows(given), rows(left));
    for (r, row) in l.iter().enumerate() {
        for (c, now) in row.iter().enumerate() {
            let was = g.get(r).and_then(|row| row.get(c)).unwrap_or(&zero);
            if same(was, now) {
                continue;
            }
            let at = if p.grid.is_some() {
                kit.cells.at(r, c)
            } else if p.array.is_some() {
                format!("[{c}]")
            } else {
                String::new()
            };
            let subject = if p.grid.is_some() {
                format!("{at} holds")
            } else if p.array.is_some() {
                format!("{}{at} holds", p.name)
            } else {
                format!("*{} is", p.name)
            };
            return Some(format!(
                "{subject} {} where the case gave {}",
                shown(now),
                shown(was)
            ));
        }
    }
    None
}

/// A state the world gives as text (`D = 7, E = 5`); `nothing` when empty.
fn show_table(v: &Value) -> String {
    match v.as_str() {
        Some(s) if !s.is_empty() => s.to_string(),
        _ => "nothing".into(),
    }
}

/// Rows and columns shown of a picture; a larger one is shown around its first difference.
/// Two fit side by side in the report's 80 columns.
const PICTURE_WINDOW: (usize, usize) = (16, 34);

/// Two pictures (rows of text, or grids) side by side: whole when small, else the window
/// around the first differing cell, with how many cells differ.
pub fn picture_diff(got: &Value, expected: &Value, shown: Shown, cells: Cells) -> String {
    let rows = |v: &Value| -> Vec<Vec<char>> {
        v.as_array()
            .into_iter()
            .flatten()
            .map(|row| match row {
                Value::String(s) => s.chars().collect(),
                other => draw_grid(&Value::Array(vec![other.clone()]), shown)
                    .concat()
                    .chars()
                    .filter(|c| *c != ' ')
                    .collect(),
            })
            .collect()
    };
    let (g, e) = (rows(got), rows(expected));
    let cell = |p: &[Vec<char>], r: usize, c: usize| p.get(r).and_then(|row| row.get(c)).copied();
    let (height, width) = (
        g.len().max(e.len()),
        g.iter().chain(&e).map(Vec::len).max().unwrap_or(0),
    );
    let differing: Vec<(usize, usize)> = (0..height)
        .flat_map(|r| (0..width).map(move |c| (r, c)))
        .filter(|&(r, c)| cell(&g, r, c) != cell(&e, r, c))
        .collect();
    let (top, left) = match differing.first() {
        Some(&(r, c)) if height > PICTURE_WINDOW.0 || width > PICTURE_WINDOW.1 => (
            r.saturating_sub(PICTURE_WINDOW.0 / 2)
                .min(height.saturating_sub(PICTURE_WINDOW.0)),
            c.saturating_sub(PICTURE_WINDOW.1 / 2)
                .min(width.saturating_sub(PICTURE_WINDOW.1)),
        ),
        _ => (0, 0),
    };
    let window = |p: &[Vec<char>]| -> Vec<String> {
        p.iter()
            .skip(top)
            .take(PICTURE_WINDOW.0)
            .map(|row| row.iter().skip(left).take(PICTURE_WINDOW.1).collect())
            .collect()
    };
    let mut out = side_by_side(&window(&g), &window(&e), ("yours", "the reference's"));
    if let Some(&(r, c)) = differing.first() {
        out.push_str(&format!(
            "\n  {} cell(s) differ; the first at {}",
            differing.len(),
            cells.at(r, c)
        ));
        if (top, left) != (0, 0) || height > PICTURE_WINDOW.0 || width > PICTURE_WINDOW.1 {
            out.push_str(&format!(
                "; shown: rows {top} to {} and columns {left} to {} of {height} x {width}",
                (top + PICTURE_WINDOW.0).min(height) - 1,
                (left + PICTURE_WINDOW.1).min(width) - 1
            ));
        }
    }
    out
}

/// Judges the calls a run made into labgrade's library against the reference's: how many of
/// each, then the first call where they part. Ok(()) when they agree.
pub fn compare_world(call: &str, expected: &Value, got: &Value) -> Result<(), String> {
    compare_world_in(call, expected, got, None, false, &|_| None)
}

/// The trace and call counts of a world record less the operations `def` leaves in free
/// order ([`super::abi::WorldOp::free_order`]), and whether the trace kept every call.
fn fixed_order(
    record: &Value,
    def: Option<&WorldDef>,
    exact: bool,
) -> (Vec<Value>, Map<String, Value>, bool) {
    let free = |name: &str| {
        !exact && def.is_some_and(|d| d.ops.iter().any(|o| o.name == name && o.free_order))
    };
    let trace = record["trace"].as_array().cloned().unwrap_or_default();
    let complete = record["total"]
        .as_u64()
        .is_none_or(|total| trace.len() as u64 >= total);
    let calls = record["calls"]
        .as_object()
        .map(|c| {
            c.iter()
                .filter(|(op, _)| !free(op))
                .map(|(op, n)| (op.clone(), n.clone()))
                .collect()
        })
        .unwrap_or_default();
    let trace = trace
        .into_iter()
        .filter(|step| !step[0].as_str().is_some_and(free))
        .collect();
    (trace, calls, complete)
}

/// `record` with the operations `def` leaves in free order taken out of its calls and trace
/// (unless `exact`): what a `world` case compares, as reports show it.
pub fn as_compared(record: &Value, def: Option<&WorldDef>, exact: bool) -> Value {
    let Some(map) = record.as_object() else {
        return record.clone();
    };
    if exact || def.is_none_or(|d| !d.ops.iter().any(|o| o.free_order)) {
        return record.clone();
    }
    let (trace, calls, _) = fixed_order(record, def, exact);
    let mut out = map.clone();
    if map.contains_key("calls") {
        out.insert("calls".into(), Value::Object(calls));
    }
    if map.contains_key("trace") {
        out.insert("trace".into(), Value::Array(trace));
    }
    Value::Object(out)
}

/// The moves made and not taken back by the first `steps` of a world trace: the line of
/// play a search is in there (each move as its arguments).
pub fn line_of_play(def: &WorldDef, steps: &[Value]) -> Vec<Vec<i64>> {
    let mut line: Vec<Vec<i64>> = Vec::new();
    for step in steps {
        let op = step[0]
            .as_str()
            .and_then(|n| def.ops.iter().find(|o| o.name == n));
        match op.and_then(|o| o.line) {
            Some(LineOp::Make) => line.push(
                step[1]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_i64)
                    .collect(),
            ),
            Some(LineOp::Retract) => {
                line.pop();
            }
            None => {}
        }
    }
    line
}

/// [`compare_world`] for a world whose moves are marked (`line` in the spec): where the
/// traces part, the line both searches were in is named, and drawn by `draw` when it can.
///
/// Operations the spec leaves in free order are not compared, unless `exact` (the case is
/// tagged `exact`). Where either trace was cut short, the traces are compared as far as both
/// go.
pub fn compare_world_in(
    call: &str,
    expected: &Value,
    got: &Value,
    def: Option<&WorldDef>,
    exact: bool,
    draw: &dyn Fn(&[Vec<i64>]) -> Option<String>,
) -> Result<(), String> {
    let mut failures = Vec::new();
    // The library in the assignment's words (`the pixel map`, a package's own).
    let library = def.map_or("labgrade's library", |d| d.name.as_str());
    let (et, exp_calls, e_complete) = fixed_order(expected, def, exact);
    let (gt, got_calls, g_complete) = fixed_order(got, def, exact);
    for (op, e) in &exp_calls {
        let g = got_calls.get(op).cloned().unwrap_or(Value::from(0));
        if &g != e {
            failures.push(format!(
                "{op} was called {} during {call}; the reference calls it {}",
                times(&g),
                times(e)
            ));
        }
    }
    let show = |step: &Value| -> String {
        let name = step[0].as_str().unwrap_or("?");
        let args: Vec<String> = step[1]
            .as_array()
            .into_iter()
            .flatten()
            .map(|a| match a {
                Value::String(c) => format!("'{c}'"),
                other => other.to_string(),
            })
            .collect();
        match step.get(2) {
            Some(r) => format!("{name}({}) = {r}", args.join(", ")),
            None => format!("{name}({})", args.join(", ")),
        }
    };
    let compared = if e_complete && g_complete {
        et.len().max(gt.len())
    } else {
        et.len().min(gt.len())
    };
    if let Some(i) = (0..compared).find(|&i| et.get(i) != gt.get(i)) {
        let (e, g) = (et.get(i), gt.get(i));
        // Answers are labgrade's: compare what was asked, and show what was answered.
        let asked = |s: Option<&Value>| s.map(|s| (s[0].clone(), s[1].clone()));
        if asked(e) != asked(g) || failures.is_empty() {
            failures.push(format!(
                "call {} into {library}: yours {}, the reference {}",
                i + 1,
                g.map_or("made no more calls".into(), show),
                e.map_or("made no more calls".into(), show)
            ));
            if let Some(def) = def.filter(|d| d.ops.iter().any(|o| o.line.is_some())) {
                let line = line_of_play(def, &et[..i]);
                let make = def.ops.iter().find(|o| o.line == Some(LineOp::Make));
                let shown: Vec<String> = line
                    .iter()
                    .map(|args| {
                        let args: Vec<String> = args.iter().map(i64::to_string).collect();
                        format!(
                            "{}({})",
                            make.map_or("move", |o| o.name.as_str()),
                            args.join(", ")
                        )
                    })
                    .collect();
                failures.push(if shown.is_empty() {
                    "the searches part in the position as given, before either made a move".into()
                } else {
                    format!(
                        "the searches part after the line {} (made by both, not yet taken back)",
                        shown.join(", ")
                    )
                });
                if let Some(picture) = draw(&line) {
                    failures.push(picture);
                }
            }
        }
    }
    if expected.get("refused").is_none() {
        if let Some(r) = got.get("refused") {
            failures.push(format!(
                "{library} was asked what it cannot answer {} during {call}; the first: {}",
                times(&r["count"]),
                r["first"].as_str().unwrap_or("?")
            ));
        }
    }
    if got.get("lost") == Some(&Value::Bool(true)) && expected.get("lost").is_none() {
        failures.push(format!(
            "the channel to {library} broke during {call}, and every answer after that was -1: \
             descriptors {} and {} are the library's (does your code write to or close them?)",
            super::remote_world::FROM_HOST_FD,
            super::remote_world::TO_HOST_FD
        ));
    }
    if let Some(m) = got.get("misuse").and_then(Value::as_u64) {
        failures.push(format!(
            "{m} call(s) with an unknown operation code (did you change the header?)"
        ));
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n"))
    }
}

fn times(v: &Value) -> String {
    match v.as_u64() {
        Some(1) => "once".into(),
        Some(n) => format!("{n} times"),
        None => "an unknown number of times".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn solver(cells: &str) -> KitDef {
        let spec = r#"
[kit]
cells = "CELLS"
[[kit.function]]
name = "Solve"
declaration = "bool Solve(int g[2][2], int *n)"
returns = "bool"
params = [
  { name = "g", type = "int", pass = "inout", grid = [2, 2], unchanged_when = false },
  { name = "n", type = "int", pass = "inout" },
]
"#;
        super::super::abi::parse(&spec.replace("CELLS", cells)).unwrap()
    }

    /// `unchanged_when = false` judges the grid against what the case gave, only on a call
    /// that returned false, and names the first changed cell in the spec's terms.
    #[test]
    fn a_grid_left_changed_after_false_is_named_by_its_cell() {
        let kit = solver("row-col");
        let f = &kit.function[0];
        let args = [json!([[1, 0], [0, 0]]), json!(3)];
        let left = |ret: bool, g: Value| {
            let obs = json!({ "return": ret, "g": g, "n": 7 });
            unchanged(&kit, f, &args, "Solve(g, n)", obs.as_object().unwrap())
        };
        let changed = left(false, json!([[1, 0], [4, 0]]));
        assert_eq!(changed.judged, ["g"]);
        assert_eq!(
            changed.failures,
            [
                "Solve(g, n) returned false but changed g: (row = 1, col = 0) holds 4 where the \
              case gave 0; when it returns false, g must be left as it was given"
            ]
        );
        let kept = left(false, json!([[1, 0], [0, 0]]));
        assert_eq!((kept.judged, kept.failures.len()), (vec!["g"], 0));
        // True is judged as usual (against the reference or the checker); `n` has no rule.
        let solved = left(true, json!([[1, 2], [2, 1]]));
        assert!(solved.judged.is_empty() && solved.failures.is_empty());
        // A grid the case gives as `[]` starts all zero; x-y names the cell column first.
        let kit = solver("x-y");
        let empty = [json!([]), json!(0)];
        let obs = json!({ "return": 0, "g": [[0, 0], [0, 9]] });
        let u = unchanged(
            &kit,
            &kit.function[0],
            &empty,
            "Solve",
            obs.as_object().unwrap(),
        );
        assert!(
            u.failures[0].contains("(x = 1, y = 1) holds 9 where the case gave 0"),
            "{:?}",
            u.failures
        );
    }

    #[test]
    fn unchanged_when_needs_an_inout_argument_and_a_return() {
        let spec = |param: &str, returns: &str| {
            let text = r#"
[kit]
[[kit.function]]
name = "F"
declaration = "d"
returns = "RETURNS"
params = [{ name = "a", type = "int", pass = "PASS", array = 3, unchanged_when = 0 }]
"#;
            super::super::abi::parse(&text.replace("RETURNS", returns).replace("PASS", param))
        };
        assert!(spec("inout", "int").is_ok());
        let err = spec("inout", "void").unwrap_err();
        assert!(err.contains("must be `inout`"), "{err}");
        assert!(spec("in", "int")
            .unwrap_err()
            .contains("`a` is `unchanged_when`"));
    }

    #[test]
    fn grids_are_drawn_side_by_side() {
        let a = draw_grid(
            &json!([[true, false], [false, true]]),
            Shown { yes: 'Q', no: '.' },
        );
        assert_eq!(a, vec!["Q .", ". Q"]);
        let s = side_by_side(&a, &a, ("yours", "the reference's"));
        assert_eq!(s, "  yours   the reference's\n  Q .     Q .\n  . Q     . Q");
    }

    #[test]
    fn a_large_picture_is_shown_around_its_first_difference() {
        let rows = |odd: Option<(usize, usize)>| {
            let v: Vec<String> = (0..100)
                .map(|y| {
                    (0..100)
                        .map(|x| if odd == Some((x, y)) { '#' } else { '.' })
                        .collect()
                })
                .collect();
            serde_json::json!(v)
        };
        let d = picture_diff(&rows(Some((70, 80))), &rows(None), Shown::PLAIN, Cells::XY);
        assert!(
            d.contains(
                "1 cell(s) differ; the first at (x = 70, y = 80); shown: rows 72 to 87 \
                        and columns 53 to 86 of 100 x 100"
            ),
            "{d}"
        );
        assert_eq!(d.lines().count(), 1 + 16 + 1);
        // The drawing fits the report beside its indent (the last line is prose, wrapped).
        assert!(d.lines().take(17).all(|l| l.chars().count() <= 76), "{d}");
        let small = picture_diff(
            &serde_json::json!(["#."]),
            &serde_json::json!([".."]),
            Shown::PLAIN,
            Cells::RowCol,
        );
        assert!(
            small.ends_with("1 cell(s) differ; the first at (row = 0, col = 0)"),
            "{small}"
        );
    }

    #[test]
    fn questions_in_free_order_are_compared_only_when_exact() {
        let def: WorldDef = toml::from_str(
            "name = \"board\"\nops = [\n{ name = \"place\", arity = 1 },\n\
             { name = \"full\", arity = 0, returns = true, free_order = true },\n\
             { name = \"win\", arity = 0, returns = true, free_order = true },\n]\n",
        )
        .unwrap();
        let e = json!({"calls": {"place": 1, "full": 1, "win": 1}, "total": 3,
            "trace": [["full", [], 0], ["win", [], 0], ["place", [5]]]});
        let swapped = json!({"calls": {"place": 1, "full": 1, "win": 1}, "total": 3,
            "trace": [["win", [], 0], ["full", [], 0], ["place", [5]]]});
        let other_move = json!({"calls": {"place": 1, "full": 1, "win": 1}, "total": 3,
            "trace": [["full", [], 0], ["win", [], 0], ["place", [6]]]});
        let cmp =
            |g: &Value, exact: bool| compare_world_in("f()", &e, g, Some(&def), exact, &|_| None);
        assert_eq!(cmp(&swapped, false), Ok(()));
        assert!(cmp(&swapped, true).unwrap_err().contains("yours win() = 0"));
        assert!(cmp(&other_move, false)
            .unwrap_err()
            .contains("yours place(6)"));
        // Traces cut short (total beyond what was kept) are compared as far as both go.
        let cut = json!({"calls": {"place": 1, "full": 2, "win": 1}, "total": 40,
            "trace": [["win", [], 0], ["full", [], 0], ["full", [], 0], ["place", [5]]]});
        let e_cut = json!({"calls": {"place": 1, "full": 2, "win": 1}, "total": 40,
            "trace": [["full", [], 0], ["win", [], 0], ["place", [5]], ["place", [7]]]});
        assert_eq!(
            compare_world_in("f()", &e_cut, &cut, Some(&def), false, &|_| None),
            Ok(())
        );
    }

    /// What reports show of a world case is what it compares: the free questions' counts
    /// are never shown beside each other as a difference (they are not compared), unless
    /// the case is exact.
    #[test]
    fn reports_show_a_world_as_compared() {
        let def: WorldDef = toml::from_str(
            "name = \"board\"\nops = [\n{ name = \"place\", arity = 1 },\n\
             { name = \"full\", arity = 0, returns = true, free_order = true },\n]\n",
        )
        .unwrap();
        let r = json!({"calls": {"place": 1, "full": 3}, "total": 4,
            "trace": [["full", [], 0], ["place", [5]], ["full", [], 0], ["full", [], 1]]});
        let shown = as_compared(&r, Some(&def), false);
        assert_eq!(shown["calls"], json!({"place": 1}));
        assert_eq!(shown["trace"], json!([["place", [5]]]));
        assert_eq!(as_compared(&r, Some(&def), true), r);
        assert_eq!(as_compared(&r, None, false), r);
    }

    #[test]
    fn world_calls_are_judged_by_count_then_first_difference() {
        let e = json!({"calls": {"rand_int": 1}, "trace": [["rand_int", [2, 559], 2]]});
        assert_eq!(compare_world("test_prime(561)", &e, &e), Ok(()));
        let g = json!({"calls": {"rand_int": 1}, "trace": [["rand_int", [1, 560], 2]]});
        let m = compare_world("test_prime(561)", &e, &g).unwrap_err();
        assert!(
            m.contains("yours rand_int(1, 560) = 2, the reference rand_int(2, 559) = 2"),
            "{m}"
        );
        let none = json!({"calls": {"rand_int": 0}, "trace": []});
        let m = compare_world("test_prime(561)", &e, &none).unwrap_err();
        assert!(
            m.contains(
                "rand_int was called 0 times during test_prime(561); the reference calls it once"
            ),
            "{m}"
        );
    }
}
