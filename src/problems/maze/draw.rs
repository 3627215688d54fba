//! Terminal drawings of a maze with marks: the student's beside the reference's.
//!
//! A drawing is the map itself (the format `ReadMazeMap` reads, so it reads like the
//! assignment's own files) with `*` in each marked square and `S` at the start. Two
//! drawings go side by side when they fit in the report's 80 columns, one above the other when not, and
//! not at all for mazes larger than [`MAX_W`] x [`MAX_H`] (the message names the squares
//! instead).

use labgrade_reference::maze::{Maze, Point};
use serde_json::Value;

use super::world::hex_to_marks;
use super::Reference;

/// Widest maze drawn (squares): 71 columns, within the report's 80 after its indents.
pub const MAX_W: usize = 35;
/// Tallest maze drawn (squares).
pub const MAX_H: usize = 30;

/// The map with `*` in every square of `marks` (row-major from (0, 0)).
pub fn drawing(maze: &Maze, marks: &[bool]) -> Vec<String> {
    let w = maze.width();
    maze.render_with(|p| {
        let i = p.y as usize * w + p.x as usize;
        (marks.get(i) == Some(&true) && p != maze.start()).then_some('*')
    })
    .lines()
    .map(str::to_string)
    .collect()
}

/// Two drawings with titles, side by side or stacked; None when the maze is too large.
pub fn side_by_side(maze: &Maze, left: (&str, &[bool]), right: (&str, &[bool])) -> Option<String> {
    if maze.width() > MAX_W || maze.height() > MAX_H {
        return None;
    }
    let a = drawing(maze, left.1);
    let b = drawing(maze, right.1);
    let col = 2 * maze.width() + 1;
    let mut out = String::new();
    // Within the report's 80 columns, after its four spaces of indent.
    if 2 * col + 4 <= crate::columns::WIDTH - 8 {
        out.push_str(&format!("{:<col$}    {}\n", left.0, right.0));
        for (x, y) in a.iter().zip(&b) {
            out.push_str(&format!("{x:<col$}    {y}\n"));
        }
    } else {
        for (title, d) in [(left.0, &a), (right.0, &b)] {
            out.push_str(title);
            out.push('\n');
            for l in d {
                out.push_str(l);
                out.push('\n');
            }
        }
    }
    // Four spaces make the lines preformatted for the terminal report (and Markdown).
    Some(
        out.trim_end()
            .lines()
            .map(|l| format!("    {}", l.trim_end()))
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

fn marks_of(v: &Value, n: usize) -> Vec<bool> {
    hex_to_marks(v.get("marks").and_then(Value::as_str).unwrap_or(""), n)
}

/// The reference's marks at the end beside the submission's.
pub fn marks_side_by_side(r: &Reference, exp: &Value, got: &Value) -> Option<String> {
    let maze = r.inst.maze.as_ref().ok()?;
    let n = maze.width() * maze.height();
    side_by_side(
        maze,
        ("the reference's marks", &marks_of(exp, n)),
        ("yours", &marks_of(got, n)),
    )
}

/// Squares of a path inside the maze, as marks.
pub fn path_marks(maze: &Maze, path: &[Point]) -> Vec<bool> {
    let mut m = vec![false; maze.width() * maze.height()];
    for p in path {
        if let Some(i) = maze.index(*p) {
            m[i] = true;
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_drawings_side_by_side() {
        let maze = Maze::parse("+-+-+\n|S  \n+-+-+\n").unwrap();
        let d = side_by_side(&maze, ("ref", &[true, true]), ("yours", &[true, false])).unwrap();
        assert_eq!(
            d,
            "    ref      yours\n    +-+-+    +-+-+\n    |S *     |S\n    +-+-+    +-+-+"
        );
    }
}
