//! Roberts' game side (seed 000, Figure 7-6, exercises 10 to 12): the student writes the game
//! part (`stateT`, `moveT`, `NewGame`, `GenerateMoveList`, `MakeMove`, ...) and labgrade
//! supplies the book's general part. labgrade's driver (`specs/lib/lg_game_driver.cpp`,
//! compiled apart from the student's code) reaches positions only through the student's own
//! `NewGame`, the moves their `GenerateMoveList` lists and their `MakeMove` (called by the
//! adapter compiled after their sources, `specs/lib/lg_game_adapter.h`), and tells this world
//! what it sees; the world steers it from position to position. Whether `RetractMove`
//! restored the state is decided here, from the digests the driver reports before and after.
//!
//! The [`Explorer`] knows the canonical game ([`Game`]): it reads the student's moves through
//! the [`Encoding`] that fits their list at the start, walks every reachable position once
//! (breadth first, each reached afresh from `NewGame` along the first line that leads there),
//! and keeps, per position, what the student's functions said. Whether that is right is
//! judged in the grader ([`super::roberts_game`]). The rules are half an answer key (the
//! legal moves are what `GenerateMoveList` must list), so the explorer never runs in the
//! sandboxed child: for the student's run it lives in labgrade's world host
//! ([`super::world_host`]), and the child steps along the lines it is told
//! ([`super::game_steering`]); for the reference, in the grader.

use std::collections::{HashSet, VecDeque};

use labgrade_reference::roberts_game::{op, Encoding, Move, Position};
use serde_json::{json, Map, Value};

use super::game::Game;
use super::game_steering::MAX_LISTED;
use super::world::World;

/// At most this many positions are visited (tic-tac-toe has 5,478).
pub const MAX_VISITS: usize = 6000;

/// A position to visit and the line that reaches it.
struct Target {
    position: Position,
    line: Vec<Move>,
    /// `WhoseTurn` where the line's last move was made.
    parent_turn: Option<i64>,
}

/// What the driver reported where it stands.
#[derive(Default)]
struct Node {
    over: bool,
    static_value: i64,
    turn: i64,
    listed: i64,
    fields: i64,
    raw: Vec<Vec<i64>>,
}

/// One visit under way.
struct Visit {
    target: Target,
    /// Moves of the line made so far.
    made: usize,
    /// The entry, once arrived.
    entry: Option<Map<String, Value>>,
}

/// Steers labgrade's driver through a student's game and keeps what it saw.
pub struct Explorer {
    game: Box<dyn Game>,
    encoding: Option<Encoding>,
    start_list: Option<Value>,
    queue: VecDeque<Target>,
    seen: HashSet<Position>,
    visit: Option<Visit>,
    node: Node,
    entries: Vec<Value>,
    visits: usize,
    truncated: bool,
}

impl Explorer {
    /// An explorer of `game`, from its start.
    pub fn new(game: Box<dyn Game>) -> Explorer {
        let start = game.start();
        let mut seen = HashSet::new();
        seen.insert(start.clone());
        Explorer {
            game,
            encoding: None,
            start_list: None,
            queue: VecDeque::from([Target {
                position: start,
                line: Vec::new(),
                parent_turn: None,
            }]),
            seen,
            visit: None,
            node: Node::default(),
            entries: Vec::new(),
            visits: 0,
            truncated: false,
        }
    }

    fn decode(&self, raw: &[i64]) -> Option<Move> {
        self.encoding.as_ref().and_then(|e| e.decode(raw))
    }

    /// The encoding that fits the start's list exactly or, failing that, the one under which
    /// most listed moves are legal (a GenerateMoveList with a mistake still gets read).
    fn fit(&self) -> Option<Encoding> {
        if let Some(e) = self.game.fit(&self.node.raw) {
            return Some(e);
        }
        let legal = self.game.moves(&self.game.start());
        let score = |e: &Encoding| {
            self.node
                .raw
                .iter()
                .filter(|r| e.decode(r).is_some_and(|m| legal.contains(&m)))
                .count()
        };
        let encodings = self.game.encodings();
        let best = encodings.iter().map(score).max().unwrap_or(0);
        let top: Vec<&Encoding> = encodings.iter().filter(|e| score(e) == best).collect();
        (best > 0 && top.len() == 1).then(|| *top[0])
    }

    fn close_entry(&mut self) {
        if let Some(entry) = self.visit.take().and_then(|v| v.entry) {
            self.entries.push(Value::Object(entry));
        }
    }

    fn begin(&mut self) -> i64 {
        self.close_entry();
        if self.visits >= MAX_VISITS && !self.queue.is_empty() {
            self.truncated = true;
            return -1;
        }
        let Some(target) = self.queue.pop_front() else {
            return -1;
        };
        self.visits += 1;
        self.visit = Some(Visit {
            target,
            made: 0,
            entry: None,
        });
        self.visits as i64 - 1
    }

    fn line_words(&self, line: &[Move]) -> Value {
        json!(line
            .iter()
            .map(|m| self.game.describe_move(m))
            .collect::<Vec<_>>())
    }

    fn step(&mut self) -> i64 {
        let Some(visit) = self.visit.as_ref() else {
            return -2;
        };
        if visit.made == 0 && visit.target.line.is_empty() && self.start_list.is_none() {
            self.start_list = Some(json!({
                "listed": self.node.listed,
                "fields": self.node.fields,
                "raw": self.node.raw,
            }));
            if self.node.listed >= 0 {
                self.encoding = self.fit();
            }
        }
        let decoded: Vec<Option<Move>> = self.node.raw.iter().map(|r| self.decode(r)).collect();
        let visit = self.visit.as_ref().expect("checked above");
        let target = &visit.target;
        if let Some(want) = target.line.get(visit.made) {
            if let Some(k) = decoded.iter().position(|d| d.as_ref() == Some(want)) {
                self.visit.as_mut().expect("checked above").made += 1;
                return k as i64;
            }
            // The student's game does not offer the next move of the line.
            let mut entry = self.position_fields(target);
            entry.insert("lost_at".into(), json!(visit.made));
            entry.insert("over".into(), json!(self.node.over));
            self.entries.push(Value::Object(entry));
            self.visit = None;
            return -2;
        }
        // Arrived.
        let mut entry = self.position_fields(target);
        entry.insert("over".into(), json!(self.node.over));
        if self.node.over {
            entry.insert("static".into(), json!(self.node.static_value));
        }
        entry.insert("turn".into(), json!(self.node.turn));
        if let Some(t) = target.parent_turn {
            entry.insert("parent_turn".into(), json!(t));
        }
        if !self.node.over {
            if self.node.listed < 0 {
                entry.insert("unreadable".into(), json!(self.node.fields));
            } else {
                let moves: Vec<Value> = decoded
                    .iter()
                    .zip(&self.node.raw)
                    .map(|(d, r)| match d {
                        Some(m) => json!(m),
                        None => json!({ "raw": r }),
                    })
                    .collect();
                entry.insert("moves".into(), Value::Array(moves));
            }
        }
        let children: Vec<Target> =
            if !self.node.over && self.encoding.is_some() && !self.game.over(&target.position) {
                self.game
                    .moves(&target.position)
                    .into_iter()
                    .map(|m| {
                        let mut line = target.line.clone();
                        line.push(m.clone());
                        Target {
                            position: self.game.apply(&target.position, &m),
                            line,
                            parent_turn: Some(self.node.turn),
                        }
                    })
                    .collect()
            } else {
                Vec::new()
            };
        for child in children {
            if self.seen.insert(child.position.clone()) {
                self.queue.push_back(child);
            }
        }
        self.visit.as_mut().expect("checked above").entry = Some(entry);
        -1
    }

    fn position_fields(&self, target: &Target) -> Map<String, Value> {
        let mut entry = Map::new();
        entry.insert("cells".into(), json!(target.position.cells));
        entry.insert("first".into(), json!(target.position.first_to_move));
        entry.insert("line".into(), self.line_words(&target.line));
        entry
    }

    fn entry(&mut self) -> Option<&mut Map<String, Value>> {
        self.visit.as_mut().and_then(|v| v.entry.as_mut())
    }

    fn listed_move(&self, k: i64) -> Value {
        usize::try_from(k)
            .ok()
            .and_then(|k| self.node.raw.get(k))
            .map_or(Value::Null, |r| match self.decode(r) {
                Some(m) => json!(m),
                None => json!({ "raw": r }),
            })
    }
}

impl World for Explorer {
    fn answer(&mut self, operation: usize, args: &[i64]) -> i64 {
        let arg = |i: usize| args.get(i).copied().unwrap_or(0);
        match operation {
            op::BEGIN => self.begin(),
            op::FACTS => {
                self.node = Node {
                    over: arg(0) != 0,
                    static_value: arg(1),
                    turn: arg(2),
                    ..Node::default()
                };
                0
            }
            op::LIST => {
                self.node.listed = arg(0);
                self.node.fields = arg(1);
                self.node.raw.clear();
                0
            }
            op::MOVE => {
                let fields = usize::try_from(self.node.fields).unwrap_or(0).min(4);
                if self.node.raw.len() < MAX_LISTED {
                    self.node.raw.push(args[..fields.min(args.len())].to_vec());
                }
                0
            }
            op::STEP => self.step(),
            op::RESTORED => {
                let mv = self.listed_move(arg(0));
                if let Some(e) = self.entry() {
                    // One report per listed move: more are frames of the student's code,
                    // kept bounded and said (a flood held the host's memory).
                    let list = e.entry("restored").or_insert_with(|| json!([]));
                    let full = list.as_array().is_some_and(|a| a.len() >= MAX_LISTED);
                    if full {
                        e.insert("flooded".into(), json!(true));
                    } else if let Some(a) = list.as_array_mut() {
                        // The driver tells the state's digest before and after; whether
                        // they are the same is decided here, never in the child.
                        let same = i64::from(arg(1) == arg(2));
                        a.push(json!([mv, same, arg(3)]));
                    }
                }
                0
            }
            op::BEST => {
                if let Some(e) = self.entry() {
                    // -1: the program has no FindBestMove labgrade can call.
                    e.insert("found".into(), json!(arg(0)));
                    e.insert("rating".into(), json!(arg(1)));
                }
                0
            }
            op::CHOSEN => {
                let fields = usize::try_from(self.node.fields).unwrap_or(0).min(4);
                let raw = args[..fields.min(args.len())].to_vec();
                let chosen = match self.decode(&raw) {
                    Some(m) => json!(m),
                    None => json!({ "raw": raw }),
                };
                if let Some(e) = self.entry() {
                    e.insert("chosen".into(), chosen);
                }
                0
            }
            op::NO_MOVES => {
                if let Some(e) = self.entry() {
                    e.insert("no_moves".into(), json!(true));
                }
                0
            }
            op::LIMIT => self.game.rules().longest_game() + 1,
            op::RULES => usize::try_from(arg(0))
                .ok()
                .and_then(|i| self.game.rules().code().get(i).copied())
                .unwrap_or(-1),
            _ => 0,
        }
    }

    /// With `begin`: the encoding, the line to the position to visit and the lines of the
    /// visits queued after it (those that stay within [`MAX_VISITS`]), so that the child's
    /// [`super::game_steering::Steering`] walks them without asking; nothing before the
    /// encoding is known (the start's visit, where it is fitted).
    fn told(&self, operation: usize) -> Vec<i64> {
        match (operation, &self.visit, &self.encoding) {
            (op::BEGIN, Some(visit), Some(encoding)) if visit.made == 0 => {
                let room = MAX_VISITS.saturating_sub(self.visits);
                let queued = self.queue.iter().take(room).map(|t| t.line.as_slice());
                super::game_steering::plan_words(
                    encoding,
                    std::iter::once(visit.target.line.as_slice()).chain(queued),
                )
            }
            _ => Vec::new(),
        }
    }

    /// Everything seen: the start's list as given, how moves were read, an entry per
    /// position visited.
    fn state(&self) -> Value {
        let mut entries = self.entries.clone();
        if let Some(e) = self.visit.as_ref().and_then(|v| v.entry.as_ref()) {
            entries.push(Value::Object(e.clone()));
        }
        json!({
            "encoding": self.encoding.map(|e| e.describe(self.game.rules())),
            "start_list": self.start_list,
            "positions": entries,
            "truncated": self.truncated,
        })
    }
}

#[cfg(test)]
mod tests {
    use labgrade_reference::roberts_game::{drive, Check, Rules, EVEN_PILE, NIM};

    use super::super::game::Canonical;

    use super::super::game_steering::Steering;
    use super::super::remote_world::Shortcut;
    use super::*;

    /// The child's steering must answer every `begin` and `step` it answers itself exactly
    /// as the host's explorer does, over every game (played by the reference's side of the
    /// driver), and must answer most of them.
    #[test]
    fn the_child_s_steering_answers_as_the_explorer_does() {
        for rules in [NIM, EVEN_PILE, Rules::Rows(vec![3, 4, 5]), Rules::TicTacToe] {
            let mut explorer = Explorer::new(Box::new(Canonical::new(rules.clone())));
            let mut steering = Steering::default();
            let (mut asked, mut answered) = (0, 0);
            drive(&rules, Check::Moves, &mut |operation, args| {
                steering.sent(operation, &args);
                let returns = matches!(operation, op::BEGIN | op::STEP);
                let known = if returns {
                    steering.answer(operation)
                } else {
                    None
                };
                let truth = explorer.answer(operation, &args);
                match known {
                    Some(k) => {
                        assert_eq!(k, truth, "{rules:?}: op {operation}");
                        answered += 1;
                    }
                    None if returns => {
                        steering.told(operation, &explorer.told(operation), truth);
                        asked += 1;
                    }
                    None => {}
                }
                truth
            });
            assert!(
                answered > 10 * asked,
                "{rules:?}: {answered} answered in the child, {asked} asked"
            );
            let seen = explorer.state()["positions"].as_array().unwrap().len();
            assert!(seen > 10, "{rules:?}: {seen} positions");
        }
    }
}
