//! Roberts' paint-bucket tool (seed 000, chapter 7, exercise 6) through the kit: the world is
//! the pixel map (`GetPixelState`, `SetPixelState`, `OutsidePixelBounds`), and the picture it
//! holds at the end is the answer.

use labgrade_reference::kit::Tally;
use labgrade_reference::paint_fill::{self as reference, PixelMap, BLACK};
use serde_json::{json, Map, Value};

use super::world::{Recorder, World};
use super::{KitAbi, KitProblem, RefCall, RefRun};
use crate::problems::Mismatch;
use crate::sandbox::RunInput;

/// Steps of the reference's trace kept.
const TRACE_KEEP: usize = 4096;

/// The child's side.
pub static ABI: KitAbi = KitAbi::new(
    "paint-fill",
    include_str!("../../../specs/paint-fill.toml"),
    Some(pixel_map),
);

/// The grader's side.
pub static PROBLEM: KitProblem = problem();

/// The same without its solver (the student bundle's checker, see `crate::student`).
pub static JUDGE: KitProblem = problem().judge_only();

const fn problem() -> KitProblem {
    KitProblem::new(&ABI, run_reference).with_explain(explain)
}

/// The picture: rows of cells, true for black.
struct Pixels {
    rows: Vec<Vec<bool>>,
    refused: u64,
    first_refused: Option<String>,
}

impl Pixels {
    fn cell(&mut self, x: i64, y: i64) -> Option<&mut bool> {
        let (x, y) = (usize::try_from(x).ok()?, usize::try_from(y).ok()?);
        self.rows.get_mut(y)?.get_mut(x)
    }

    fn refuse(&mut self, what: String) {
        self.refused += 1;
        if self.first_refused.is_none() {
            let (h, w) = (self.rows.len(), self.rows.first().map_or(0, Vec::len));
            self.first_refused = Some(format!("{what}: outside the {w} x {h} pixel map"));
        }
    }
}

impl World for Pixels {
    fn answer(&mut self, op: usize, args: &[i64]) -> i64 {
        let (x, y) = (args[0], args[1]);
        match op {
            0 => match self.cell(x, y) {
                Some(b) => i64::from(*b),
                None => {
                    self.refuse(format!("GetPixelState(({x}, {y}))"));
                    BLACK
                }
            },
            1 => {
                let state = args[2];
                match self.cell(x, y) {
                    Some(b) => *b = state != 0,
                    None => self.refuse(format!("SetPixelState(({x}, {y}), {state})")),
                }
                0
            }
            _ => i64::from(self.cell(x, y).is_none()),
        }
    }

    fn state(&self) -> Value {
        json!(draw(&self.rows))
    }

    fn refused(&self) -> Option<(u64, String)> {
        Some((self.refused, self.first_refused.clone()?))
    }
}

fn draw(rows: &[Vec<bool>]) -> Vec<String> {
    rows.iter()
        .map(|r| r.iter().map(|&b| if b { '#' } else { '.' }).collect())
        .collect()
}

/// A picture from a case: rows of `#` (black) and `.` (white), all as long.
fn parse_picture(v: Option<&Value>) -> Result<Vec<Vec<bool>>, String> {
    const BAD: &str = "the picture must be rows of '#' (black) and '.' (white), all as long";
    let rows: Vec<Vec<bool>> = v
        .and_then(Value::as_array)
        .ok_or(BAD)?
        .iter()
        .map(|r| {
            r.as_str()
                .filter(|s| s.chars().all(|c| c == '#' || c == '.'))
                .map(|s| s.chars().map(|c| c == '#').collect())
                .ok_or(BAD)
        })
        .collect::<Result<_, _>>()?;
    let width = rows.first().map_or(0, Vec::len);
    if rows.is_empty() || width == 0 || rows.iter().any(|r| r.len() != width) {
        return Err(BAD.into());
    }
    if rows.len() * width > super::call::MAX_CELLS {
        return Err(format!(
            "the picture has more than {} pixels",
            super::call::MAX_CELLS
        ));
    }
    Ok(rows)
}

fn pixel_map(
    _own: &[Value],
    inputs: &[Value],
    _params: super::world::Params<'_>,
) -> Result<Box<dyn World>, String> {
    Ok(Box::new(Pixels {
        rows: parse_picture(inputs.first())?,
        refused: 0,
        first_refused: None,
    }))
}

/// The reference asks labgrade's pixel map, through the same recorder a submission's calls go.
struct Through<'a>(&'a mut Recorder);

impl PixelMap for Through<'_> {
    fn get(&mut self, x: i32, y: i32) -> i64 {
        self.0.call(0, [x.into(), y.into(), 0, 0])
    }
    fn set(&mut self, x: i32, y: i32, state: i64) {
        self.0.call(1, [x.into(), y.into(), state, 0]);
    }
    fn outside(&mut self, x: i32, y: i32) -> bool {
        self.0.call(2, [x.into(), y.into(), 0, 0]) != 0
    }
}

fn point(v: Option<&Value>) -> Result<(i32, i32), String> {
    let xy = v.and_then(Value::as_array).filter(|a| a.len() == 2);
    let part = |i: usize| {
        xy.and_then(|a| a[i].as_i64())
            .and_then(|c| i32::try_from(c).ok())
    };
    part(0)
        .zip(part(1))
        .ok_or_else(|| "pt must be a point [x, y]".into())
}

fn run_reference(c: RefCall<'_>) -> Result<RefRun, String> {
    if c.function != "FillRegion" {
        return Err(format!("paint-fill has no function `{}`", c.function));
    }
    let (x, y) = point(c.args.first())?;
    let world = c.world.ok_or("FillRegion needs the pixel map")?;
    // One frame per painted pixel at worst: the reference runs on a stack to match (only
    // what it touches is ever mapped), never on the grader's own.
    let stack = (64 << 20) + 1024 * super::call::MAX_CELLS;
    let tally = std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("paint-fill reference".into())
            .stack_size(stack)
            .spawn_scoped(s, move || {
                let mut tally = Tally::new(TRACE_KEEP);
                reference::fill_region(&mut tally, &mut Through(world), x, y);
                tally
            })
            .map_err(|e| format!("cannot start the reference: {e}"))?
            .join()
            .map_err(|_| "the reference panicked".to_string())
    })?;
    Ok(RefRun {
        value: Some(Map::new()),
        tally,
        stdout: None,
    })
}

/// The region an 8-neighbour fill paints: what a fill that also spreads diagonally leaves.
fn eight_neighbour_fill(rows: Vec<Vec<bool>>, x: i32, y: i32) -> Vec<String> {
    let steps: Vec<(i32, i32)> = (-1..=1)
        .flat_map(|dy| (-1..=1).map(move |dx| (dx, dy)))
        .filter(|&d| d != (0, 0))
        .collect();
    fill_by(rows, x, y, &steps)
}

/// The region a fill that tries only `steps` of the four neighbours paints (a queue, no
/// recursion): what a fill that forgets one direction leaves.
fn fill_by(mut rows: Vec<Vec<bool>>, x: i32, y: i32, steps: &[(i32, i32)]) -> Vec<String> {
    let mut queue = std::collections::VecDeque::from([(x, y)]);
    while let Some((x, y)) = queue.pop_front() {
        let cell = usize::try_from(y)
            .ok()
            .zip(usize::try_from(x).ok())
            .and_then(|(y, x)| rows.get_mut(y)?.get_mut(x));
        match cell {
            Some(b) if !*b => *b = true,
            _ => continue,
        }
        queue.extend(steps.iter().map(|(dx, dy)| (x + dx, y + dy)));
    }
    draw(&rows)
}

/// The four neighbours by name, as paint.h tries them (y grows downwards).
const NEIGHBOURS: [(&str, (i32, i32)); 4] = [
    ("north", (0, -1)),
    ("east", (1, 0)),
    ("south", (0, 1)),
    ("west", (-1, 0)),
];

/// The direction a fill never went, when the observed picture is exactly what a fill
/// without it leaves and what no fill without another direction leaves (the caller asks
/// only where the reference's picture is another).
fn direction_forgotten(
    rows: &[Vec<bool>],
    x: i32,
    y: i32,
    observed: &Value,
) -> Option<&'static str> {
    let fits: Vec<&'static str> = NEIGHBOURS
        .iter()
        .filter(|(name, _)| {
            let steps: Vec<(i32, i32)> = NEIGHBOURS
                .iter()
                .filter(|(n, _)| n != name)
                .map(|(_, d)| *d)
                .collect();
            observed == &json!(fill_by(rows.to_vec(), x, y, &steps))
        })
        .map(|(name, _)| *name)
        .collect();
    match fits.as_slice() {
        [one] => Some(one),
        _ => None,
    }
}

/// Diagonal spreading, when the observed picture is exactly an 8-neighbour fill's and the
/// reference's is not; asking the map about pixels outside it, when the map recorded it.
fn explain(m: &Mismatch<'_>) -> Option<String> {
    let got = m.observed.value.as_ref()?;
    let mut said = Vec::new();
    if let Some(first) = got["world"]["refused"]["first"].as_str() {
        said.push(format!(
            "the map recorded {first}: FillRegion must ask OutsidePixelBounds(pt) first and \
             return when it is true, before GetPixelState or SetPixelState touch pt"
        ));
    }
    let RunInput::Call { args, .. } = crate::problems::run_input(&JUDGE, m.case).ok()? else {
        return None;
    };
    let (x, y) = point(args.first()).ok()?;
    let rows = parse_picture(args.get(1)).ok()?;
    let expected = match &m.expected.outcome {
        crate::problems::RefOutcome::Returns(v) => v.get("picture"),
        crate::problems::RefOutcome::Diverges => None,
    };
    let observed = got.get("picture");
    if let Some(gone) = observed
        .filter(|o| Some(*o) != expected)
        .and_then(|o| direction_forgotten(&rows, x, y, o))
    {
        said.push(format!(
            "your picture is exactly what a fill that never goes {gone} leaves: the white \
             pixels reached only by a step {gone} stay white. Try all four neighbours, north, \
             east, south and west"
        ));
    }
    if observed.is_some()
        && observed != expected
        && observed == Some(&json!(eight_neighbour_fill(rows, x, y)))
    {
        said.push(
            "your picture is exactly what a fill that also spreads diagonally leaves: the \
             paint leaks between two black pixels that touch only at a corner. Spread to the \
             four neighbours north, east, south and west only"
                .into(),
        );
    }
    (!said.is_empty()).then(|| said.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fill that never goes west leaves white what lies only west of the start; a right
    /// fill, or one wrong another way, is never taken for it.
    #[test]
    fn a_forgotten_direction_is_named_from_the_picture_alone() {
        let rows = parse_picture(Some(&json!(["....", ".##.", "...."]))).unwrap();
        let no_west = json!(["...#", ".###", "...#"]);
        assert_eq!(direction_forgotten(&rows, 3, 0, &no_west), Some("west"));
        let right = json!(fill_by(
            rows.clone(),
            3,
            0,
            &[(0, -1), (1, 0), (0, 1), (-1, 0)]
        ));
        assert_eq!(right, json!(["####", "####", "####"]));
        assert_eq!(direction_forgotten(&rows, 3, 0, &right), None);
        assert_eq!(
            direction_forgotten(&rows, 3, 0, &json!(["...#", ".##.", "...."])),
            None
        );
    }

    #[test]
    fn diagonal_fill_leaks_through_corners() {
        // (1, 1) touches (0, 2) and (2, 0) only at corners: four neighbours stay in the
        // corner, eight leak through to everything white.
        let rows = parse_picture(Some(&json!(["..#.", ".#..", "#..."]))).unwrap();
        assert_eq!(eight_neighbour_fill(rows, 0, 0), ["####", "####", "####"]);
        let rows = parse_picture(Some(&json!(["..#.", "###.", "...."]))).unwrap();
        assert_eq!(eight_neighbour_fill(rows, 0, 0), ["###.", "###.", "...."]);
        assert!(parse_picture(Some(&json!(["..", "."]))).is_err());
        assert!(parse_picture(Some(&json!(["ab"]))).is_err());
    }

    #[test]
    fn the_map_refuses_pixels_outside_it_and_says_which() {
        let mut w = pixel_map(&[], &[json!(["..", ".#"])], None).unwrap();
        assert_eq!(w.answer(0, &[1, 1]), BLACK);
        assert_eq!(w.answer(2, &[2, 0]), 1);
        assert!(w.refused().is_none());
        assert_eq!(w.answer(0, &[-1, 0]), BLACK);
        w.answer(1, &[0, 5, 1]);
        let (n, first) = w.refused().unwrap();
        assert_eq!(n, 2);
        assert_eq!(first, "GetPixelState((-1, 0)): outside the 2 x 2 pixel map");
        w.answer(1, &[0, 0, 1]);
        assert_eq!(w.state(), json!(["#.", ".#"]));
    }
}
