//! Roberts' game side through the kit: exercises 10, 11 and 12 and Figure 7-6's tic-tac-toe,
//! each a problem whose functions are labgrade's driver (`specs/lib/lg_game_driver.cpp`,
//! compiled on its own) reaching the student's game through the adapter compiled after their
//! sources (`specs/lib/lg_game_adapter.h`). The driver's [`Explorer`] world keeps what the student's
//! functions answer in every position; this module judges it on the canonical game
//! ([`Rules`]), in the exercise's words.

use labgrade_reference::kit::Tally;
use labgrade_reference::roberts_game::{
    self as reference, Check, Move, Position, Rules, EVEN_PILE, NIM,
};
use serde_json::{json, Map, Value};

use super::game::{Canonical, Game, GameTable, TableGame};
use super::game_side::Explorer;
use super::game_steering::Steering;
use super::world::{Params as WorldParams, World};
use super::{CheckCall, KitAbi, KitProblem, RefCall, RefRun};
use crate::problems::{param, Params, Problem};

/// The explanation of choices that are all best for the game with finished positions rated
/// from the other side (the class report names it from this sentence).
pub const FLIPPED_RATING: &str = "Every choice is the best one were finished games rated from \
     the other side: does EvaluateStaticPosition rate for the player who just moved rather \
     than for the player to move?";

/// The explanation of choices that are all the first move listed, with every rating right.
pub const BEST_NOT_KEPT: &str = "Every choice is the first move GenerateMoveList lists, and \
     every rating is right: is the best move kept when a better one is found?";

/// What the driver reports as the turn of a game without `WhoseTurn` (not checked then).
const NO_TURN: i64 = -(1 << 40);

/// The child's sides. The driver's world knows the canonical game (it steers the driver
/// from position to position), so it is hosted: the child holds none of it.
pub static NIM_ABI: KitAbi = KitAbi::hosted(
    "roberts-nim-game",
    include_str!("../../../specs/roberts-nim-game.toml"),
    Some(Steering::boxed),
);
/// Exercise 11's.
pub static EVEN_PILE_ABI: KitAbi = KitAbi::hosted(
    "roberts-even-nim",
    include_str!("../../../specs/roberts-even-nim.toml"),
    Some(Steering::boxed),
);
/// Exercise 12's.
pub static ROWS_ABI: KitAbi = KitAbi::hosted(
    "roberts-three-row-nim",
    include_str!("../../../specs/roberts-three-row-nim.toml"),
    Some(Steering::boxed),
);
/// Figure 7-6's.
pub static TICTACTOE_ABI: KitAbi = KitAbi::hosted(
    "roberts-tictactoe-game",
    include_str!("../../../specs/roberts-tictactoe-game.toml"),
    Some(Steering::boxed),
);

/// The grader's sides: the book's rules steer the driver and judge what it saw, and a
/// student bundle gets the table of the game they give ([`GameTable`]).
pub static NIM_PROBLEM: KitProblem = KitProblem::new(&NIM_ABI, |c| run_reference(&NIM, c))
    .with_hosted_world(|_, _, _| explorer(canonical(NIM)))
    .with_checker(|c| Ok(judge(&*canonical(NIM)?, c)?))
    .with_evidence(|_, _, _, _| table_of(NIM))
    .with_checked_values_hidden()
    .with_console(|_, stdin| Ok(console_exit(&NIM, stdin)));
/// Exercise 11's.
pub static EVEN_PILE_PROBLEM: KitProblem =
    KitProblem::new(&EVEN_PILE_ABI, |c| run_reference(&EVEN_PILE, c))
        .with_hosted_world(|_, _, _| explorer(canonical(EVEN_PILE)))
        .with_checker(|c| Ok(judge(&*canonical(EVEN_PILE)?, c)?))
        .with_evidence(|_, _, _, _| table_of(EVEN_PILE))
        .with_checked_values_hidden()
        .with_console(|_, stdin| Ok(console_exit(&EVEN_PILE, stdin)));
/// Exercise 12's.
pub static ROWS_PROBLEM: KitProblem = KitProblem::new(&ROWS_ABI, |c| {
    run_reference(&rows_of(&ROWS_PROBLEM, c.params), c)
})
.with_hosted_world(|_, _, params| explorer(canonical(rows_in(params)?)))
.with_checker(|c| Ok(judge(&*canonical(rows_of(&ROWS_PROBLEM, c.params))?, c)?))
.with_evidence(|_, _, _, params| table_of(rows_of(&ROWS_PROBLEM, params)))
.with_checked_values_hidden();
/// Figure 7-6's.
pub static TICTACTOE_PROBLEM: KitProblem =
    KitProblem::new(&TICTACTOE_ABI, |c| run_reference(&Rules::TicTacToe, c))
        .with_hosted_world(|_, _, _| explorer(canonical(Rules::TicTacToe)))
        .with_checker(|c| Ok(judge(&*canonical(Rules::TicTacToe)?, c)?))
        .with_evidence(|_, _, _, _| table_of(Rules::TicTacToe))
        .with_checked_values_hidden()
        .with_console(|_, stdin| Ok(console_exit(&Rules::TicTacToe, stdin)));

/// The student bundle's sides: the table of the game, from the bundle's evidence, steers
/// the driver (in the bundle's world host) and judges; no rule of play is linked.
pub static NIM_JUDGE: KitProblem = KitProblem::new(&NIM_ABI, |c| run_reference(&NIM, c))
    .with_hosted_world(|_, _, _| explorer(tabled(NIM)))
    .with_checker(|c| Ok(judge(&*tabled(NIM)?, c)?))
    .with_checked_values_hidden()
    .judge_only();
/// Exercise 11's.
pub static EVEN_PILE_JUDGE: KitProblem =
    KitProblem::new(&EVEN_PILE_ABI, |c| run_reference(&EVEN_PILE, c))
        .with_hosted_world(|_, _, _| explorer(tabled(EVEN_PILE)))
        .with_checker(|c| Ok(judge(&*tabled(EVEN_PILE)?, c)?))
        .with_checked_values_hidden()
        .judge_only();
/// Exercise 12's.
pub static ROWS_JUDGE: KitProblem = KitProblem::new(&ROWS_ABI, |c| {
    run_reference(&rows_of(&ROWS_PROBLEM, c.params), c)
})
.with_hosted_world(|_, _, params| explorer(tabled(rows_in(params)?)))
.with_checker(|c| Ok(judge(&*tabled(rows_of(&ROWS_JUDGE, c.params))?, c)?))
.with_checked_values_hidden()
.judge_only();
/// Figure 7-6's.
pub static TICTACTOE_JUDGE: KitProblem =
    KitProblem::new(&TICTACTOE_ABI, |c| run_reference(&Rules::TicTacToe, c))
        .with_hosted_world(|_, _, _| explorer(tabled(Rules::TicTacToe)))
        .with_checker(|c| Ok(judge(&*tabled(Rules::TicTacToe)?, c)?))
        .with_checked_values_hidden()
        .judge_only();

/// The book's game of `rules`.
fn canonical(rules: Rules) -> Result<Box<dyn Game>, String> {
    Ok(Box::new(Canonical::new(rules)))
}

/// The game of `rules` as the loaded student bundle's table holds it.
fn tabled(rules: Rules) -> Result<Box<dyn Game>, String> {
    let table = GameTable::from_evidence(&rules)?;
    Ok(Box::new(TableGame::new(rules, table)))
}

/// The driver's world over `game`.
fn explorer(game: Result<Box<dyn Game>, String>) -> Result<Box<dyn World>, String> {
    Ok(Box::new(Explorer::new(game?)))
}

/// The table of `rules`' game, as a student bundle's evidence.
fn table_of(rules: Rules) -> Map<String, Value> {
    let mut facts = Map::new();
    if let Some(table) = GameTable::of(&Canonical::new(rules.clone()), TABLE_LIMIT) {
        facts.insert(GameTable::key(&rules), table.to_value());
    }
    facts
}

/// The most positions a bundle's table of a game holds (tic-tac-toe has 5,478; a course's
/// three rows of up to 9 coins, 2,000).
const TABLE_LIMIT: usize = 50_000;

/// How the reference's console program ends on `stdin`: 0 after a whole game, 1 when input
/// runs out first.
fn console_exit(rules: &Rules, stdin: &str) -> i32 {
    i32::from(!reference::play_on(rules, stdin).0)
}

/// Exercise 12's rows, as the course sets them.
fn rows_of(problem: &KitProblem, params: &Params) -> Rules {
    let rows = ["ROW1", "ROW2", "ROW3"].map(|r| param(problem.parameters(), params, r));
    Rules::Rows(rows.to_vec())
}

/// Exercise 12's rows in the world's parameters (every parameter's value is always passed).
fn rows_in(params: WorldParams<'_>) -> Result<Rules, String> {
    let rows = ["ROW1", "ROW2", "ROW3"]
        .iter()
        .map(|name| params.and_then(|p| p.get(*name)).and_then(Value::as_i64))
        .collect::<Option<Vec<i64>>>()
        .ok_or("the starting rows (ROW1..ROW3) were not passed to the world")?;
    Ok(Rules::Rows(rows))
}

/// The reference plays the driver's part on the canonical game, through the same world.
fn run_reference(rules: &Rules, c: RefCall<'_>) -> Result<RefRun, String> {
    let check = Check::of(c.function).ok_or_else(|| format!("no check `{}`", c.function))?;
    let world = c
        .world
        .ok_or("the game side needs labgrade's driver world")?;
    reference::drive(rules, check, &mut |op, args| world.call(op, args));
    let mut value = Map::new();
    value.insert("return".into(), json!(0));
    Ok(RefRun {
        value: Some(value),
        tally: Tally::new(0),
        stdout: None,
    })
}

/// One position as the driver saw it.
struct Seen<'a> {
    position: Position,
    entry: &'a Map<String, Value>,
}

impl Seen<'_> {
    fn flag(&self, key: &str) -> bool {
        self.entry
            .get(key)
            .and_then(Value::as_bool)
            .unwrap_or(false)
    }
    fn int(&self, key: &str) -> Option<i64> {
        self.entry.get(key).and_then(Value::as_i64)
    }
    fn arrived(&self) -> bool {
        !self.entry.contains_key("lost_at")
    }
    /// Where it is, and the line that leads there.
    fn at(&self, game: &dyn Game) -> String {
        let line: Vec<&str> = self
            .entry
            .get("line")
            .and_then(Value::as_array)
            .map(|l| l.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let place = game.describe(&self.position);
        if line.is_empty() {
            format!("at the start ({place})")
        } else {
            format!("at {place} (after {})", line.join(", "))
        }
    }
}

/// The canonical position an entry of the driver's record is about.
fn position_of(entry: &Map<String, Value>) -> Option<Position> {
    Some(Position {
        cells: entry
            .get("cells")?
            .as_array()?
            .iter()
            .map(Value::as_i64)
            .collect::<Option<_>>()?,
        first_to_move: entry.get("first")?.as_bool()?,
    })
}

fn as_move(v: &Value) -> Option<Move> {
    v.as_array()?.iter().map(Value::as_i64).collect()
}

/// A listed move in words, or its integers when it reads as no move of the game.
fn shown(game: &dyn Game, v: &Value) -> String {
    match as_move(v) {
        Some(m) => game.describe_move(&m),
        None => format!("{} (no move of this game)", v.get("raw").unwrap_or(v)),
    }
}

fn list_words(game: &dyn Game, moves: &[Move]) -> String {
    if moves.is_empty() {
        return "none".into();
    }
    moves
        .iter()
        .map(|m| game.describe_move(m))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What is wrong with a listed set of moves: the legal moves missing, the ones listed that
/// are not legal (or not moves of this game at all), the ones listed twice.
fn list_difference(game: &dyn Game, listed: &[Value], legal: &[Move]) -> String {
    let got: Vec<Option<Move>> = listed.iter().map(as_move).collect();
    let missing: Vec<Move> = legal
        .iter()
        .filter(|m| !got.contains(&Some(m.to_vec())))
        .cloned()
        .collect();
    let mut parts = Vec::new();
    if !missing.is_empty() {
        parts.push(format!(
            "GenerateMoveList leaves out {}",
            list_words(game, &missing)
        ));
    }
    let extra: Vec<String> = listed
        .iter()
        .filter(|v| as_move(v).is_none_or(|m| !legal.contains(&m)))
        .map(|v| shown(game, v))
        .collect();
    if !extra.is_empty() {
        parts.push(format!("it lists {}, not legal here", extra.join(", ")));
    }
    let twice: Vec<String> = legal
        .iter()
        .filter(|m| got.iter().filter(|g| g.as_ref() == Some(m)).count() > 1)
        .map(|m| game.describe_move(m))
        .collect();
    if !twice.is_empty() {
        parts.push(format!("it lists {} more than once", twice.join(", ")));
    }
    parts.join("; ")
}

/// How the failures of one check read: how many positions, and the first. The positions are
/// those of the book's game that labgrade reached through the student's own moves (a game
/// with wrong rules may reach others, which are not visited), so that is what is said.
fn failures(what: &str, found: &[String], seen: usize) -> Result<String, String> {
    match found.first() {
        None => Ok(String::new()),
        Some(first) => Err(format!(
            "{what} in {} of the {seen} positions of the book's game labgrade reached through \
             your moves; the first: {first}",
            found.len()
        )),
    }
}

/// Judges what the driver saw of the student's game under check `c.function`.
fn judge(game: &dyn Game, c: &CheckCall<'_>) -> Result<String, String> {
    let Some(check) = Check::of(c.function) else {
        return Err(format!("labgrade has no check `{}`", c.function));
    };
    let record = c.got.get("game").cloned().unwrap_or(Value::Null);
    if record.get("encoding").is_none_or(Value::is_null) {
        return Err(no_walk(game, &record));
    }
    let positions = seen_positions(&record);
    let arrived: Vec<&Seen<'_>> = positions.iter().filter(|s| s.arrived()).collect();
    let note = if record["truncated"].as_bool() == Some(true) {
        format!(
            "(labgrade looked at the first {} positions only)",
            arrived.len()
        )
    } else {
        String::new()
    };
    let ok = |found: Vec<String>, what: &str| {
        failures(what, &found, arrived.len()).map(|_| note.clone())
    };
    match check {
        Check::Moves => ok(wrong_lists(game, &arrived), "GenerateMoveList is wrong"),
        Check::GameOver => {
            let (found, early) = wrong_ends(game, &arrived);
            let r = ok(
                found,
                "GameIsOver, EvaluateStaticPosition or WhoseTurn is wrong",
            );
            r.map(|n| {
                if early {
                    format!(
                        "your game ends one move early where that move is forced, rated for the \
                         right player: accepted {n}"
                    )
                    .trim_end()
                    .to_string()
                } else {
                    n
                }
            })
        }
        Check::MakeRetract => ok(
            unrestored(game, &arrived)?,
            "RetractMove does not undo MakeMove",
        ),
        Check::OwnSearch if arrived.iter().any(|s| s.int("found") == Some(-1)) => Err(
            "labgrade cannot call your FindBestMove as the book declares it: \
                 moveT FindBestMove(stateT state, int depth, int & rating) (or, in the C \
                 edition, int *pRating); the exercise keeps the general part unchanged"
                .into(),
        ),
        Check::BestMove | Check::OwnSearch => {
            let own = check == Check::OwnSearch;
            let choices = wrong_choices(game, &arrived, own);
            let r = ok(
                choices.found,
                if own {
                    "your FindBestMove's choice is wrong"
                } else {
                    "the computer's choice is wrong"
                },
            );
            r.map_err(|m| {
                if choices.all_flipped {
                    format!("{m}\n{FLIPPED_RATING}")
                } else if choices.first_always {
                    format!("{m}\n{BEST_NOT_KEPT}")
                } else {
                    m
                }
            })
        }
    }
}

/// Why there is no walk to judge: the record never came back, the moves cannot be read, or
/// the start's list does not match the game's moves.
fn no_walk(game: &dyn Game, record: &Value) -> String {
    let legal = list_words(game, &game.moves(&game.start()));
    let listed = &record["start_list"];
    if listed.is_null() {
        // The driver's record never came back from labgrade's world host: the program
        // closed or wrote over the descriptors the driver reaches it through.
        "labgrade's driver recorded no position of your game: its calls into labgrade did \
         not arrive (does your program close or write to descriptors it did not open?)"
            .to_string()
    } else if listed["listed"].as_i64() == Some(-1) {
        format!(
            "labgrade cannot read your moveT ({} bytes): it reads an integer or enum, a \
             std::pair, or a struct of up to four ints",
            listed["fields"]
        )
    } else {
        format!(
            "labgrade cannot match the moves GenerateMoveList lists at the start ({}) \
             with the game's ({legal}): see specs/roberts-game/game_side.h for how moves \
             are read",
            listed["raw"]
        )
    }
}

/// The positions of the record, each with what the driver saw there.
fn seen_positions(record: &Value) -> Vec<Seen<'_>> {
    record["positions"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|e| {
                    let entry = e.as_object()?;
                    Some(Seen {
                        position: position_of(entry)?,
                        entry,
                    })
                })
                .collect()
        })
        .unwrap_or_default()
}

/// GenerateMoveList: every position where the list is not the legal moves (in any order).
fn wrong_lists(game: &dyn Game, arrived: &[&Seen<'_>]) -> Vec<String> {
    let mut found = Vec::new();
    for s in arrived {
        if s.flag("over") || game.over(&s.position) {
            continue;
        }
        if let Some(size) = s.int("unreadable") {
            found.push(format!(
                "{}: moveT ({size} bytes) cannot be read",
                s.at(game)
            ));
            continue;
        }
        let listed: Vec<Value> = s.entry["moves"].as_array().cloned().unwrap_or_default();
        let mut got: Vec<Option<Move>> = listed.iter().map(as_move).collect();
        got.sort();
        let mut legal: Vec<Option<Move>> = game.moves(&s.position).into_iter().map(Some).collect();
        legal.sort();
        if got != legal {
            found.push(format!(
                "{}: {}",
                s.at(game),
                list_difference(game, &listed, &game.moves(&s.position))
            ));
        }
    }
    found
}

/// GameIsOver, EvaluateStaticPosition and WhoseTurn: the positions where one is wrong, and
/// whether the game ends one move early where that move is forced (accepted when the rating
/// says who wins).
fn wrong_ends(game: &dyn Game, arrived: &[&Seen<'_>]) -> (Vec<String>, bool) {
    let (mut found, mut early) = (Vec::new(), false);
    for s in arrived {
        let over = s.flag("over");
        let rule_over = game.over(&s.position);
        let rating = s.int("static").unwrap_or(0).signum();
        if over && rule_over {
            let outcome = game.outcome(&s.position);
            if rating != outcome {
                found.push(format!(
                    "{}: the game is over and EvaluateStaticPosition rates it {} for the \
                     player to move; it is {}",
                    s.at(game),
                    reference::outcome_word(rating),
                    reference::outcome_word(outcome)
                ));
            }
        } else if over {
            let forced = game.moves(&s.position).len() == 1;
            if forced && rating == game.value(&s.position) {
                early = true;
            } else {
                found.push(format!(
                    "{}: GameIsOver says the game is over, but it goes on ({} possible)",
                    s.at(game),
                    list_words(game, &game.moves(&s.position))
                ));
            }
        } else if rule_over {
            found.push(format!(
                "{}: the game is over, but GameIsOver says it goes on",
                s.at(game)
            ));
        }
        if let (Some(turn), Some(parent)) = (s.int("turn"), s.int("parent_turn")) {
            if turn == parent && turn != NO_TURN {
                found.push(format!(
                    "{}: WhoseTurn names the same player as before the last move",
                    s.at(game)
                ));
            }
        }
    }
    (found, early)
}

/// MakeMove then RetractMove: every pair after which the state is not what it was (as the
/// host judged from the driver's digests). Err when the record holds more reports than the
/// driver sends: the student's code wrote to labgrade's channel itself.
fn unrestored(game: &dyn Game, arrived: &[&Seen<'_>]) -> Result<Vec<String>, String> {
    if let Some(s) = arrived
        .iter()
        .find(|s| s.entry.get("flooded") == Some(&Value::Bool(true)))
    {
        return Err(format!(
            "labgrade received more MakeMove/RetractMove reports than moves listed ({}; its \
             driver sends one per move): your code wrote to labgrade's channel itself, so \
             this check cannot pass",
            s.at(game)
        ));
    }
    let mut found = Vec::new();
    for s in arrived {
        let restored = s.entry.get("restored").and_then(Value::as_array);
        for r in restored.into_iter().flatten() {
            let Some(r) = r.as_array() else { continue };
            if r.get(1).and_then(Value::as_i64) == Some(1) {
                continue;
            }
            let mv = shown(game, r.first().unwrap_or(&Value::Null));
            let how = if r.get(2).and_then(Value::as_i64) == Some(0) {
                "the state's bytes differ"
            } else {
                "GameIsOver, EvaluateStaticPosition, WhoseTurn or GenerateMoveList answer \
                 differently; stateT is not plain data, so labgrade compares what they answer, \
                 making and retracting the listed moves in turn: a change they do not show may \
                 come from an earlier pair"
            };
            found.push(format!(
                "{}: after MakeMove({mv}) and RetractMove({mv}) the state is not what it was \
                 ({how})",
                s.at(game)
            ));
        }
    }
    Ok(found)
}

/// What a search's choices showed: the wrong ones, and the two explanations' evidence.
struct Choices {
    found: Vec<String>,
    /// Every choice and rating is what a search over flipped ratings gives.
    all_flipped: bool,
    /// Every choice is the first move listed, every rating right: bestMove never updated.
    first_always: bool,
}

/// The book's FindBestMove over the student's game (or, `own`, their own FindBestMove):
/// every position where it chooses a move that is not among the best, or rates wrong.
fn wrong_choices(game: &dyn Game, arrived: &[&Seen<'_>], own: bool) -> Choices {
    let search = if own {
        "your FindBestMove"
    } else {
        "the book's FindBestMove over your game"
    };
    let mut found = Vec::new();
    let mut all_flipped = true;
    for s in arrived {
        if s.flag("over") || game.over(&s.position) {
            continue;
        }
        if s.flag("no_moves") {
            found.push(format!(
                "{}: {search}, looking ahead from here, reaches a position where your \
                 GameIsOver says the game goes on but your GenerateMoveList lists no move: \
                 Figure 7-6 stops there with Error(\"No moves available\") (a full board or \
                 an empty pile must end the game)",
                s.at(game)
            ));
            continue;
        }
        let (why, flipped) = judge_choice(game, s, search);
        // A position with no legal choice is no evidence either way.
        all_flipped &= flipped.unwrap_or(true);
        found.extend(why);
    }
    let first_always = arrived
        .iter()
        .filter(|s| s.entry.contains_key("chosen"))
        .all(|s| {
            s.entry["moves"].get(0) == s.entry.get("chosen")
                && s.int("rating").map(i64::signum) == Some(game.value(&s.position))
        });
    Choices {
        found,
        all_flipped,
        first_always,
    }
}

/// One position's choice: why it is wrong (None when right), and whether the choice and
/// rating are those a search over flipped ratings gives (None without a legal choice).
fn judge_choice(game: &dyn Game, s: &Seen<'_>, search: &str) -> (Option<String>, Option<bool>) {
    let Some(chosen) = s.entry.get("chosen") else {
        return (
            Some(format!("{}: {search} finds no move", s.at(game))),
            None,
        );
    };
    let Some(mv) = as_move(chosen).filter(|m| game.moves(&s.position).contains(m)) else {
        let why = format!(
            "{}: {search} chooses {}, which is not a legal move",
            s.at(game),
            shown(game, chosen)
        );
        return (Some(why), None);
    };
    let value = game.value(&s.position);
    let next = game.apply(&s.position, &mv);
    let got = -game.value(&next);
    let rating = s.int("rating").unwrap_or(0).signum();
    let flipped_value = game.value_flipped(&s.position);
    let flipped = Some(-game.value_flipped(&next) == flipped_value && rating == flipped_value);
    if got != value {
        let best: Vec<Move> = game
            .moves(&s.position)
            .into_iter()
            .filter(|m| -game.value(&game.apply(&s.position, m)) == value)
            .collect();
        let why = format!(
            "{}: {search} chooses {}, which is {} for the player to move; {} {}",
            s.at(game),
            game.describe_move(&mv),
            reference::outcome_word(got),
            list_words(game, &best),
            if best.len() == 1 {
                format!("is {}", reference::outcome_word(value))
            } else {
                format!("are {}", reference::outcome_word(value))
            }
        );
        return (Some(why), flipped);
    }
    if rating != value {
        let why = format!(
            "{}: {search} rates the position {} for the player to move; it is {}",
            s.at(game),
            reference::outcome_word(rating),
            reference::outcome_word(value)
        );
        return (Some(why), flipped);
    }
    (None, flipped)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    fn judged(rules: &Rules, function: &str, game: Value) -> Result<String, String> {
        let got: Map<String, Value> = [("game".to_string(), game)].into_iter().collect();
        judge(
            &Canonical::new(rules.clone()),
            &CheckCall {
                problem: "roberts-nim-game",
                function,
                args: &[],
                params: &Params::new(),
                expected: &Map::new(),
                got: &got,
                tags: &[],
            },
        )
    }

    /// The reference's own record, through the world, passes every check.
    #[test]
    fn the_reference_passes_every_check() {
        for rules in [
            NIM,
            EVEN_PILE,
            Rules::Rows(vec![3, 4, 5]),
            Rules::Rows(vec![1, 2, 2]),
        ] {
            for f in [
                "lg_moves",
                "lg_game_over",
                "lg_make_retract",
                "lg_best_move",
            ] {
                let mut world = Explorer::new(Box::new(Canonical::new(rules.clone())));
                reference::drive(&rules, Check::of(f).unwrap(), &mut |op, a| {
                    world.answer(op, &a)
                });
                let game = world.state();
                let n = game["positions"].as_array().unwrap().len();
                assert!(n > 10, "{rules:?}: {n} positions");
                assert_eq!(judged(&rules, f, game), Ok(String::new()), "{rules:?} {f}");
            }
        }
    }

    /// A record with no position in it (a driver function that never ran) passes nothing.
    #[test]
    fn an_empty_record_passes_no_check() {
        let world = Explorer::new(Box::new(Canonical::new(NIM)));
        for f in [
            "lg_moves",
            "lg_game_over",
            "lg_make_retract",
            "lg_best_move",
        ] {
            assert!(judged(&NIM, f, world.state()).is_err(), "{f}");
            assert!(judged(&NIM, f, Value::Null).is_err(), "{f}");
        }
    }

    /// A search that rates finished games for the wrong player is told so; one wrong choice
    /// alone is not.
    #[test]
    fn a_flipped_rating_is_explained_only_when_every_choice_fits_it() {
        for rules in [NIM, Rules::Rows(vec![3, 4, 5])] {
            let mut world = Explorer::new(Box::new(Canonical::new(rules.clone())));
            reference::drive(&rules, Check::BestMove, &mut |op, a| world.answer(op, &a));
            let game = world.state();
            // What a search over flipped ratings chooses: the first move best for it.
            let mut flipped = game.clone();
            let mut memo = HashMap::new();
            for e in flipped["positions"].as_array_mut().unwrap() {
                if e.get("chosen").is_none() {
                    continue;
                }
                let p = position_of(e.as_object().unwrap()).unwrap();
                let v = rules.value_flipped(&p, &mut memo);
                let m = rules
                    .moves(&p)
                    .into_iter()
                    .find(|m| -rules.value_flipped(&rules.apply(&p, m), &mut memo) == v)
                    .unwrap();
                e["chosen"] = json!(m);
                e["rating"] = json!(1000 * v);
            }
            let told = judged(&rules, "lg_best_move", flipped).unwrap_err();
            assert!(told.contains("other side"), "{told}");
            // One wrong choice (the first position with a losing move): no such explanation.
            let mut one = game.clone();
            let mut memo = HashMap::new();
            let e = one["positions"]
                .as_array_mut()
                .unwrap()
                .iter_mut()
                .filter(|e| e.get("chosen").is_some())
                .find_map(|e| {
                    let p = position_of(e.as_object().unwrap()).unwrap();
                    let v = rules.value(&p, &mut memo);
                    let bad = rules
                        .moves(&p)
                        .into_iter()
                        .find(|m| -rules.value(&rules.apply(&p, m), &mut memo) != v)?;
                    Some((e, bad))
                })
                .unwrap();
            e.0["chosen"] = json!(e.1);
            let told = judged(&rules, "lg_best_move", one).unwrap_err();
            assert!(told.contains("in 1 of the"), "{told}");
            assert!(!told.contains("other side"), "{told}");
        }
    }
}
