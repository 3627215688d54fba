//! The game side's canonical game as the explorer ([`super::game_side`]) and the judge
//! ([`super::roberts_game`]) read it: the book's rules ([`Canonical`], in `labgrade`), or a
//! table of every reachable position made from them at export ([`GameTable`], in a student
//! bundle, whose checker links no rules).
//!
//! The rules are half an answer key (the legal moves are what `GenerateMoveList` must list,
//! the values what `FindBestMove` must find), and every case of the game side is visible:
//! the table holds only what the visible cases are judged on, and nothing that computes a
//! position the table does not hold.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use labgrade_reference::roberts_game::{fit_encoding, Encoding, Move, Position, Rules};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::problems::memo::Memo;

/// What the game side asks of its game.
pub trait Game: Send + Sync {
    /// Which game it is: its words and numbers, which hold no rule of play (a move's words,
    /// the encodings a `moveT` may use, the game's code and length the driver asks for).
    fn rules(&self) -> &Rules;
    /// Where a game starts.
    fn start(&self) -> Position;
    /// The legal moves, in the book's order (none in a finished game).
    fn moves(&self, p: &Position) -> Vec<Move>;
    /// The position the legal move `m` leads to.
    fn apply(&self, p: &Position, m: &[i64]) -> Position;
    /// Whether the game is over.
    fn over(&self, p: &Position) -> bool;
    /// A finished game's outcome for the player to move: 1 won, -1 lost, 0 drawn.
    fn outcome(&self, p: &Position) -> i64;
    /// The full-depth value of `p` for the player to move.
    fn value(&self, p: &Position) -> i64;
    /// The value `p` would have were every finished game rated from the other side.
    fn value_flipped(&self, p: &Position) -> i64;
    /// The position in words.
    fn describe(&self, p: &Position) -> String {
        self.rules().describe(p)
    }
    /// A move in words.
    fn describe_move(&self, m: &[i64]) -> String {
        self.rules().describe_move(m)
    }
    /// The ways a course's `moveT` may hold a move, most usual first.
    fn encodings(&self) -> Vec<Encoding> {
        self.rules().encodings()
    }

    /// The encoding under which the raw moves a student's `GenerateMoveList` lists at the
    /// start read as exactly the legal moves (as a set); None when none does.
    fn fit(&self, raw: &[Vec<i64>]) -> Option<Encoding> {
        fit_encoding(self.encodings(), self.moves(&self.start()), raw)
    }
}

/// The book's rules, with the values memoised.
pub struct Canonical {
    rules: Rules,
    values: Mutex<HashMap<Position, i64>>,
    flipped: Mutex<HashMap<Position, i64>>,
}

impl Canonical {
    /// The game `rules` give.
    pub fn new(rules: Rules) -> Canonical {
        Canonical {
            rules,
            values: Mutex::default(),
            flipped: Mutex::default(),
        }
    }
}

impl Game for Canonical {
    fn rules(&self) -> &Rules {
        &self.rules
    }
    fn start(&self) -> Position {
        self.rules.start()
    }
    fn moves(&self, p: &Position) -> Vec<Move> {
        self.rules.moves(p)
    }
    fn apply(&self, p: &Position, m: &[i64]) -> Position {
        self.rules.apply(p, m)
    }
    fn over(&self, p: &Position) -> bool {
        self.rules.over(p)
    }
    fn outcome(&self, p: &Position) -> i64 {
        self.rules.outcome(p)
    }
    fn value(&self, p: &Position) -> i64 {
        let mut memo = self.values.lock().unwrap_or_else(|e| e.into_inner());
        self.rules.value(p, &mut memo)
    }
    fn value_flipped(&self, p: &Position) -> i64 {
        let mut memo = self.flipped.lock().unwrap_or_else(|e| e.into_inner());
        self.rules.value_flipped(p, &mut memo)
    }
    fn fit(&self, raw: &[Vec<i64>]) -> Option<Encoding> {
        self.rules.fit(raw)
    }
}

/// One reachable position of a [`GameTable`].
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Row {
    /// The position's cells.
    c: Vec<i64>,
    /// Whether the first player is to move.
    f: bool,
    /// Whether the game is over, and its outcome then.
    o: Option<i64>,
    /// The value, and the value with finished games rated from the other side.
    v: [i64; 2],
    /// The legal moves, each with the index of the row it leads to.
    m: Vec<(Move, usize)>,
}

/// Every position reachable from the start, with what [`Game`] answers there: the game
/// side's evidence in a student bundle ([`crate::problems::Problem::evidence`]).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GameTable {
    rows: Vec<Row>,
}

impl GameTable {
    /// The table of `game`, breadth first from its start; None past `limit` positions.
    pub fn of(game: &dyn Game, limit: usize) -> Option<GameTable> {
        let mut index: HashMap<Position, usize> = HashMap::new();
        let mut order = vec![game.start()];
        index.insert(order[0].clone(), 0);
        let mut rows = Vec::new();
        let mut next = 0;
        while let Some(p) = order.get(next).cloned() {
            next += 1;
            let mut m = Vec::new();
            for mv in game.moves(&p) {
                let q = game.apply(&p, &mv);
                let k = *index.entry(q.clone()).or_insert_with(|| {
                    order.push(q);
                    order.len() - 1
                });
                m.push((mv, k));
            }
            if order.len() > limit {
                return None;
            }
            rows.push(Row {
                o: game.over(&p).then(|| game.outcome(&p)),
                v: [game.value(&p), game.value_flipped(&p)],
                m,
                c: p.cells,
                f: p.first_to_move,
            });
        }
        Some(GameTable { rows })
    }

    /// The evidence's key of the table of `rules`' game.
    pub fn key(rules: &Rules) -> String {
        format!("game table {:?}", rules.code())
    }

    /// The table of `rules`' game a student bundle holds.
    pub fn from_evidence(rules: &Rules) -> Result<Arc<GameTable>, String> {
        static READ: Memo<GameTable> = Memo::new();
        let key = Self::key(rules);
        READ.get_or_compute(key.clone(), 8, move || {
            let fact = crate::problems::precomputed::evidence(&key)
                .ok_or("this bundle holds no table of the game: make it again with `labgrade export --student`")?;
            serde_json::from_value(fact.clone())
                .map_err(|e| format!("this bundle's table of the game does not read: {e}"))
        })
    }

    /// The table as evidence.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// A [`GameTable`] as the game, with the words of `rules` (no rule of play is called).
pub struct TableGame {
    rules: Rules,
    table: Arc<GameTable>,
    index: HashMap<Position, usize>,
}

impl TableGame {
    /// `table`, the game of `rules`.
    pub fn new(rules: Rules, table: Arc<GameTable>) -> TableGame {
        let index = table
            .rows
            .iter()
            .enumerate()
            .map(|(i, r)| {
                (
                    Position {
                        cells: r.c.clone(),
                        first_to_move: r.f,
                    },
                    i,
                )
            })
            .collect();
        TableGame {
            rules,
            table,
            index,
        }
    }

    fn row(&self, p: &Position) -> Option<&Row> {
        self.index.get(p).and_then(|&i| self.table.rows.get(i))
    }

    fn position(&self, i: usize) -> Option<Position> {
        self.table.rows.get(i).map(|r| Position {
            cells: r.c.clone(),
            first_to_move: r.f,
        })
    }
}

impl Game for TableGame {
    fn rules(&self) -> &Rules {
        &self.rules
    }
    fn start(&self) -> Position {
        self.position(0).unwrap_or_else(|| self.rules.start())
    }
    fn moves(&self, p: &Position) -> Vec<Move> {
        self.row(p)
            .map(|r| r.m.iter().map(|(m, _)| m.clone()).collect())
            .unwrap_or_default()
    }
    fn apply(&self, p: &Position, m: &[i64]) -> Position {
        self.row(p)
            .and_then(|r| r.m.iter().find(|(mv, _)| mv == m))
            .and_then(|(_, k)| self.position(*k))
            // Never asked of a move the table does not hold (the judge applies legal moves
            // only); the position stays where it is.
            .unwrap_or_else(|| p.clone())
    }
    fn over(&self, p: &Position) -> bool {
        self.row(p).is_some_and(|r| r.o.is_some())
    }
    fn outcome(&self, p: &Position) -> i64 {
        self.row(p).and_then(|r| r.o).unwrap_or(0)
    }
    fn value(&self, p: &Position) -> i64 {
        self.row(p).map_or(0, |r| r.v[0])
    }
    fn value_flipped(&self, p: &Position) -> i64 {
        self.row(p).map_or(0, |r| r.v[1])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use labgrade_reference::roberts_game::{EVEN_PILE, NIM};

    /// The table answers as the rules do on every reachable position, and survives the
    /// bundle's JSON.
    #[test]
    fn a_table_answers_as_the_rules_do() {
        for rules in [NIM, EVEN_PILE, Rules::Rows(vec![3, 4, 5]), Rules::TicTacToe] {
            let canonical = Canonical::new(rules.clone());
            let table = GameTable::of(&canonical, 10_000).expect("a small game");
            let read: GameTable = serde_json::from_value(table.to_value()).unwrap();
            let game = TableGame::new(rules.clone(), Arc::new(read));
            assert_eq!(game.start(), canonical.start());
            let mut seen = 0;
            for p in game.index.keys() {
                seen += 1;
                assert_eq!(game.moves(p), canonical.moves(p), "{p:?}");
                assert_eq!(game.over(p), canonical.over(p), "{p:?}");
                if canonical.over(p) {
                    assert_eq!(game.outcome(p), canonical.outcome(p), "{p:?}");
                }
                assert_eq!(game.value(p), canonical.value(p), "{p:?}");
                assert_eq!(game.value_flipped(p), canonical.value_flipped(p), "{p:?}");
                for m in canonical.moves(p) {
                    assert_eq!(game.apply(p, &m), canonical.apply(p, &m), "{p:?} {m:?}");
                }
            }
            if rules == Rules::TicTacToe {
                assert_eq!(seen, 5478, "every reachable tic-tac-toe position");
            }
            let raw: Vec<Vec<i64>> = canonical.moves(&canonical.start());
            assert_eq!(game.fit(&raw), canonical.fit(&raw));
        }
        assert!(GameTable::of(&Canonical::new(Rules::TicTacToe), 100).is_none());
    }
}
