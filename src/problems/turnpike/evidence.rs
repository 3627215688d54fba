//! The reference's record of a turnpike search as a student bundle's evidence: written when
//! the bundle is made, read by its checker, which has no solver to run the search again
//! (see [`crate::student`]). The judgement of the search and its explanations replay these
//! steps.

use labgrade_reference::turnpike::{Run, Side, Step};
use serde_json::{json, Value};

/// `run` as JSON.
pub fn run_to(run: &Run) -> Value {
    json!({
        "found": run.found,
        "points": run.points,
        "place_calls": run.place_calls,
        "max_depth": run.max_depth,
        "backtracks": run.backtracks,
        "steps": run.steps.iter().map(step_to).collect::<Vec<_>>(),
    })
}

/// A run written by [`run_to`], or None when it does not read.
pub fn run_from(v: &Value) -> Option<Run> {
    let u = |k: &str| v.get(k).and_then(Value::as_u64);
    Some(Run {
        found: v.get("found")?.as_bool()?,
        points: v
            .get("points")?
            .as_array()?
            .iter()
            .map(|p| p.as_i64().and_then(|p| i32::try_from(p).ok()))
            .collect::<Option<_>>()?,
        place_calls: u("place_calls")?,
        max_depth: u("max_depth")?,
        backtracks: u("backtracks")?,
        steps: v
            .get("steps")?
            .as_array()?
            .iter()
            .map(step_from)
            .collect::<Option<_>>()?,
    })
}

fn side_to(side: Side) -> &'static str {
    match side {
        Side::Right => "R",
        Side::Left => "L",
    }
}

fn side_from(v: &Value) -> Option<Side> {
    match v.as_str()? {
        "R" => Some(Side::Right),
        "L" => Some(Side::Left),
        _ => None,
    }
}

/// One step, compact: `["D", xn, xn1]`, `["P", side, index, value, dmax]`,
/// `["U", side, index, value]`, `["R"]`.
fn step_to(step: &Step) -> Value {
    match *step {
        Step::Driver { xn, xn1 } => json!(["D", xn, xn1]),
        Step::Placed {
            side,
            index,
            value,
            dmax,
        } => json!(["P", side_to(side), index, value, dmax]),
        Step::Undone { side, index, value } => json!(["U", side_to(side), index, value]),
        Step::DriverRestored => json!(["R"]),
    }
}

fn step_from(v: &Value) -> Option<Step> {
    let a = v.as_array()?;
    let int = |i: usize| a.get(i)?.as_i64().and_then(|x| i32::try_from(x).ok());
    let index = |i: usize| a.get(i)?.as_u64().and_then(|x| usize::try_from(x).ok());
    Some(match a.first()?.as_str()? {
        "D" => Step::Driver {
            xn: int(1)?,
            xn1: int(2)?,
        },
        "P" => Step::Placed {
            side: side_from(a.get(1)?)?,
            index: index(2)?,
            value: int(3)?,
            dmax: int(4)?,
        },
        "U" => Step::Undone {
            side: side_from(a.get(1)?)?,
            index: index(2)?,
            value: int(3)?,
        },
        "R" => Step::DriverRestored,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_search_reads_back_as_it_was_written() {
        let r = super::super::reference_for(&json!([1, 2, 2, 2, 3, 3, 3, 4, 5, 5, 5, 6, 7, 8, 10]))
            .unwrap();
        let back = run_from(&run_to(&r.run)).expect("reads");
        assert_eq!(back.steps, r.run.steps);
        assert_eq!(
            (
                back.found,
                &back.points,
                back.place_calls,
                back.max_depth,
                back.backtracks
            ),
            (
                r.run.found,
                &r.run.points,
                r.run.place_calls,
                r.run.max_depth,
                r.run.backtracks
            )
        );
        assert!(r.run.steps.iter().any(|s| matches!(s, Step::Undone { .. })));
    }
}
