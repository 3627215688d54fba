//! The reference's record of a maze case as a student bundle's evidence: written when the
//! bundle is made, read by its checker, which has no solver to search the maze again (see
//! [`crate::student`]). The judgement and the explanations read its trace and other path.

use std::sync::Arc;

use labgrade_reference::maze::{Call, Direction, Point, Run};
use serde_json::{json, Value};

use super::{base, input, Reference};
use crate::problems::memo::Memo;

/// The evidence's key of the reference's record for `function` on `arg`.
pub fn key(function: &str, arg: &Value) -> String {
    format!("maze reference: {}|{arg}", base(function))
}

/// `r` as JSON: its record on labgrade's world, its counted run, the other path.
pub fn record(r: &Reference) -> Value {
    json!({
        "summary": r.summary,
        "calls": r.run.calls,
        "max_depth": r.run.max_depth,
        "trace": r.run.trace.iter().map(call_to).collect::<Vec<_>>(),
        "other_path": r.other_path.as_ref().map(|p| p.iter().map(point_to).collect::<Vec<_>>()),
    })
}

/// The reference's record for `function` on `arg`, read back from the bundle's evidence.
pub fn reference(function: &str, arg: &Value) -> Result<Arc<Reference>, String> {
    static READ: Memo<Reference> = Memo::new();
    let key = key(function, arg);
    let arg = arg.clone();
    READ.get_or_compute(key.clone(), 512, move || {
        let fact = crate::problems::precomputed::evidence(&key)
            .ok_or("this bundle holds no reference record for this case")?;
        let unreadable = || "this bundle's reference record does not read".to_string();
        let u = |k: &str| fact.get(k).and_then(Value::as_u64).ok_or_else(unreadable);
        let run = Run {
            calls: u("calls")?,
            max_depth: u("max_depth")?,
            trace: fact
                .get("trace")
                .and_then(Value::as_array)
                .ok_or_else(unreadable)?
                .iter()
                .map(call_from)
                .collect::<Option<_>>()
                .ok_or_else(unreadable)?,
        };
        let other_path = match fact.get("other_path") {
            None | Some(Value::Null) => None,
            Some(p) => Some(
                p.as_array()
                    .ok_or_else(unreadable)?
                    .iter()
                    .map(point_from)
                    .collect::<Option<_>>()
                    .ok_or_else(unreadable)?,
            ),
        };
        Ok(Reference {
            inst: input::parse(&arg)?,
            summary: fact.get("summary").cloned().unwrap_or(Value::Null),
            run,
            other_path,
        })
    })
}

fn point_to(p: &Point) -> Value {
    json!([p.x, p.y])
}

fn point_from(v: &Value) -> Option<Point> {
    let a = v.as_array()?;
    let int = |i: usize| a.get(i)?.as_i64().and_then(|x| i32::try_from(x).ok());
    Some(Point {
        x: int(0)?,
        y: int(1)?,
    })
}

/// One call, compact: `[x, y, depth]`, or `[x, y, depth, from_x, from_y, direction]`.
fn call_to(c: &Call) -> Value {
    match c.from {
        None => json!([c.pt.x, c.pt.y, c.depth]),
        Some((from, d)) => json!([c.pt.x, c.pt.y, c.depth, from.x, from.y, d as i32]),
    }
}

fn call_from(v: &Value) -> Option<Call> {
    let a = v.as_array()?;
    let int = |i: usize| a.get(i)?.as_i64().and_then(|x| i32::try_from(x).ok());
    let from = if a.len() == 6 {
        Some((
            Point {
                x: int(3)?,
                y: int(4)?,
            },
            Direction::from_index(int(5)?)?,
        ))
    } else {
        None
    };
    Some(Call {
        pt: Point {
            x: int(0)?,
            y: int(1)?,
        },
        from,
        depth: u32::try_from(a.get(2)?.as_u64()?).ok()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_reads_back_as_it_was_written() {
        let arg = json!({ "seed": 3, "width": 6, "height": 5, "variant": "unmark" });
        for function in ["SolveMaze", "FindPath"] {
            let r = super::super::reference_for(function, &arg).unwrap();
            let v = record(&r);
            let back_trace: Vec<Call> = v["trace"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| call_from(c).unwrap())
                .collect();
            assert_eq!(back_trace, r.run.trace, "{function}");
            assert!(r.run.trace.iter().any(|c| c.from.is_some()));
        }
    }
}
