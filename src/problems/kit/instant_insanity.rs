//! Instant Insanity (seed 000, exercise 9) through the kit: `SolveInsanity(cubes)` turns
//! four cubes in place so that each long side of the line shows four colors. Any working
//! arrangement is accepted: the checker verifies that each cube was only turned and that
//! no side repeats a color, and that a set is called unsolvable only when it is.

use labgrade_reference::instant_insanity::{self as reference, Cube};
use labgrade_reference::kit::Tally;
use serde_json::{json, Map, Value};

use super::{CheckCall, KitAbi, KitProblem, RefCall, RefRun};

/// Steps of the reference's trace kept.
const TRACE_KEEP: usize = 4096;

/// The sides anyone sees, by their index in a cube's faces.
const SIDES: [&str; 4] = ["front", "top", "back", "bottom"];

/// The child's side.
pub static ABI: KitAbi = KitAbi::new(
    "instant-insanity",
    include_str!("../../../specs/instant-insanity.toml"),
    None,
);

/// The grader's side.
pub static PROBLEM: KitProblem = problem();

/// The same without its solver (the student bundle's checker, see `crate::student`).
pub static JUDGE: KitProblem = problem().judge_only();

const fn problem() -> KitProblem {
    KitProblem::new(&ABI, run_reference).with_checker(|c| Ok(check(c)?))
}

/// Four cubes from a value (four strings of six colors).
fn cubes_of(v: &Value) -> Option<[Cube; 4]> {
    let rows = v.as_array().filter(|r| r.len() == 4)?;
    let mut out = [[0u8; 6]; 4];
    for (i, row) in rows.iter().enumerate() {
        out[i] = row.as_str()?.as_bytes().try_into().ok()?;
    }
    Some(out)
}

fn shown(cubes: &[Cube; 4]) -> Value {
    json!(cubes
        .iter()
        .map(|c| String::from_utf8_lossy(c))
        .collect::<Vec<_>>())
}

fn run_reference(c: RefCall<'_>) -> Result<RefRun, String> {
    let mut cubes = c.args.first().and_then(cubes_of).ok_or(
        "cubes must be four strings of six colors (front, top, back, bottom, left, right)",
    )?;
    let mut tally = Tally::new(TRACE_KEEP);
    let found = reference::solve(&mut tally, &mut cubes);
    let mut value = Map::new();
    value.insert("return".into(), json!(found));
    value.insert("cubes".into(), shown(&cubes));
    Ok(RefRun {
        value: Some(value),
        tally,
        stdout: None,
    })
}

/// A cube's three pairs of opposite faces (front and back, top and bottom, left and right),
/// each pair's colors sorted, the pairs sorted.
fn opposite_pairs(c: &Cube) -> [[u8; 2]; 3] {
    let mut pairs = [(0, 2), (1, 3), (4, 5)].map(|(a, b)| {
        let mut p = [c[a], c[b]];
        p.sort_unstable();
        p
    });
    pairs.sort_unstable();
    pairs
}

/// Why `is` is not a turn of `was`, from what it keeps: other colors, a broken pair of
/// opposite faces, or (every pair intact) the mirror image of a turn, which only swapping the
/// two faces of a pair makes.
fn why_not_a_turn(was: &Cube, is: &Cube) -> String {
    let (mut a, mut b) = (*was, *is);
    a.sort_unstable();
    b.sort_unstable();
    if a != b {
        return "its faces are not the given cube's colors".into();
    }
    if opposite_pairs(was) != opposite_pairs(is) {
        return "a turn keeps opposite faces opposite".into();
    }
    "every pair of opposite faces is intact, but it is a mirror image: a turn of the given \
     cube with the two faces of one pair swapped, which no turn can do"
        .into()
}

/// Any solution is right; "no solution" only when there is none, with the cubes as given.
fn check(c: &CheckCall<'_>) -> Result<String, String> {
    let given = c
        .args
        .first()
        .and_then(cubes_of)
        .ok_or("labgrade could not read the case")?;
    let solvable = c.expected.get("return") == Some(&json!(true));
    let said = c
        .got
        .get("return")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let got = c.got.get("cubes").and_then(cubes_of);
    match (solvable, said) {
        (false, true) => {
            return Err("SolveInsanity returned true, but these cubes have no solution".into())
        }
        (true, false) => {
            return Err("SolveInsanity returned false, but these cubes can be lined up".into())
        }
        (false, false) => {
            return if got == Some(given) {
                Ok(String::new())
            } else {
                Err(
                    "SolveInsanity returned false (right: there is no solution) but left the \
                     cubes turned: give them back as they were"
                        .into(),
                )
            };
        }
        (true, true) => {}
    }
    let got = got.ok_or("labgrade could not read the cubes your SolveInsanity left")?;
    let all = reference::orientations();
    for (i, (was, is)) in given.iter().zip(&got).enumerate() {
        if !all.iter().any(|p| &reference::orient(was, p) == is) {
            return Err(format!(
                "cube {} is {}, which is not a turn of the cube you were given ({}): {}",
                i + 1,
                String::from_utf8_lossy(is),
                String::from_utf8_lossy(was),
                why_not_a_turn(was, is)
            ));
        }
    }
    for (side, name) in SIDES.iter().enumerate() {
        for a in 0..4 {
            if let Some(b) = (a + 1..4).find(|&b| got[a][side] == got[b][side]) {
                return Err(format!(
                    "the {name} side shows {} twice (cubes {} and {})",
                    got[a][side] as char,
                    a + 1,
                    b + 1
                ));
            }
        }
    }
    Ok(if c.expected.get("cubes") == c.got.get("cubes") {
        String::new()
    } else {
        "a different arrangement from the reference's, and a right one".into()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cube(s: &str) -> Cube {
        s.as_bytes().try_into().unwrap()
    }

    #[test]
    fn a_cube_that_is_no_turn_is_told_why() {
        let was = cube("RRGBBG");
        // generated 1's cube 2 under a spin that mirrors: every pair intact.
        assert!(why_not_a_turn(&was, &cube("GBRGBR")).contains("mirror image"));
        // Front, top and back cycled, the bottom left: a pair broken.
        assert_eq!(
            why_not_a_turn(&cube("BGBWRG"), &cube("BWGBGR")),
            "a turn keeps opposite faces opposite"
        );
        assert!(why_not_a_turn(&was, &cube("RRGBBW")).contains("not the given cube's colors"));
        // A real turn is no mirror image: every turn of the cube keeps its pairs and is one.
        for p in reference::orientations() {
            let turned = reference::orient(&was, &p);
            assert_eq!(opposite_pairs(&turned), opposite_pairs(&was));
        }
    }
}
