//! Roberts' game side (seed 000, section 7.5, Figure 7-6 and exercises 10 to 12): the games a
//! student writes the game part of, under the book's unchanged general part.
//!
//! A position here is canonical (cells and whether the first player is to move), whatever the
//! student's `stateT` looks like; a move is a short list of integers (coins taken; a row and
//! the coins taken from it; a square). labgrade reaches a student's positions only through the
//! student's own `NewGame`, `GenerateMoveList` and `MakeMove`, reads each listed move through
//! one of the [`Encoding`]s a course's `moveT` may have, and so knows which canonical position
//! every student position stands for. The judgements (is a move optimal, is a finished game
//! rated right) are made here, on the canonical game, with the full-depth value
//! ([`Rules::value`]) from the player to move's side: +1 a win, -1 a loss, 0 a draw.

use std::collections::HashMap;

use crate::nim::game::Console;

/// The eight lines of three, squares counted from 0.
use crate::lab_tictactoe::board::LINES;

/// A move: the coins taken (nim), the row (1-based) and coins taken (three rows), or the
/// square 1 to 9 (tic-tac-toe).
pub type Move = Vec<i64>;

/// A position of one of the games.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    /// Nim: `[coins]`. Exercise 11: `[coins, the mover's pile, the other pile]`. Three rows:
    /// the coins in each row. Tic-tac-toe: nine squares, 0 empty, 1 the first player's mark
    /// (X), 2 the second's (O).
    pub cells: Vec<i64>,
    /// Whether the player who moved first is to move.
    pub first_to_move: bool,
}

/// Exercise 10: 13 coins, take 1 to 3, the last coin loses.
pub const NIM: Rules = Rules::Nim {
    coins: 13,
    max_take: 3,
};

/// Exercise 11: 17 coins, take 1 to 4, an even pile wins.
pub const EVEN_PILE: Rules = Rules::EvenPile {
    coins: 17,
    max_take: 4,
};

/// The book's game of a game-side problem, by the problem's name (exercise 12 with its
/// rows of 3, 4 and 5).
pub fn of_problem(problem: &str) -> Option<Rules> {
    Some(match problem {
        "roberts-nim-game" => NIM,
        "roberts-even-nim" => EVEN_PILE,
        "roberts-three-row-nim" => Rules::Rows(vec![3, 4, 5]),
        "roberts-tictactoe-game" => Rules::TicTacToe,
        _ => return None,
    })
}

/// The games of the game side.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Rules {
    /// Exercise 10: one pile, take 1 to `max_take`, whoever takes the last coin loses.
    Nim {
        /// Coins at the start (13).
        coins: i64,
        /// The most one turn takes (3).
        max_take: i64,
    },
    /// Exercise 11: take 1 to `max_take` into your own pile; after the last coin, whoever
    /// holds an even pile wins.
    EvenPile {
        /// Coins at the start (17).
        coins: i64,
        /// The most one turn takes (4).
        max_take: i64,
    },
    /// Exercise 12: rows of coins; a move takes any number of coins from one row; whoever
    /// takes the last coin loses.
    Rows(Vec<i64>),
    /// Figure 7-6: tic-tac-toe, squares 1 to 9.
    TicTacToe,
}

/// How a student's `moveT`, read as up to four integers, maps onto a canonical move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Encoding {
    /// For each canonical field, which raw integer holds it.
    pub fields: [usize; 2],
    /// How many canonical fields there are (1 or 2).
    pub arity: usize,
    /// What is added to each raw integer to get the canonical one (a 0-based row: 1).
    pub offset: [i64; 2],
    /// Tic-tac-toe given as (row, column): the square is 3 * row + column + 1.
    pub row_col: bool,
}

impl Encoding {
    /// The canonical move `raw` stands for, when the raw integers are there.
    pub fn decode(&self, raw: &[i64]) -> Option<Move> {
        let field = |i: usize| raw.get(self.fields[i]).map(|v| v + self.offset[i]);
        if self.row_col {
            let (r, c) = (field(0)?, field(1)?);
            return ((1..=3).contains(&r) && (1..=3).contains(&c)).then(|| vec![3 * (r - 1) + c]);
        }
        (0..self.arity).map(field).collect()
    }

    /// The encoding as six integers (how labgrade's world host tells it to the child, which
    /// steps along a line by itself: see labgrade's `game_steering`).
    pub fn to_ints(&self) -> [i64; 6] {
        [
            self.fields[0] as i64,
            self.fields[1] as i64,
            self.arity as i64,
            self.offset[0],
            self.offset[1],
            i64::from(self.row_col),
        ]
    }

    /// The encoding [`Encoding::to_ints`] gave; None for integers no encoding gives.
    pub fn from_ints(ints: &[i64]) -> Option<Encoding> {
        let index = |v: i64| usize::try_from(v).ok().filter(|&i| i < 4);
        let [f0, f1, arity, o0, o1, row_col] = ints else {
            return None;
        };
        Some(Encoding {
            fields: [index(*f0)?, index(*f1)?],
            arity: usize::try_from(*arity)
                .ok()
                .filter(|a| (1..=2).contains(a))?,
            offset: [*o0, *o1],
            row_col: match row_col {
                0 => false,
                1 => true,
                _ => return None,
            },
        })
    }

    /// The encoding in words, for messages.
    pub fn describe(&self, rules: &Rules) -> String {
        let base = |i: usize| {
            if self.offset[i] == 1 {
                "from 0"
            } else {
                "from 1"
            }
        };
        match rules {
            Rules::Nim { .. } | Rules::EvenPile { .. } => {
                "a move is the number of coins taken".into()
            }
            Rules::Rows(_) => format!(
                "a move is (row counted {}, coins taken){}",
                base(0),
                if self.fields == [1, 0] {
                    ", stored coins first"
                } else {
                    ""
                }
            ),
            Rules::TicTacToe if self.row_col => {
                format!("a move is (row, column), counted {}", base(0))
            }
            Rules::TicTacToe => format!("a move is the square number, counted {}", base(0)),
        }
    }
}

/// The outcome of a finished game, or a game's value, for the player to move.
pub fn outcome_word(sign: i64) -> &'static str {
    match sign.signum() {
        1 => "a win",
        -1 => "a loss",
        _ => "a draw",
    }
}

impl Rules {
    /// Where a game starts.
    pub fn start(&self) -> Position {
        let cells = match self {
            Rules::Nim { coins, .. } => vec![*coins],
            Rules::EvenPile { coins, .. } => vec![*coins, 0, 0],
            Rules::Rows(rows) => rows.clone(),
            Rules::TicTacToe => vec![0; 9],
        };
        Position {
            cells,
            first_to_move: true,
        }
    }

    fn has_line(cells: &[i64], mark: i64) -> bool {
        LINES.iter().any(|l| l.iter().all(|&s| cells[s] == mark))
    }

    /// The mark of the player to move (tic-tac-toe).
    fn mover_mark(p: &Position) -> i64 {
        if p.first_to_move {
            1
        } else {
            2
        }
    }

    /// The most moves a game can last.
    pub fn longest_game(&self) -> i64 {
        match self {
            Rules::Nim { coins, .. } | Rules::EvenPile { coins, .. } => *coins,
            Rules::Rows(rows) => rows.iter().sum(),
            Rules::TicTacToe => 9,
        }
    }

    /// Whether the game is over.
    pub fn over(&self, p: &Position) -> bool {
        match self {
            Rules::Nim { .. } | Rules::EvenPile { .. } => p.cells[0] == 0,
            Rules::Rows(_) => p.cells.iter().all(|&c| c == 0),
            Rules::TicTacToe => {
                p.cells.iter().all(|&c| c != 0)
                    || Self::has_line(&p.cells, 1)
                    || Self::has_line(&p.cells, 2)
            }
        }
    }

    /// A finished game's outcome for the player to move: 1 won, -1 lost, 0 drawn.
    pub fn outcome(&self, p: &Position) -> i64 {
        match self {
            // The opponent took the last coin.
            Rules::Nim { .. } | Rules::Rows(_) => 1,
            Rules::EvenPile { .. } => {
                if p.cells[1] % 2 == 0 {
                    1
                } else {
                    -1
                }
            }
            Rules::TicTacToe => {
                let me = Self::mover_mark(p);
                if Self::has_line(&p.cells, me) {
                    1
                } else if Self::has_line(&p.cells, 3 - me) {
                    -1
                } else {
                    0
                }
            }
        }
    }

    /// The legal moves, in the book's order (fewest coins first, rows top down, squares 1
    /// to 9). None in a finished game.
    pub fn moves(&self, p: &Position) -> Vec<Move> {
        if self.over(p) {
            return Vec::new();
        }
        match self {
            Rules::Nim { max_take, .. } | Rules::EvenPile { max_take, .. } => {
                (1..=p.cells[0].min(*max_take)).map(|k| vec![k]).collect()
            }
            Rules::Rows(_) => p
                .cells
                .iter()
                .enumerate()
                .flat_map(|(r, &n)| (1..=n).map(move |k| vec![r as i64 + 1, k]))
                .collect(),
            Rules::TicTacToe => (1..=9)
                .filter(|&s| p.cells[s as usize - 1] == 0)
                .map(|s| vec![s])
                .collect(),
        }
    }

    /// The position `m` leads to (`m` legal).
    pub fn apply(&self, p: &Position, m: &[i64]) -> Position {
        let mut cells = p.cells.clone();
        match self {
            Rules::Nim { .. } => cells[0] -= m[0],
            Rules::EvenPile { .. } => {
                // The mover's pile grows; the next mover is the other player.
                cells = vec![cells[0] - m[0], cells[2], cells[1] + m[0]];
            }
            Rules::Rows(_) => cells[m[0] as usize - 1] -= m[1],
            Rules::TicTacToe => cells[m[0] as usize - 1] = Self::mover_mark(p),
        }
        Position {
            cells,
            first_to_move: !p.first_to_move,
        }
    }

    /// The full-depth value of `p` for the player to move (memoised in `memo`).
    pub fn value(&self, p: &Position, memo: &mut HashMap<Position, i64>) -> i64 {
        self.value_rated(p, memo, 1)
    }

    /// The value `p` would have were every finished game rated from the other side (an
    /// `EvaluateStaticPosition` that rates for the player who just moved): `memo` must be
    /// kept apart from [`Rules::value`]'s.
    pub fn value_flipped(&self, p: &Position, memo: &mut HashMap<Position, i64>) -> i64 {
        self.value_rated(p, memo, -1)
    }

    fn value_rated(&self, p: &Position, memo: &mut HashMap<Position, i64>, side: i64) -> i64 {
        if let Some(&v) = memo.get(p) {
            return v;
        }
        let v = if self.over(p) {
            side * self.outcome(p)
        } else {
            self.moves(p)
                .iter()
                .map(|m| -self.value_rated(&self.apply(p, m), memo, side))
                .max()
                .unwrap_or(0)
        };
        memo.insert(p.clone(), v);
        v
    }

    /// A move in words: "take 2", "take 2 from row 1", "square 5".
    pub fn describe_move(&self, m: &[i64]) -> String {
        let coins = |k: i64| if k == 1 { "coin" } else { "coins" };
        match (self, m) {
            (Rules::Nim { .. } | Rules::EvenPile { .. }, [k]) => format!("take {k}"),
            (Rules::Rows(_), [r, k]) => format!("take {k} {} from row {r}", coins(*k)),
            (Rules::TicTacToe, [s]) => format!("square {s}"),
            _ => format!("{m:?}"),
        }
    }

    /// A position in words.
    pub fn describe(&self, p: &Position) -> String {
        let who = if p.first_to_move {
            "the first player"
        } else {
            "the second player"
        };
        match self {
            Rules::Nim { .. } => format!(
                "{} left, {who} to move",
                plural(p.cells[0], "coin", "coins")
            ),
            Rules::EvenPile { .. } => format!(
                "{} left, {who} to move holding {}, the other {}",
                plural(p.cells[0], "coin", "coins"),
                p.cells[1],
                p.cells[2]
            ),
            Rules::Rows(_) => format!(
                "rows {}, {who} to move",
                p.cells
                    .iter()
                    .map(i64::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            Rules::TicTacToe => {
                let text: String = p
                    .cells
                    .iter()
                    .map(|&c| match c {
                        1 => 'X',
                        2 => 'O',
                        _ => '.',
                    })
                    .collect();
                format!(
                    "{text} ({} to move)",
                    if p.first_to_move { 'X' } else { 'O' }
                )
            }
        }
    }

    /// The ways a course's `moveT` may hold a move, most usual first.
    pub fn encodings(&self) -> Vec<Encoding> {
        let one = |offset| Encoding {
            fields: [0, 0],
            arity: 1,
            offset: [offset, 0],
            row_col: false,
        };
        let two = |fields, offset, row_col| Encoding {
            fields,
            arity: 2,
            offset,
            row_col,
        };
        match self {
            Rules::Nim { .. } | Rules::EvenPile { .. } => vec![one(0)],
            Rules::Rows(_) => vec![
                two([0, 1], [1, 0], false),
                two([0, 1], [0, 0], false),
                two([1, 0], [1, 0], false),
                two([1, 0], [0, 0], false),
            ],
            Rules::TicTacToe => vec![
                one(0),
                one(1),
                two([0, 1], [1, 1], true),
                two([0, 1], [0, 0], true),
            ],
        }
    }

    /// The encoding under which the raw moves a student's `GenerateMoveList` lists at the
    /// start read as exactly the legal moves (as a set); None when none does.
    pub fn fit(&self, raw: &[Vec<i64>]) -> Option<Encoding> {
        fit_encoding(self.encodings(), self.moves(&self.start()), raw)
    }
}

/// The first of `encodings` under which `raw` reads as exactly the moves `legal` (as a
/// set); None when none does.
pub fn fit_encoding(
    encodings: Vec<Encoding>,
    mut legal: Vec<Move>,
    raw: &[Vec<i64>],
) -> Option<Encoding> {
    legal.sort();
    encodings.into_iter().find(|e| {
        let mut got: Vec<Move> = match raw.iter().map(|r| e.decode(r)).collect() {
            Some(g) => g,
            None => return false,
        };
        got.sort();
        got == legal
    })
}

/// The book's `WINNING_POSITION`.
pub const WINNING_POSITION: i64 = 1000;

/// What labgrade's driver checks on a visit (`lg_moves`, `lg_game_over`, `lg_make_retract`,
/// `lg_best_move`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// The moves listed (and the facts), everywhere.
    Moves,
    /// The facts, everywhere (what `lg_moves` reports too).
    GameOver,
    /// MakeMove then RetractMove of each listed move.
    MakeRetract,
    /// The book's FindBestMove.
    BestMove,
    /// The program's own FindBestMove (the reference's is the book's).
    OwnSearch,
}

impl Check {
    /// The check a driver function makes.
    pub fn of(function: &str) -> Option<Check> {
        Some(match function {
            "lg_moves" => Check::Moves,
            "lg_game_over" => Check::GameOver,
            "lg_make_retract" => Check::MakeRetract,
            "lg_best_move" => Check::BestMove,
            "lg_own_search" => Check::OwnSearch,
            _ => return None,
        })
    }
}

/// The operations of labgrade's game driver (`specs/lib/lg_game_driver.cpp`), in order.
pub mod op {
    /// `begin()`.
    pub const BEGIN: usize = 0;
    /// `facts(over, static, turn)`.
    pub const FACTS: usize = 1;
    /// `list(n, fields)`.
    pub const LIST: usize = 2;
    /// `move(a, b, c, d)`.
    pub const MOVE: usize = 3;
    /// `step()`.
    pub const STEP: usize = 4;
    /// `restored(k, before, after, how)`: the digests of the state before and after
    /// `MakeMove`/`RetractMove` of move `k` (labgrade compares them), and how they were
    /// taken (0: the state's bytes, 1: what the game's functions answer).
    pub const RESTORED: usize = 5;
    /// `best(found, rating)`.
    pub const BEST: usize = 6;
    /// `chosen(a, b, c, d)`.
    pub const CHOSEN: usize = 7;
    /// `limit()`.
    pub const LIMIT: usize = 8;
    /// `rules(i)`: the game's description, one integer at a time (the reference library's
    /// way to know which game it plays; the driver never asks).
    pub const RULES: usize = 9;
    /// `no_moves()`: the book's FindBestMove, searching from the position visited, met a
    /// position the game says goes on (GameIsOver false) with no move listed, where Figure
    /// 7-6 calls `Error("No moves available")`.
    pub const NO_MOVES: usize = 10;
}

impl Rules {
    /// The game as integers: its kind, then its numbers (what op `rules(i)` answers).
    pub fn code(&self) -> Vec<i64> {
        match self {
            Rules::Nim { coins, max_take } => vec![0, *coins, *max_take],
            Rules::EvenPile { coins, max_take } => vec![1, *coins, *max_take],
            Rules::Rows(rows) => [vec![2, rows.len() as i64], rows.clone()].concat(),
            Rules::TicTacToe => vec![3],
        }
    }

    /// The game [`Rules::code`] describes.
    pub fn from_code(code: &[i64]) -> Option<Rules> {
        Some(match code {
            [0, coins, max_take, ..] => Rules::Nim {
                coins: *coins,
                max_take: *max_take,
            },
            [1, coins, max_take, ..] => Rules::EvenPile {
                coins: *coins,
                max_take: *max_take,
            },
            [2, n, rest @ ..] => Rules::Rows(rest.get(..usize::try_from(*n).ok()?)?.to_vec()),
            [3, ..] => Rules::TicTacToe,
            _ => return None,
        })
    }

    /// `EvaluateStaticPosition` as the book's games write it.
    fn static_rating(&self, p: &Position) -> i64 {
        if self.over(p) {
            WINNING_POSITION * self.outcome(p)
        } else {
            0
        }
    }

    /// The book's `FindBestMove` (Figure 7-6) over this game: the first move whose
    /// position rates lowest for the opponent, stopping at `LOSING_POSITION`.
    pub fn find_best_move(&self, p: &Position, depth: i64, limit: i64) -> Option<(Move, i64)> {
        let mut best = None;
        let mut min_rating = WINNING_POSITION + 1;
        for m in self.moves(p) {
            if min_rating == -WINNING_POSITION {
                break;
            }
            let cur = self.evaluate_position(&self.apply(p, &m), depth + 1, limit);
            if cur < min_rating {
                best = Some(m);
                min_rating = cur;
            }
        }
        best.map(|m| (m, -min_rating))
    }

    /// The book's `EvaluatePosition`.
    pub fn evaluate_position(&self, p: &Position, depth: i64, limit: i64) -> i64 {
        if self.over(p) || depth >= limit {
            return self.static_rating(p);
        }
        self.find_best_move(p, depth, limit).map_or(0, |(_, r)| r)
    }
}

/// What labgrade's driver does, played on the canonical game: the reference's side of every
/// game-side check, told to `tell` (the world) exactly as the driver tells it. The
/// reference's `stateT` is the canonical position, its `moveT` the canonical move, the
/// computer moves first, and its ratings are the book's.
pub fn drive(rules: &Rules, check: Check, tell: &mut dyn FnMut(usize, [i64; 4]) -> i64) {
    let limit = tell(op::LIMIT, [0; 4]);
    let raw = |m: &[i64]| {
        let mut r = [0; 4];
        r[..m.len()].copy_from_slice(m);
        r
    };
    while tell(op::BEGIN, [0; 4]) >= 0 {
        let mut p = rules.start();
        loop {
            let over = rules.over(&p);
            tell(
                op::FACTS,
                [
                    i64::from(over),
                    if over { rules.static_rating(&p) } else { 0 },
                    i64::from(p.first_to_move),
                    0,
                ],
            );
            let list = rules.moves(&p);
            if !over {
                let fields = list.first().map_or(0, |m| m.len() as i64);
                tell(op::LIST, [list.len() as i64, fields, 0, 0]);
                for m in &list {
                    tell(op::MOVE, raw(m));
                }
            }
            let k = tell(op::STEP, [0; 4]);
            if k == -1 {
                match check {
                    Check::Moves | Check::GameOver => {}
                    Check::MakeRetract => {
                        for k in 0..list.len() {
                            tell(op::RESTORED, [k as i64, 0, 0, 0]);
                        }
                    }
                    Check::BestMove | Check::OwnSearch => {
                        if let Some((m, rating)) = rules.find_best_move(&p, 0, limit) {
                            tell(op::BEST, [1, rating, 0, 0]);
                            tell(op::CHOSEN, raw(&m));
                        }
                    }
                }
                break;
            }
            match usize::try_from(k).ok().and_then(|k| list.get(k)) {
                Some(m) => p = rules.apply(&p, m),
                None => break,
            }
        }
    }
}

/// A tic-tac-toe board of `cells` (0 empty, 1 X, 2 O), free squares numbered.
pub fn draw_board(cells: &[i64]) -> String {
    let cell = |i: usize| match cells[i] {
        1 => "X".to_string(),
        2 => "O".to_string(),
        _ => (i + 1).to_string(),
    };
    let row = |r: usize| {
        format!(
            " {} | {} | {}\n",
            cell(3 * r),
            cell(3 * r + 1),
            cell(3 * r + 2)
        )
    };
    format!(
        "\n{}---+---+---\n{}---+---+---\n{}\n",
        row(0),
        row(1),
        row(2)
    )
}

fn show(rules: &Rules, p: &Position) -> String {
    match rules {
        Rules::TicTacToe => draw_board(&p.cells),
        Rules::Nim { .. } => format!("\nThere are {} coins on the table.\n", p.cells[0]),
        Rules::EvenPile { .. } => format!(
            "\nThere are {} coins on the table; you hold {}, I hold {}.\n",
            p.cells[0],
            if p.first_to_move {
                p.cells[1]
            } else {
                p.cells[2]
            },
            if p.first_to_move {
                p.cells[2]
            } else {
                p.cells[1]
            },
        ),
        Rules::Rows(_) => {
            let rows: String = p
                .cells
                .iter()
                .enumerate()
                .map(|(i, &n)| format!("Row {}: {}\n", i + 1, "O ".repeat(n as usize).trim_end()))
                .collect();
            format!("\n{rows}")
        }
    }
}

fn prompt(rules: &Rules) -> &'static str {
    match rules {
        Rules::TicTacToe => "Your move (a free square, 1-9): ",
        Rules::Nim { .. } | Rules::EvenPile { .. } => "How many coins do you take? ",
        Rules::Rows(_) => "Your move (row, then coins, e.g. `2 3`): ",
    }
}

/// The book's `main` over one of the game side's games, on a console: you (the first
/// player) type your moves; the computer's are the book's `FindBestMove` over the game.
/// True when the game ran to its end; false when input ran out. labgrade's `play` and the
/// reference's console program (`labgrade_main` with the problem's name as argument).
pub fn play(rules: &Rules, console: &mut dyn Console) -> bool {
    let mut p = rules.start();
    let limit = 10_000;
    loop {
        console.write(&show(rules, &p));
        if rules.over(&p) {
            // The outcome for the player to move.
            let you = p.first_to_move;
            let text = match (rules.outcome(&p), you) {
                (0, _) => "A draw.",
                (1, true) | (-1, false) => "You win.",
                _ => "I win.",
            };
            console.write(&format!("{text}\n"));
            return true;
        }
        if p.first_to_move {
            console.write(prompt(rules));
            let Some(line) = console.read_line() else {
                console.write("\n(end of input)\n");
                return false;
            };
            let mv: Option<Vec<i64>> = line
                .split(|c: char| !c.is_ascii_digit())
                .filter(|t| !t.is_empty())
                .map(|t| t.parse().ok())
                .collect();
            match mv.filter(|m| rules.moves(&p).contains(m)) {
                Some(m) => p = rules.apply(&p, &m),
                None => console.write("That move is illegal. Try again.\n"),
            }
        } else {
            let Some((m, _)) = rules.find_best_move(&p, 0, limit) else {
                return false;
            };
            let said = match rules {
                Rules::TicTacToe => format!("I move to {}.", rules.describe_move(&m)),
                _ => format!("I {}.", rules.describe_move(&m)),
            };
            console.write(&format!("{said}\n"));
            p = rules.apply(&p, &m);
        }
    }
}

/// [`play`] on `stdin` (lines of moves): whether the game ran to its end, and what it
/// printed. The exit status the reference's console program has on that input.
pub fn play_on(rules: &Rules, stdin: &str) -> (bool, String) {
    struct Lines<'a> {
        lines: std::str::Lines<'a>,
        out: String,
    }
    impl Console for Lines<'_> {
        fn read_line(&mut self) -> Option<String> {
            self.lines.next().map(str::to_string)
        }
        fn write(&mut self, text: &str) {
            self.out.push_str(text);
        }
    }
    let mut console = Lines {
        lines: stdin.lines(),
        out: String::new(),
    };
    let finished = play(rules, &mut console);
    (finished, console.out)
}

fn plural(n: i64, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(rules: &Rules, p: &Position) -> i64 {
        rules.value(p, &mut HashMap::new())
    }

    /// Exercise 10 is Figure 7-5's nim: the bad positions are 1, 5, 9 and 13 coins.
    #[test]
    fn thirteen_coin_nim_loses_on_one_mod_four() {
        let rules = Rules::Nim {
            coins: 13,
            max_take: 3,
        };
        for coins in 0..=13 {
            let p = Position {
                cells: vec![coins],
                first_to_move: true,
            };
            let bad = coins % 4 == 1;
            assert_eq!(value(&rules, &p), if bad { -1 } else { 1 }, "{coins}");
        }
    }

    /// Exercise 11, checked against a second, independent analysis: a player with `mine`
    /// coins held wins from `left` coins when some take leaves the opponent lost, with the
    /// pile parities followed by hand.
    #[test]
    fn even_pile_nim_agrees_with_an_independent_analysis() {
        fn wins(left: i64, mine: i64, theirs: i64) -> bool {
            if left == 0 {
                return mine % 2 == 0;
            }
            (1..=left.min(4)).any(|k| !wins(left - k, theirs, mine + k))
        }
        let rules = Rules::EvenPile {
            coins: 17,
            max_take: 4,
        };
        for left in 0..=17 {
            for mine in 0..=(17 - left) {
                let theirs = 17 - left - mine;
                let p = Position {
                    cells: vec![left, mine, theirs],
                    first_to_move: true,
                };
                let v = value(&rules, &p);
                assert_eq!(v == 1, wins(left, mine, theirs), "{left} {mine} {theirs}");
            }
        }
        // The first player wins 17-coin even-pile nim.
        assert_eq!(value(&rules, &rules.start()), 1);
    }

    /// Exercise 12 is misère nim: the player to move loses exactly when every row holds at
    /// most one coin and their count is odd, or some row holds more and the xor is 0.
    #[test]
    fn three_row_nim_follows_the_misere_rule() {
        let rules = Rules::Rows(vec![3, 4, 5]);
        let mut memo = HashMap::new();
        for a in 0..=3 {
            for b in 0..=4 {
                for c in 0..=5 {
                    let p = Position {
                        cells: vec![a, b, c],
                        first_to_move: false,
                    };
                    let small = [a, b, c].iter().all(|&n| n <= 1);
                    let loses = if small {
                        (a + b + c) % 2 == 1
                    } else {
                        a ^ b ^ c == 0
                    };
                    let expect = if loses { -1 } else { 1 };
                    assert_eq!(rules.value(&p, &mut memo), expect, "{a} {b} {c}");
                }
            }
        }
    }

    #[test]
    fn tic_tac_toe_is_a_draw_and_a_fork_wins() {
        let rules = Rules::TicTacToe;
        assert_eq!(value(&rules, &rules.start()), 0);
        // X on 1 and 9, O on 5 and 3: X to move takes 7, threatening 4 and 8.
        let p = Position {
            cells: vec![1, 0, 2, 0, 2, 0, 0, 0, 1],
            first_to_move: true,
        };
        assert_eq!(value(&rules, &p), 1);
    }

    #[test]
    fn moves_are_read_through_the_encoding_that_fits_the_start() {
        let rows = Rules::Rows(vec![3, 4, 5]);
        // 0-based rows, coins second.
        let raw: Vec<Vec<i64>> = rows
            .moves(&rows.start())
            .iter()
            .map(|m| vec![m[0] - 1, m[1]])
            .collect();
        let e = rows.fit(&raw).expect("fits");
        assert_eq!(e.decode(&[2, 5]), Some(vec![3, 5]));
        // Coins first, rows from 1.
        let raw: Vec<Vec<i64>> = raw.iter().map(|m| vec![m[1], m[0] + 1]).collect();
        let e = rows.fit(&raw).expect("fits");
        assert_eq!(e.decode(&[5, 3]), Some(vec![3, 5]));
        // A list missing a move fits nothing.
        assert_eq!(rows.fit(&raw[1..]), None);
        let ttt = Rules::TicTacToe;
        let raw: Vec<Vec<i64>> = (0..9).map(|s| vec![s / 3, s % 3]).collect();
        let e = ttt.fit(&raw).expect("fits");
        assert_eq!(e.decode(&[1, 1]), Some(vec![5]));
    }
}
