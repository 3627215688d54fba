//! The child's side of the game driver's steering: with the lines the host is steering
//! along, the child finds each next move in the student's list itself and knows which visit
//! comes next, so that a whole breadth of the walk costs one round trip to labgrade's world
//! host, not one per step (a round trip is tens of microseconds; a game has thousands of
//! positions and tens of thousands of steps).
//!
//! The host's [`super::game_side::Explorer`] decides where to go and judges nothing here.
//! When the child asks it for the next visit (`begin`), it tells the child how the student's
//! moves read (the [`Encoding`] it fitted at the start) and the lines of canonical moves to
//! that position and to the ones queued after it. Every move of those lines is a move out of
//! a position already visited, whose list was recorded then (the walk is breadth first):
//! nothing about a position still to be visited, and none of the rules, reaches the child.
//! [`Steering`] answers `begin` and `step` exactly as the explorer does (the next visit's
//! number; the first listed move that reads as the line's next, -1 once arrived, -2 when the
//! list lacks it) from the same calls, which still reach the host, so its record is the same.

use std::collections::VecDeque;

use labgrade_reference::roberts_game::{op, Encoding, Move};

use super::remote_world::{Shortcut, MAX_TOLD};

/// Most moves of one list kept, here and by the explorer (which must agree on every step).
pub const MAX_LISTED: usize = 4096;

/// The line of the visit under way.
struct Plan {
    line: Vec<Move>,
    made: usize,
    lost: bool,
}

/// Answers the driver's `begin` and `step` in the child.
#[derive(Default)]
pub struct Steering {
    encoding: Option<Encoding>,
    plan: Option<Plan>,
    /// The lines of the visits after this one, and the number of the first.
    queued: VecDeque<Vec<Move>>,
    next_visit: i64,
    fields: usize,
    listed: Vec<Vec<i64>>,
}

impl Steering {
    /// A fresh steering, for a call.
    pub fn boxed() -> Box<dyn Shortcut> {
        Box::<Steering>::default()
    }
}

/// What the host's explorer tells the child with `begin`: the encoding, then, for the visit
/// begun and as many queued after it as fit, the line's length and each move as its length
/// and two integers.
pub fn plan_words<'a>(encoding: &Encoding, lines: impl Iterator<Item = &'a [Move]>) -> Vec<i64> {
    let mut words = encoding.to_ints().to_vec();
    for line in lines {
        if words.len() + 1 + 3 * line.len() > MAX_TOLD as usize {
            break;
        }
        words.push(line.len() as i64);
        for m in line {
            words.extend([
                m.len() as i64,
                m.first().copied().unwrap_or(0),
                m.get(1).copied().unwrap_or(0),
            ]);
        }
    }
    words
}

/// The encoding and lines [`plan_words`] gave; None for words it does not give.
fn read_plan(words: &[i64]) -> Option<(Encoding, VecDeque<Vec<Move>>)> {
    let encoding = Encoding::from_ints(words.get(..6)?)?;
    let mut rest = &words[6..];
    let mut lines = VecDeque::new();
    while let Some((&n, tail)) = rest.split_first() {
        let n = usize::try_from(n).ok()?;
        let moves = tail.get(..n.checked_mul(3)?)?;
        let line = moves
            .chunks(3)
            .map(|c| match c[0] {
                1 => Some(vec![c[1]]),
                2 => Some(vec![c[1], c[2]]),
                _ => None,
            })
            .collect::<Option<Vec<Move>>>()?;
        lines.push_back(line);
        rest = &tail[3 * n..];
    }
    (!lines.is_empty()).then_some((encoding, lines))
}

impl Steering {
    fn start(&mut self, line: Vec<Move>) {
        self.plan = Some(Plan {
            line,
            made: 0,
            lost: false,
        });
    }

    fn step(&mut self) -> Option<i64> {
        let encoding = self.encoding?;
        let plan = self.plan.as_mut()?;
        if plan.lost {
            return Some(-2);
        }
        let Some(want) = plan.line.get(plan.made) else {
            return Some(-1);
        };
        let found = self
            .listed
            .iter()
            .position(|raw| encoding.decode(raw).as_ref() == Some(want));
        match found {
            Some(k) => {
                plan.made += 1;
                Some(k as i64)
            }
            None => {
                plan.lost = true;
                Some(-2)
            }
        }
    }
}

impl Shortcut for Steering {
    fn sent(&mut self, operation: usize, args: &[i64]) {
        let arg = |i: usize| args.get(i).copied().unwrap_or(0);
        match operation {
            op::BEGIN => self.plan = None,
            op::FACTS => {
                self.fields = 0;
                self.listed.clear();
            }
            op::LIST => {
                self.fields = usize::try_from(arg(1)).unwrap_or(0).min(4);
                self.listed.clear();
            }
            op::MOVE if self.listed.len() < MAX_LISTED => {
                self.listed
                    .push(args[..self.fields.min(args.len())].to_vec());
            }
            _ => {}
        }
    }

    fn answer(&mut self, operation: usize) -> Option<i64> {
        match operation {
            op::BEGIN => {
                let line = self.queued.pop_front()?;
                self.start(line);
                self.next_visit += 1;
                Some(self.next_visit - 1)
            }
            op::STEP => self.step(),
            _ => None,
        }
    }

    fn told(&mut self, operation: usize, words: &[i64], answer: i64) {
        if operation != op::BEGIN {
            return;
        }
        self.queued.clear();
        if let Some((encoding, mut lines)) = read_plan(words) {
            self.encoding = Some(encoding);
            if let Some(line) = lines.pop_front() {
                self.start(line);
            }
            self.queued = lines;
            self.next_visit = answer + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn squares() -> Encoding {
        Encoding {
            fields: [0, 0],
            arity: 1,
            offset: [0, 0],
            row_col: false,
        }
    }

    #[test]
    fn a_plan_reads_back_as_told() {
        let e = Encoding {
            fields: [0, 1],
            arity: 2,
            offset: [1, 1],
            row_col: true,
        };
        let lines: Vec<Vec<Move>> = vec![vec![vec![5], vec![1, 3]], vec![]];
        let words = plan_words(&e, lines.iter().map(Vec::as_slice));
        let (encoding, read) = read_plan(&words).expect("a plan");
        assert_eq!(encoding, e);
        assert_eq!(Vec::from(read), lines);
        // Words that are no plan: the child asks instead.
        assert!(read_plan(&words[..8]).is_none());
        assert!(read_plan(&words[..6]).is_none());
        assert!(read_plan(&[]).is_none());
    }

    fn list(s: &mut Steering, moves: &[i64]) {
        s.sent(op::FACTS, &[0, 0, 1]);
        s.sent(op::LIST, &[moves.len() as i64, 1]);
        for m in moves {
            s.sent(op::MOVE, &[*m, 0, 0, 0]);
        }
    }

    #[test]
    fn steps_along_each_line_then_arrives_or_is_lost() {
        let mut s = Steering::default();
        // Without a plan (the start, before the encoding is fitted) the host is asked.
        s.sent(op::BEGIN, &[]);
        assert_eq!(s.answer(op::BEGIN), None);
        assert_eq!(s.answer(op::STEP), None);
        // The host answers begin 4, with that visit's line and two queued after it.
        s.sent(op::BEGIN, &[]);
        assert_eq!(s.answer(op::BEGIN), None);
        let lines: Vec<Vec<Move>> = vec![vec![vec![3], vec![7]], vec![vec![9]], vec![]];
        s.told(
            op::BEGIN,
            &plan_words(&squares(), lines.iter().map(Vec::as_slice)),
            4,
        );
        list(&mut s, &[1, 3, 3]);
        assert_eq!(s.answer(op::STEP), Some(1), "the first listed 3");
        list(&mut s, &[7]);
        assert_eq!(s.answer(op::STEP), Some(0));
        list(&mut s, &[2]);
        assert_eq!(s.answer(op::STEP), Some(-1), "arrived");
        s.sent(op::BEGIN, &[]);
        assert_eq!(s.answer(op::BEGIN), Some(5), "the next queued visit");
        list(&mut s, &[1, 2]);
        assert_eq!(s.answer(op::STEP), Some(-2), "9 is not listed");
        assert_eq!(s.answer(op::STEP), Some(-2));
        s.sent(op::BEGIN, &[]);
        assert_eq!(s.answer(op::BEGIN), Some(6));
        list(&mut s, &[1]);
        assert_eq!(
            s.answer(op::STEP),
            Some(-1),
            "the start again: arrived at once"
        );
        // Nothing queued: the host is asked.
        s.sent(op::BEGIN, &[]);
        assert_eq!(s.answer(op::BEGIN), None);
    }
}
