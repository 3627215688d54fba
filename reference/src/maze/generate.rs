//! Seeded mazes: perfect ones (a spanning tree of the grid, "recursive backtracker"),
//! with loops, with several exits, and unsolvable ones.
//!
//! A fixture (and `labgrade maze`) names the parameters; labgrade builds the same maze from
//! them in the grader and in the sandboxed child, so the generator is part of the fixtures'
//! meaning: change it and every generated case changes. Randomness is SplitMix64, the same
//! on every platform.
//!
//! The order of draws: the start square; the tree, carved from the start by an iterative
//! depth-first walk that picks a random unvisited neighbour; the exits (random openings in
//! the outer wall); for an unsolvable maze, the tree edge on the path from the start to the
//! first exit nearest the start is walled up, splitting the tree in two; then `loops` random
//! inner walls are removed, each between two squares of the same part (so a sealed maze
//! stays sealed).

use std::collections::VecDeque;

use super::{Direction, Maze, Point};
use crate::turnpike::SplitMix64;

/// What to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Params {
    /// The seed.
    pub seed: u64,
    /// Columns (at least 1).
    pub width: usize,
    /// Rows (at least 1).
    pub height: usize,
    /// Inner walls removed after the tree is carved (each adds a loop).
    pub loops: usize,
    /// Openings in the outer wall (0: no exit at all).
    pub exits: usize,
    /// False: wall up the start's way out, so no exit can be reached.
    pub solvable: bool,
}

impl Params {
    /// A perfect maze with one exit.
    pub fn perfect(seed: u64, width: usize, height: usize) -> Params {
        Params {
            seed,
            width,
            height,
            loops: 0,
            exits: 1,
            solvable: true,
        }
    }
}

fn below(rng: &mut SplitMix64, n: usize) -> usize {
    rng.below(n as u64) as usize
}

/// Squares reachable from `from` without crossing a wall (inside the maze).
fn component(m: &Maze, from: Point) -> Vec<Option<Point>> {
    let mut parent = vec![None; m.width() * m.height()];
    let mut seen = vec![false; parent.len()];
    let Some(i) = m.index(from) else {
        return parent;
    };
    seen[i] = true;
    let mut q = VecDeque::from([from]);
    while let Some(p) = q.pop_front() {
        for d in Direction::ALL {
            let n = p.adjacent(d);
            if m.wall(p, d) {
                continue;
            }
            if let Some(j) = m.index(n) {
                if !seen[j] {
                    seen[j] = true;
                    parent[j] = Some(p);
                    q.push_back(n);
                }
            }
        }
    }
    for (j, s) in seen.iter().enumerate() {
        if *s && parent[j].is_none() {
            parent[j] = Some(from);
        }
    }
    parent
}

/// Builds the maze `p` describes.
pub fn generate(p: &Params) -> Maze {
    let (w, h) = (p.width.max(1), p.height.max(1));
    let mut rng = SplitMix64::new(p.seed);
    let start = Point::new(below(&mut rng, w) as i32, below(&mut rng, h) as i32);
    let mut m = Maze::walled(w, h, start);
    // The tree.
    let mut visited = vec![false; w * h];
    visited[m.index(start).unwrap_or(0)] = true;
    let mut stack = vec![start];
    while let Some(&cur) = stack.last() {
        let options: Vec<Direction> = Direction::ALL
            .into_iter()
            .filter(|&d| m.index(cur.adjacent(d)).is_some_and(|i| !visited[i]))
            .collect();
        if options.is_empty() {
            stack.pop();
            continue;
        }
        let d = options[below(&mut rng, options.len())];
        let next = cur.adjacent(d);
        m.set_wall(cur, d, false);
        m.set_wall(next, d.opposite(), false);
        if let Some(i) = m.index(next) {
            visited[i] = true;
        }
        stack.push(next);
    }
    // The exits.
    let mut border: Vec<(Point, Direction)> = Vec::new();
    for x in 0..w as i32 {
        border.push((Point::new(x, 0), Direction::South));
        border.push((Point::new(x, h as i32 - 1), Direction::North));
    }
    for y in 0..h as i32 {
        border.push((Point::new(0, y), Direction::West));
        border.push((Point::new(w as i32 - 1, y), Direction::East));
    }
    let mut exits = Vec::new();
    for _ in 0..p.exits.min(border.len()) {
        let (pt, d) = border.swap_remove(below(&mut rng, border.len()));
        m.set_wall(pt, d, false);
        exits.push(pt);
    }
    // Sealed: cut the tree edge next to the exit square on its path to the start.
    if !p.solvable {
        let parent = component(&m, start);
        let first = exits
            .iter()
            .copied()
            .find(|&e| e != start && m.index(e).is_some_and(|i| parent[i].is_some()));
        match first {
            Some(e) => {
                let i = m.index(e).unwrap_or(0);
                if let Some(par) = parent[i] {
                    if let Some(d) = Direction::between(e, par) {
                        m.set_wall(e, d, true);
                        m.set_wall(par, d.opposite(), true);
                    }
                }
            }
            None => {
                // The only exit is at the start (or there is none): close the openings.
                for (pt, d) in m.exits() {
                    m.set_wall(pt, d, true);
                }
            }
        }
        // Any other exit still reachable is closed as well.
        let parent = component(&m, start);
        for (pt, d) in m.exits() {
            if m.index(pt).is_some_and(|i| parent[i].is_some()) {
                m.set_wall(pt, d, true);
            }
        }
    }
    // Loops, within the start's part or within the rest.
    let part = component(&m, start);
    let same = |a: Point, b: Point| {
        let (i, j) = (m.index(a).unwrap_or(0), m.index(b).unwrap_or(0));
        part[i].is_some() == part[j].is_some()
    };
    let mut inner: Vec<(Point, Direction)> = Vec::new();
    for y in 0..h as i32 {
        for x in 0..w as i32 {
            let pt = Point::new(x, y);
            for d in [Direction::North, Direction::East] {
                let n = pt.adjacent(d);
                if !m.outside(n) && m.wall(pt, d) && same(pt, n) {
                    inner.push((pt, d));
                }
            }
        }
    }
    for _ in 0..p.loops.min(inner.len()) {
        let (pt, d) = inner.swap_remove(below(&mut rng, inner.len()));
        m.set_wall(pt, d, false);
        m.set_wall(pt.adjacent(d), d.opposite(), false);
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::maze::{solve, with_stack, Marked, Variant};

    #[test]
    fn the_same_seed_gives_the_same_maze() {
        let a = generate(&Params::perfect(7, 12, 9));
        let b = generate(&Params::perfect(7, 12, 9));
        let c = generate(&Params::perfect(8, 12, 9));
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(a.exits().len(), 1);
        assert_eq!(Maze::parse(&a.render()).unwrap(), a);
    }

    #[test]
    fn perfect_mazes_are_solvable_and_sealed_ones_are_not() {
        for seed in 0..20 {
            let m = generate(&Params::perfect(seed, 9, 7));
            let (ok, _) = solve(&mut Marked::new(m.clone()), m.start(), Variant::Unmark, 0);
            assert!(ok, "seed {seed}");
            let mut p = Params::perfect(seed, 9, 7);
            p.solvable = false;
            p.loops = 5;
            p.exits = 2;
            let s = generate(&p);
            assert!(
                !s.exits().is_empty(),
                "seed {seed}: sealed mazes keep an exit"
            );
            let (ok, _) = solve(&mut Marked::new(s.clone()), s.start(), Variant::Unmark, 0);
            assert!(!ok, "seed {seed}");
        }
    }

    #[test]
    fn a_200_by_200_maze_recurses_deep() {
        let m = generate(&Params::perfect(42, 200, 200));
        let (ok, run) = with_stack(256, move || {
            solve(&mut Marked::new(m.clone()), m.start(), Variant::Unmark, 0)
        });
        assert!(ok);
        assert!(run.max_depth > 500, "{}", run.max_depth);
    }
}
