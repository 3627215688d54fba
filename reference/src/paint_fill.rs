//! Roberts' paint-bucket tool (seed 000, chapter 7, exercise 6): `FillRegion(pt)` paints `pt`
//! black and spreads through white pixels to its four neighbours.
//!
//! The exercise leaves the shape of the recursion open; labgrade's header fixes it as
//! SolveMaze (Figure 6-3) is written, because calls, depth and the calls into the pixel map
//! are graded: on entry, return if `OutsidePixelBounds(pt)`, then if `GetPixelState(pt)` is
//! BLACK; else `SetPixelState(pt, BLACK)` and recurse north (y - 1), east, south, west, the
//! order of the book's `directionT`.

use crate::kit::Probe;

/// `WHITE`, 0 in `pixelStateT`.
pub const WHITE: i64 = 0;
/// `BLACK`, 1 in `pixelStateT`.
pub const BLACK: i64 = 1;

/// The three functions the exercise grants, as labgrade's pixel map answers them.
pub trait PixelMap {
    /// `GetPixelState(pt)`.
    fn get(&mut self, x: i32, y: i32) -> i64;
    /// `SetPixelState(pt, state)`.
    fn set(&mut self, x: i32, y: i32, state: i64);
    /// `OutsidePixelBounds(pt)`.
    fn outside(&mut self, x: i32, y: i32) -> bool;
}

/// The neighbours in the order they are filled: north, east, south, west.
pub const NEIGHBOURS: [(i32, i32); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];

/// `FillRegion(pt)`. Recurses once per pixel it paints, so a region of k pixels needs k
/// frames of stack at worst: callers give it a stack to match.
pub fn fill_region(probe: &mut dyn Probe, map: &mut dyn PixelMap, x: i32, y: i32) {
    probe.enter("FillRegion", format_args!("({x}, {y})"));
    if !map.outside(x, y) && map.get(x, y) != BLACK {
        map.set(x, y, BLACK);
        for (dx, dy) in NEIGHBOURS {
            fill_region(probe, map, x + dx, y + dy);
        }
    }
    probe.exit("FillRegion");
}

/// A picture in memory (true is black), for tests and for those who want only the answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picture(pub Vec<Vec<bool>>);

impl Picture {
    /// From rows of `#` (black) and `.` (white).
    pub fn parse(rows: &[&str]) -> Picture {
        Picture(
            rows.iter()
                .map(|r| r.chars().map(|c| c == '#').collect())
                .collect(),
        )
    }

    /// Rows of `#` and `.`.
    pub fn rows(&self) -> Vec<String> {
        self.0
            .iter()
            .map(|r| r.iter().map(|&b| if b { '#' } else { '.' }).collect())
            .collect()
    }

    fn cell(&mut self, x: i32, y: i32) -> Option<&mut bool> {
        let y = usize::try_from(y).ok()?;
        let x = usize::try_from(x).ok()?;
        self.0.get_mut(y)?.get_mut(x)
    }
}

impl PixelMap for Picture {
    fn get(&mut self, x: i32, y: i32) -> i64 {
        self.cell(x, y).map_or(BLACK, |b| i64::from(*b))
    }

    fn set(&mut self, x: i32, y: i32, state: i64) {
        if let Some(b) = self.cell(x, y) {
            *b = state == BLACK;
        }
    }

    fn outside(&mut self, x: i32, y: i32) -> bool {
        self.cell(x, y).is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::{Silent, Tally};

    /// The region by breadth-first search over a queue: an independent answer.
    fn bfs_fill(p: &Picture, x: i32, y: i32, steps: &[(i32, i32)]) -> Picture {
        let mut out = p.clone();
        let mut queue = std::collections::VecDeque::from([(x, y)]);
        while let Some((x, y)) = queue.pop_front() {
            match out.cell(x, y) {
                Some(b) if !*b => *b = true,
                _ => continue,
            }
            queue.extend(steps.iter().map(|(dx, dy)| (x + dx, y + dy)));
        }
        out
    }

    fn house() -> Picture {
        Picture::parse(&[
            "#########",
            "#...#...#",
            "#...#...#",
            "#####...#",
            "#...#.#.#",
            "#########",
        ])
    }

    #[test]
    fn fills_the_region_and_nothing_through_lines() {
        let mut p = house();
        fill_region(&mut Silent, &mut p, 1, 1);
        assert_eq!(
            p.rows(),
            [
                "#########",
                "#####...#",
                "#####...#",
                "#####...#",
                "#...#.#.#",
                "#########"
            ]
        );
        let mut same = p.clone();
        fill_region(&mut Silent, &mut same, 0, 0); // a black pixel: nothing changes
        assert_eq!(same, p);
    }

    #[test]
    fn agrees_with_breadth_first_search_on_pseudo_random_pictures() {
        let mut seed = 12345u64;
        for _ in 0..200 {
            let p = Picture(
                (0..9)
                    .map(|_| {
                        (0..11)
                            .map(|_| {
                                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                                (seed >> 33) % 3 == 0
                            })
                            .collect()
                    })
                    .collect(),
            );
            let mut t = Tally::new(0);
            let mut got = p.clone();
            fill_region(&mut t, &mut got, 4, 5);
            assert_eq!(got, bfs_fill(&p, 4, 5, &NEIGHBOURS));
            // One call per painted pixel, plus four for each (its neighbours), plus the first.
            let painted = got.0.iter().flatten().filter(|b| **b).count()
                - p.0.iter().flatten().filter(|b| **b).count();
            assert_eq!(t.calls_of("FillRegion"), 1 + 4 * painted as u64);
        }
    }

    #[test]
    fn an_open_strip_recurses_once_per_pixel() {
        let mut p = Picture::parse(&[".........."]);
        let mut t = Tally::new(0);
        fill_region(&mut t, &mut p, 0, 0);
        // East along the strip, then the east neighbour of the last pixel (outside).
        assert_eq!(t.max_depth["FillRegion"], 11);
        assert_eq!(t.calls_of("FillRegion"), 41);
    }
}
