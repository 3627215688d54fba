//! The book's maze map format, read as `ReadMazeMap` reads it (Figure 7-2's comment).
//!
//! `+` corners, `-` and `|` walls, spaces for open passages, `S` the start. A maze of W
//! columns and H rows is 2H + 1 lines of 2W + 1 characters; cell (x, y) sits at line
//! 2(H - 1 - y) + 1, column 2x + 1 (counting from 0), so (0, 0) is the lower-left cell and
//! North is y + 1. An opening in the outer wall is an exit.
//!
//! Text editors strip trailing spaces, so a line may be one character short: the missing
//! character is a space (an opening in the east wall, or a missing corner). What is an error,
//! reported as Roberts' `Error` would (one message, nothing read):
//!
//! - no line, an even number of lines, or lines of an even length (not 2H + 1 by 2W + 1);
//! - ragged lines: a line more than one character shorter than the longest, which is the
//!   width of the maze;
//! - a character that is not `+`, `-`, `|`, a space or `S`, or one in the wrong place (`S` on
//!   a wall, `|` where a horizontal wall belongs, `-` where a vertical one does);
//! - no start square, or more than one.

use super::{Direction, Point};

/// Why a map is not a maze.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MapError {
    /// Nothing but blank lines.
    Empty,
    /// The number of lines is not 2H + 1 (H >= 1).
    LineCount {
        /// Lines read.
        lines: usize,
    },
    /// The longest line has an even length (not 2W + 1).
    EvenWidth {
        /// Its length.
        len: usize,
    },
    /// A line more than one character shorter than the longest.
    Ragged {
        /// 1-based line number.
        line: usize,
        /// Its length.
        len: usize,
        /// The maze's width in characters.
        width: usize,
    },
    /// A character that has no meaning (or none at its place).
    BadCharacter {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The character.
        ch: char,
        /// What belongs there.
        expected: &'static str,
    },
    /// No `S`.
    NoStart,
    /// More than one `S`.
    TwoStarts {
        /// The first start.
        first: Point,
        /// The second.
        second: Point,
    },
}

impl std::fmt::Display for MapError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MapError::Empty => write!(f, "the maze file is empty"),
            MapError::LineCount { lines } => write!(
                f,
                "the maze file has {lines} lines: a maze of H rows takes 2H + 1 (an odd number, \
                 at least 3)"
            ),
            MapError::EvenWidth { len } => write!(
                f,
                "the longest line has {len} characters: a maze of W columns takes 2W + 1 (an \
                 odd number, at least 3)"
            ),
            MapError::Ragged { line, len, width } => write!(
                f,
                "ragged lines: line {line} has {len} characters where the maze is {width} wide \
                 (a line may be one character short, an opening at its east end, no more)"
            ),
            MapError::BadCharacter {
                line,
                column,
                ch,
                expected,
            } => write!(
                f,
                "illegal character {ch:?} at line {line}, column {column} (expected {expected})"
            ),
            MapError::NoStart => write!(f, "the maze has no start square (no `S`)"),
            MapError::TwoStarts { first, second } => write!(
                f,
                "the maze has more than one start square: {first} and {second}"
            ),
        }
    }
}

impl std::error::Error for MapError {}

/// A maze: its size, walls and start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Maze {
    width: usize,
    height: usize,
    start: Point,
    /// Horizontal walls: `(H + 1) * W`, row k is the wall south of cell row k (k = H: the
    /// north border).
    h: Vec<bool>,
    /// Vertical walls: `H * (W + 1)`, column j is the wall west of cell column j (j = W: the
    /// east border).
    v: Vec<bool>,
}

impl Maze {
    /// A `width` x `height` maze with every wall standing and the start at `start`.
    pub fn walled(width: usize, height: usize, start: Point) -> Maze {
        Maze {
            width,
            height,
            start,
            h: vec![true; (height + 1) * width],
            v: vec![true; height * (width + 1)],
        }
    }

    /// Columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// `GetStartPosition()`.
    pub fn start(&self) -> Point {
        self.start
    }

    /// Moves the start.
    pub fn set_start(&mut self, start: Point) {
        self.start = start;
    }

    /// `OutsideMaze(pt)`.
    pub fn outside(&self, pt: Point) -> bool {
        pt.x < 0 || pt.y < 0 || pt.x as usize >= self.width || pt.y as usize >= self.height
    }

    /// Index of a square inside the maze (row-major from (0, 0)).
    pub fn index(&self, pt: Point) -> Option<usize> {
        (!self.outside(pt)).then(|| pt.y as usize * self.width + pt.x as usize)
    }

    fn slot(&self, pt: Point, dir: Direction) -> Option<(bool, usize)> {
        if self.outside(pt) {
            return None;
        }
        let (x, y, w) = (pt.x as usize, pt.y as usize, self.width);
        Some(match dir {
            Direction::North => (true, (y + 1) * w + x),
            Direction::South => (true, y * w + x),
            Direction::East => (false, y * (w + 1) + x + 1),
            Direction::West => (false, y * (w + 1) + x),
        })
    }

    /// `WallExists(pt, dir)` for a square inside the maze (true for any point outside it).
    pub fn wall(&self, pt: Point, dir: Direction) -> bool {
        match self.slot(pt, dir) {
            Some((true, i)) => self.h[i],
            Some((false, i)) => self.v[i],
            None => true,
        }
    }

    /// Builds or removes the wall on side `dir` of `pt` (inside the maze).
    pub fn set_wall(&mut self, pt: Point, dir: Direction, wall: bool) {
        match self.slot(pt, dir) {
            Some((true, i)) => self.h[i] = wall,
            Some((false, i)) => self.v[i] = wall,
            None => {}
        }
    }

    /// Openings in the outer wall: (border square, direction out), the south border first,
    /// then the east, north and west ones.
    pub fn exits(&self) -> Vec<(Point, Direction)> {
        let (w, h) = (self.width as i32, self.height as i32);
        let mut v = Vec::new();
        let mut add = |p: Point, d: Direction| {
            if !self.wall(p, d) {
                v.push((p, d));
            }
        };
        for x in 0..w {
            add(Point::new(x, 0), Direction::South);
        }
        for y in 0..h {
            add(Point::new(w - 1, y), Direction::East);
        }
        for x in 0..w {
            add(Point::new(x, h - 1), Direction::North);
        }
        for y in 0..h {
            add(Point::new(0, y), Direction::West);
        }
        v
    }

    /// Reads a map (the text of a maze file).
    pub fn parse(text: &str) -> Result<Maze, MapError> {
        let mut lines: Vec<&str> = text
            .split('\n')
            .map(|l| l.strip_suffix('\r').unwrap_or(l))
            .collect();
        while lines.last().is_some_and(|l| l.trim().is_empty()) {
            lines.pop();
        }
        if lines.is_empty() {
            return Err(MapError::Empty);
        }
        let n = lines.len();
        if n < 3 || n % 2 == 0 {
            return Err(MapError::LineCount { lines: n });
        }
        let rows: Vec<Vec<char>> = lines.iter().map(|l| l.chars().collect()).collect();
        let width_chars = rows.iter().map(Vec::len).max().unwrap_or(0);
        if width_chars < 3 || width_chars % 2 == 0 {
            return Err(MapError::EvenWidth { len: width_chars });
        }
        for (i, r) in rows.iter().enumerate() {
            if r.len() + 1 < width_chars {
                return Err(MapError::Ragged {
                    line: i + 1,
                    len: r.len(),
                    width: width_chars,
                });
            }
        }
        let (w, h) = ((width_chars - 1) / 2, (n - 1) / 2);
        let mut maze = Maze::walled(w, h, Point::default());
        let mut start: Option<Point> = None;
        for (r, row) in rows.iter().enumerate() {
            for c in 0..width_chars {
                let ch = row.get(c).copied().unwrap_or(' ');
                let bad = |expected: &'static str| MapError::BadCharacter {
                    line: r + 1,
                    column: c + 1,
                    ch,
                    expected,
                };
                if !matches!(ch, '+' | '-' | '|' | ' ' | 'S') {
                    return Err(bad("one of `+`, `-`, `|`, a space or `S`"));
                }
                match (r % 2, c % 2) {
                    (0, 0) => {
                        if ch == 'S' {
                            return Err(bad("a corner: `+` (or a space)"));
                        }
                    }
                    (0, _) => {
                        let k = h - r / 2;
                        match ch {
                            '-' => {}
                            ' ' => maze.h[k * w + c / 2] = false,
                            _ => return Err(bad("a horizontal wall `-` or an opening")),
                        }
                    }
                    (_, 0) => {
                        let y = h - 1 - r / 2;
                        match ch {
                            '|' => {}
                            ' ' => maze.v[y * (w + 1) + c / 2] = false,
                            _ => return Err(bad("a vertical wall `|` or an opening")),
                        }
                    }
                    _ => {
                        let p = Point::new((c / 2) as i32, (h - 1 - r / 2) as i32);
                        match ch {
                            ' ' => {}
                            'S' => {
                                if let Some(first) = start {
                                    return Err(MapError::TwoStarts { first, second: p });
                                }
                                start = Some(p);
                            }
                            _ => return Err(bad("a square: a space or `S`")),
                        }
                    }
                }
            }
        }
        maze.start = start.ok_or(MapError::NoStart)?;
        Ok(maze)
    }

    /// The map text, every line full length, `S` at the start; `cell` may draw another
    /// character in a square (a mark).
    pub fn render_with(&self, cell: impl Fn(Point) -> Option<char>) -> String {
        let (w, h) = (self.width, self.height);
        let mut out = String::with_capacity((2 * w + 2) * (2 * h + 1));
        for r in 0..=2 * h {
            for c in 0..=2 * w {
                let ch = match (r % 2, c % 2) {
                    (0, 0) => '+',
                    (0, _) => {
                        if self.h[(h - r / 2) * w + c / 2] {
                            '-'
                        } else {
                            ' '
                        }
                    }
                    (_, 0) => {
                        if self.v[(h - 1 - r / 2) * (w + 1) + c / 2] {
                            '|'
                        } else {
                            ' '
                        }
                    }
                    _ => {
                        let p = Point::new((c / 2) as i32, (h - 1 - r / 2) as i32);
                        match cell(p) {
                            Some(ch) => ch,
                            None if p == self.start => 'S',
                            None => ' ',
                        }
                    }
                };
                out.push(ch);
            }
            out.push('\n');
        }
        out
    }

    /// The map text (what `ReadMazeMap` reads back into this maze).
    pub fn render(&self) -> String {
        self.render_with(|_| None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const THREE_BY_TWO: &str = "\
+-+-+-+
|S    |
+ +-+ +
|   | 
+-+-+-+
";

    #[test]
    fn coordinates_have_the_origin_at_the_lower_left() {
        let m = Maze::parse(THREE_BY_TWO).unwrap();
        assert_eq!((m.width(), m.height()), (3, 2));
        assert_eq!(m.start(), Point::new(0, 1));
        // Below the start is open; the wall row under (1,1) is closed.
        assert!(!m.wall(Point::new(0, 1), Direction::South));
        assert!(m.wall(Point::new(1, 1), Direction::South));
        assert!(m.wall(Point::new(1, 0), Direction::North));
        // The short last line of cells: an opening east of (2,0).
        assert!(!m.wall(Point::new(2, 0), Direction::East));
        assert_eq!(m.exits(), vec![(Point::new(2, 0), Direction::East)]);
        assert!(m.outside(Point::new(3, 0)) && m.outside(Point::new(0, -1)));
        assert!(!m.outside(Point::new(2, 1)));
        // Rendering and reading back give the same maze.
        assert_eq!(Maze::parse(&m.render()).unwrap(), m);
    }

    #[test]
    fn errors_the_book_would_raise() {
        assert_eq!(Maze::parse("\n\n"), Err(MapError::Empty));
        assert_eq!(
            Maze::parse("+-+\n| |\n+-+\n"),
            Err(MapError::NoStart),
            "no start"
        );
        assert_eq!(
            Maze::parse("+-+-+\n|S S|\n+-+-+\n"),
            Err(MapError::TwoStarts {
                first: Point::new(0, 0),
                second: Point::new(1, 0)
            })
        );
        assert!(matches!(
            Maze::parse("+-+-+-+\n|S |\n+-+-+-+\n"),
            Err(MapError::Ragged {
                line: 2,
                len: 4,
                width: 7
            })
        ));
        assert!(matches!(
            Maze::parse("+-+-+\n|S X|\n+-+-+\n"),
            Err(MapError::BadCharacter {
                line: 2,
                column: 4,
                ch: 'X',
                ..
            })
        ));
        assert!(matches!(
            Maze::parse("+-+-+\n|S| |\n+|+-+\n"),
            Err(MapError::BadCharacter {
                line: 3,
                column: 2,
                ch: '|',
                ..
            })
        ));
        assert!(matches!(
            Maze::parse("+-+-+\n|S  |\n+-+-+\n+-+-+\n"),
            Err(MapError::LineCount { lines: 4 })
        ));
        let e = Maze::parse("+-+-+\n|S S|\n+-+-+\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("more than one start square: (0, 0) and (1, 0)"),
            "{e}"
        );
    }
}
