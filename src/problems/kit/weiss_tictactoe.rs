//! Weiss' tic-tac-toe (seed 001, Figures 10.66, 10.67 and 10.73) through the kit: labgrade
//! is the board and its supporting routines; the student's `find_comp_move` and
//! `find_human_move` are graded on the move and value per position and on the positions
//! examined, with or without alpha-beta pruning (the course's `ALPHA_BETA`).

use labgrade_reference::kit::Tally;
use labgrade_reference::weiss_tictactoe::{self as reference, Board, Piece, Squares, Window};
use serde_json::{json, Map, Value};

use super::world::{Recorder, World};
use super::{KitAbi, KitProblem, RefCall, RefRun};
use crate::problems::{param, Mismatch, Params, Problem, RefOutcome};

/// Steps of the reference's trace kept.
const TRACE_KEEP: usize = 4096;

/// The child's side.
pub static ABI: KitAbi = KitAbi::new(
    "weiss-tictactoe",
    include_str!("../../../specs/weiss-tictactoe.toml"),
    Some(board),
);

/// The grader's side.
pub static PROBLEM: KitProblem = problem();

/// The same without its solver (the student bundle's checker, see `crate::student`).
pub static JUDGE: KitProblem = problem().judge_only();

const fn problem() -> KitProblem {
    KitProblem::new(&ABI, run_reference)
        .with_explain(explain)
        .with_evidence(evidence)
        .with_draw_line(draw_line)
}

fn position(world: &[Value]) -> Result<Squares, String> {
    world
        .first()
        .and_then(Value::as_str)
        .and_then(Squares::parse)
        .ok_or_else(|| "the position is nine characters: C, H or . for each square".into())
}

/// labgrade's board, answering the supporting routines by their operation codes.
struct BoardWorld(Squares);

impl World for BoardWorld {
    fn answer(&mut self, op: usize, args: &[i64]) -> i64 {
        let square = args
            .first()
            .and_then(|&a| usize::try_from(a).ok())
            .unwrap_or(0);
        let b = &mut self.0;
        match op {
            0 => {
                let side = match args.get(1) {
                    Some(1) => Piece::Comp,
                    Some(2) => Piece::Human,
                    _ => Piece::Empty,
                };
                b.place(square, side);
                0
            }
            1 => {
                b.unplace(square);
                0
            }
            2 => i64::from(b.full_board()),
            3 => i64::from(b.is_empty(square)),
            4 => b.immediate_win(Piece::Comp).unwrap_or(0) as i64,
            _ => b.immediate_win(Piece::Human).unwrap_or(0) as i64,
        }
    }

    /// The board at the end: as it was given, when every place was unplaced.
    fn state(&self) -> Value {
        json!(self.0.text())
    }
}

fn board(
    _own: &[Value],
    world: &[Value],
    _params: super::world::Params<'_>,
) -> Result<Box<dyn World>, String> {
    Ok(Box::new(BoardWorld(position(world)?)))
}

/// The reference's board is the same world, through the recorder.
struct Recorded<'a>(&'a mut Recorder);

impl Board for Recorded<'_> {
    fn describe(&self) -> String {
        self.0.state().as_str().unwrap_or_default().to_string()
    }

    fn place(&mut self, square: usize, side: Piece) {
        let side = match side {
            Piece::Comp => 1,
            Piece::Human => 2,
            Piece::Empty => 0,
        };
        self.0.call(0, [square as i64, side, 0, 0]);
    }
    fn unplace(&mut self, square: usize) {
        self.0.call(1, [square as i64, 0, 0, 0]);
    }
    fn is_empty(&mut self, square: usize) -> bool {
        self.0.call(3, [square as i64, 0, 0, 0]) != 0
    }
    fn full_board(&mut self) -> bool {
        self.0.call(2, [0; 4]) != 0
    }
    fn immediate_win(&mut self, side: Piece) -> Option<usize> {
        let op = if side == Piece::Comp { 4 } else { 5 };
        usize::try_from(self.0.call(op, [0; 4]))
            .ok()
            .filter(|&s| s != 0)
    }
}

fn window(params: &Params, args: &[Value]) -> Window {
    let arg = |i: usize| args.get(i).and_then(Value::as_i64).unwrap_or(0);
    (param(JUDGE.parameters(), params, "ALPHA_BETA") == 1).then(|| (arg(0), arg(1)))
}

fn run_reference(c: RefCall<'_>) -> Result<RefRun, String> {
    let world = c.world.ok_or("the search needs labgrade's board")?;
    let mut tally = Tally::new(TRACE_KEEP);
    let (best, value) =
        reference::find_comp_move(&mut tally, &mut Recorded(world), window(c.params, c.args));
    let mut v = Map::new();
    v.insert("best_move".into(), json!(best));
    v.insert("value".into(), json!(value));
    Ok(RefRun {
        value: Some(v),
        tally,
        stdout: None,
    })
}

/// The evidence weiss' explanations read: how many positions the search the course does
/// not grade examines (the full search where the course prunes, the pruned one where it
/// does not).
fn evidence(
    _function: &str,
    _own: &[Value],
    world: &[Value],
    params: &Params,
) -> Map<String, Value> {
    let mut facts = Map::new();
    if let Ok(start) = position(world) {
        let other = if param(JUDGE.parameters(), params, "ALPHA_BETA") == 1 {
            None
        } else {
            Some((reference::COMP_LOSS, reference::COMP_WIN))
        };
        facts.insert(OTHER_SEARCH.into(), json!(positions(start, other)));
        // The human's half keeping the larger response, from each start it may have kept.
        let variants: Vec<(usize, i64)> = [false, true]
            .iter()
            .map(|&low| human_maximising(&mut start.clone(), true, low))
            .collect();
        facts.insert(HUMAN_MAXIMISES.into(), json!(variants));
    }
    facts
}

/// The evidence's key: (best move, value) of Figure 10.66's search whose human half keeps
/// the larger response, starting from COMP_WIN (its own start) and from COMP_LOSS (a copy of
/// the computer's half).
const HUMAN_MAXIMISES: &str = "human_maximises";

/// The words naming that mistake (the class report names it by them).
pub const HUMAN_MAXIMISES_SAYS: &str = "your find_human_move keeps the larger response, as \
     find_comp_move does";

/// Figure 10.66's search with find_human_move keeping the larger response (`start_low`: from
/// COMP_LOSS, as a copy of find_comp_move; else from its own COMP_WIN): (best move, value)
/// of the side to move, `comp` or the human.
fn human_maximising(board: &mut Squares, comp: bool, start_low: bool) -> (usize, i64) {
    let side = if comp { Piece::Comp } else { Piece::Human };
    if board.full_board() {
        return (0, reference::DRAW);
    }
    if let Some(sq) = board.immediate_win(side) {
        let v = if comp {
            reference::COMP_WIN
        } else {
            reference::COMP_LOSS
        };
        return (sq, v);
    }
    let mut value = if comp || start_low {
        reference::COMP_LOSS
    } else {
        reference::COMP_WIN
    };
    let mut best = 0;
    for i in 1..=9 {
        if !board.is_empty(i) {
            continue;
        }
        board.place(i, side);
        let (_, response) = human_maximising(board, !comp, start_low);
        board.unplace(i);
        if response > value {
            value = response;
            best = i;
        }
    }
    (best, value)
}

/// The evidence's key: positions the other search examines.
const OTHER_SEARCH: &str = "other_search_positions";

/// Positions examined by the reference on `start` with `window`.
fn positions(start: Squares, window: Window) -> u64 {
    let mut t = Tally::new(0);
    reference::find_comp_move(&mut t, &mut start.clone(), window);
    t.calls_of("find_comp_move") + t.calls_of("find_human_move")
}

/// Pruning where the course has none, none where it has it, and pruning that cuts too much
/// or too little: each said only when the counts (and the value) show it.
fn explain(m: &Mismatch<'_>) -> Option<String> {
    let counts = m.observed.counts.as_ref()?;
    let seen: u64 = ["find_comp_move", "find_human_move"]
        .iter()
        .filter_map(|f| counts.calls.get(*f))
        .sum();
    let expected: u64 = m.expected.calls.values().sum();
    let alpha_beta = param(JUDGE.parameters(), m.params, "ALPHA_BETA") == 1;
    let RefOutcome::Returns(reference_value) = &m.expected.outcome else {
        return None;
    };
    let value_right = m.observed.value.as_ref()?.get("value")? == reference_value.get("value")?;
    // The course's figure is what the reference searched; the other one is the evidence's.
    let other = m.expected.evidence.get(OTHER_SEARCH)?.as_u64()?;
    let (full, pruned) = if alpha_beta {
        (other, expected)
    } else {
        (expected, other)
    };
    if let Some(why) = human_maximises(m, alpha_beta, seen, expected) {
        return Some(why);
    }
    if !alpha_beta && seen == pruned && value_right && pruned != full {
        return Some(format!(
            "your search examined {seen} positions, exactly as Figure 10.73's alpha-beta pruning \
             does; this course grades Figure 10.66's full search ({full}). If your course \
             teaches alpha-beta, give labgrade a course file with `[weiss-tictactoe] params = \
             {{ ALPHA_BETA = 1 }}`"
        ));
    }
    if alpha_beta && seen == full && value_right && pruned != full {
        return Some(format!(
            "your search examined every position ({seen}), as Figure 10.66 does: it does not \
             prune. Figure 10.73 stops trying squares once *value reaches beta (the human's \
             once it falls to alpha), and passes *value on as the next bound"
        ));
    }
    if alpha_beta && value_right && seen > expected {
        return Some(format!(
            "right value, but {seen} positions where Figure 10.73 examines {expected}: your \
             pruning cuts less than the figure's (check the loop's bound and the alpha and beta \
             you pass on)"
        ));
    }
    if alpha_beta && !value_right && seen < expected {
        return Some(format!(
            "a wrong value after {seen} positions, fewer than Figure 10.73's {expected}: your \
             pruning cuts too much, skipping positions the figure examines (check the bound \
             each side starts from and compares with, and the alpha and beta it passes on)"
        ));
    }
    None
}

/// The human's half maximising, said when the search examined exactly the figure's positions
/// and its move and value are exactly what that search gives (Figure 10.66's only).
fn human_maximises(m: &Mismatch<'_>, alpha_beta: bool, seen: u64, expected: u64) -> Option<String> {
    let got = m.observed.value.as_ref()?;
    let got = (got.get("best_move")?.as_u64()?, got.get("value")?.as_i64()?);
    let variants = m.expected.evidence.get(HUMAN_MAXIMISES)?.as_array()?;
    let fits = variants.iter().any(|v| {
        v.get(0).and_then(Value::as_u64) == Some(got.0)
            && v.get(1).and_then(Value::as_i64) == Some(got.1)
    });
    (!alpha_beta && seen == expected && fits).then(|| {
        format!(
            "{HUMAN_MAXIMISES_SAYS}: your move and value are exactly what Figure 10.66's search \
             gives when the human also picks the move best for the computer. The human is the \
             computer's opponent: find_human_move must keep the smallest response (`response \
             < *value`), starting from COMP_WIN"
        )
    })
}

/// The position a line of `place` calls leads to, drawn (C the computer, H the human).
fn draw_line(world: &[Value], line: &[Vec<i64>]) -> Option<String> {
    let mut board = position(world).ok()?;
    for m in line {
        let side = if m.get(1) == Some(&1) {
            Piece::Comp
        } else {
            Piece::Human
        };
        board.place(usize::try_from(*m.first()?).ok()?, side);
    }
    Some(format!(
        "the position there:\n{}",
        super::judge::board_3x3(&board.text())
    ))
}
