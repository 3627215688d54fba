//! Instant Insanity (seed 000, exercise 9): four cubes, each face red, green, blue or
//! white; line them up so that each of the line's four long sides shows four colors.
//!
//! A cube is six colors in the order front, top, back, bottom, left, right: lined up from
//! left to right, front, top, back and bottom are the four sides anyone sees, and left and
//! right face the neighbours. The backtracking places the cubes one by one, trying each of
//! a cube's 24 orientations in the order [`orientations`] lists them, and keeps an
//! orientation when no side so far shows a color twice. Any arrangement that works is a
//! solution; the order only decides which one is found first.

use crate::kit::Probe;

/// A cube's faces: front, top, back, bottom, left, right.
pub type Cube = [u8; 6];

/// Turn a quarter about the left-right axis: the front goes to the top.
fn roll(c: &Cube) -> Cube {
    [c[3], c[0], c[1], c[2], c[4], c[5]]
}

/// Turn a quarter about the top-bottom axis: the front goes to the right.
fn yaw(c: &Cube) -> Cube {
    [c[4], c[1], c[5], c[3], c[2], c[0]]
}

/// The 24 orientations as face permutations (`oriented[i] = cube[p[i]]`), in the order a
/// breadth-first walk of quarter turns (a roll, then a yaw) reaches them from the cube as
/// given, which comes first.
pub fn orientations() -> Vec<[usize; 6]> {
    let mut out: Vec<Cube> = vec![[0, 1, 2, 3, 4, 5]];
    let mut next = 0;
    while next < out.len() {
        let c = out[next];
        for turned in [roll(&c), yaw(&c)] {
            if !out.contains(&turned) {
                out.push(turned);
            }
        }
        next += 1;
    }
    out.into_iter().map(|c| c.map(usize::from)).collect()
}

/// `cube` turned by orientation `p`.
pub fn orient(cube: &Cube, p: &[usize; 6]) -> Cube {
    std::array::from_fn(|i| cube[p[i]])
}

/// True when no side of `line` shows a color twice.
pub fn sides_differ(line: &[Cube]) -> bool {
    (0..4).all(|side| {
        let mut seen = Vec::new();
        line.iter().all(|c| {
            let fresh = !seen.contains(&c[side]);
            seen.push(c[side]);
            fresh
        })
    })
}

/// `SolveInsanity(cubes)`: on success the cubes are left turned into a solution.
pub fn solve(probe: &mut dyn Probe, cubes: &mut [Cube; 4]) -> bool {
    let all = orientations();
    let original = *cubes;
    place(probe, cubes, &original, &all, 0)
}

fn place(
    probe: &mut dyn Probe,
    cubes: &mut [Cube; 4],
    original: &[Cube; 4],
    all: &[[usize; 6]],
    k: usize,
) -> bool {
    probe.enter("SolveInsanity", format_args!("{k}"));
    let found = k == 4
        || all.iter().any(|p| {
            cubes[k] = orient(&original[k], p);
            sides_differ(&cubes[..=k]) && place(probe, cubes, original, all, k + 1)
        });
    if !found {
        cubes[k.min(3)] = original[k.min(3)];
    }
    probe.exit("SolveInsanity");
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::{Silent, Tally};

    fn cubes(rows: [&str; 4]) -> [Cube; 4] {
        rows.map(|r| r.as_bytes().try_into().unwrap())
    }

    #[test]
    fn there_are_24_distinct_rotations_and_they_keep_opposite_faces_opposite() {
        let all = orientations();
        let mut distinct = all.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), 24);
        for p in &all {
            // Opposite pairs (0,2), (1,3), (4,5) stay opposite.
            for (a, b) in [(0, 2), (1, 3), (4, 5)] {
                let pair = [p[a], p[b]];
                assert!(
                    [[0, 2], [2, 0], [1, 3], [3, 1], [4, 5], [5, 4]].contains(&pair),
                    "{p:?}"
                );
            }
        }
    }

    #[test]
    fn the_commercial_set_and_the_books_set_are_solved_and_two_sets_are_not() {
        for set in [
            ["GBRWWR", "BRWBWG", "WGGRBB", "RWBGRR"],
            ["BGWGBR", "GRWGWB", "WWRGRB", "RBGWRR"],
        ] {
            let mut c = cubes(set);
            assert!(solve(&mut Silent, &mut c), "{set:?}");
            assert!(sides_differ(&c));
            for (got, was) in c.iter().zip(cubes(set)) {
                assert!(orientations().iter().any(|p| &orient(&was, p) == got));
            }
        }
        for set in [
            ["WWRWGB", "WRBRBG", "WRBRGB", "WRBGGR"],
            ["RBWBRG", "GRBRWG", "GRBRWG", "RGWGBR"],
        ] {
            let mut c = cubes(set);
            let mut t = Tally::new(0);
            assert!(!solve(&mut t, &mut c), "{set:?}");
            assert_eq!(c, cubes(set), "the cubes are left as they were");
            assert!(t.calls_of("SolveInsanity") > 1);
        }
    }

    /// The search agrees with brute force over all 24^4 arrangements on random sets.
    #[test]
    fn solvable_exactly_when_some_arrangement_works() {
        let all = orientations();
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..40 {
            let set: [Cube; 4] =
                std::array::from_fn(|_| std::array::from_fn(|_| b"RGBW"[(next() % 4) as usize]));
            let brute = all.iter().any(|a| {
                all.iter().any(|b| {
                    all.iter().any(|c| {
                        all.iter().any(|d| {
                            sides_differ(&[
                                orient(&set[0], a),
                                orient(&set[1], b),
                                orient(&set[2], c),
                                orient(&set[3], d),
                            ])
                        })
                    })
                })
            });
            let mut s = set;
            assert_eq!(solve(&mut Silent, &mut s), brute, "{set:?}");
        }
    }
}
