//! The console program of Figure 7-5, printing Figure 7-4's dialogue.
//!
//! One game loop ([`run_game`]) serves three callers through the [`Console`] trait: [`play`]
//! (the exact stdout and exit status, for expectations), [`render_terminal`] (what a person
//! sees, input echoed, for readable reports) and the cdylib's `labgrade_main` (real stdin and
//! stdout, graded like a student's program).
//!
//! The wording is the real program's. The figure in the seed collapsed double spaces and the
//! code listing was mangled by text extraction (a stray `endl` after "coins on the table. ");
//! the figure's line structure wins, with the code's two spaces after each full stop inside a
//! line.
//!
//! Input goes through a port of Roberts' simpio `GetInteger`, matching the `simpio.h` that
//! labgrade gives students:
//! - it reads one line (up to `'\n'`; a last line without `'\n'` still counts);
//! - an integer is optional C whitespace, an optional `+` or `-`, decimal digits fitting in a
//!   C `int`, optional C whitespace, and nothing else; it is returned;
//! - anything else prints `Illegal integer format. Try again.` and a newline to stdout, and
//!   the next line is read without any new prompt;
//! - at end of input it prints `GetInteger: unexpected end of input` and a newline to
//!   stderr, and the program exits with status 1.

use super::Rules;

/// Printed to stdout by `GetInteger` when a line is not an integer.
pub const ILLEGAL_INTEGER: &str = "Illegal integer format. Try again.";
/// Printed to stderr by `GetInteger` at end of input, before exiting with [`EOF_STATUS`].
pub const UNEXPECTED_EOF: &str = "GetInteger: unexpected end of input";
/// Exit status when input runs out.
pub const EOF_STATUS: i32 = 1;

/// What the program printed and how it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transcript {
    /// Everything written to stdout (the input is not echoed).
    pub stdout: String,
    /// Everything written to stderr.
    pub stderr: String,
    /// The process exit status: 0, or [`EOF_STATUS`] when input ran out.
    pub exit_status: i32,
}

/// Where the game reads lines from and writes text to.
pub trait Console {
    /// The next input line without its `'\n'`, or `None` at end of input.
    fn read_line(&mut self) -> Option<String>;
    /// Writes text to stdout.
    fn write(&mut self, text: &str);
}

/// The game ended because `GetInteger` found no more input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EndOfInput;

/// Whose turn it is (the book's `playerT`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Player {
    Human,
    Computer,
}

/// The book's `main`: plays one game, the human first. `choose_computer_move` is the
/// strategy (`ChooseComputerMove`), asked only with two or more coins on the table.
pub fn run_game<C: Console>(
    console: &mut C,
    choose_computer_move: impl FnMut(i64) -> i64,
) -> Result<(), EndOfInput> {
    run_game_with(Rules::BOOK, console, choose_computer_move)
}

/// [`run_game`] with a course's constants (`N_COINS`, `MAX_MOVE`).
pub fn run_game_with<C: Console>(
    rules: Rules,
    console: &mut C,
    mut choose_computer_move: impl FnMut(i64) -> i64,
) -> Result<(), EndOfInput> {
    give_instructions(rules, console);
    let mut n_coins = rules.n_coins;
    let mut whose_turn = Player::Human;
    while n_coins > 1 {
        console.write(&format!("There are {n_coins} coins in the pile.\n"));
        let n_taken = match whose_turn {
            Player::Human => {
                whose_turn = Player::Computer;
                get_user_move(rules, console, n_coins)?
            }
            Player::Computer => {
                let n_taken = choose_computer_move(n_coins);
                console.write(&format!("I'll take {n_taken}.\n"));
                whose_turn = Player::Human;
                n_taken
            }
        };
        n_coins -= n_taken;
    }
    announce_winner(console, n_coins, whose_turn);
    Ok(())
}

fn give_instructions<C: Console>(rules: Rules, console: &mut C) {
    let Rules {
        n_coins, max_move, ..
    } = rules;
    console.write("Hello.  Welcome to the game of nim.\n");
    console.write("In this game, we will start with a pile of\n");
    console.write(&format!(
        "{n_coins} coins on the table.  On each turn, you\n"
    ));
    console.write("and I will alternately take between 1 and\n");
    console.write(&format!(
        "{max_move} coins from the table.  The player who\n"
    ));
    console.write("takes the last coin loses.\n");
    console.write("\n");
}

fn announce_winner<C: Console>(console: &mut C, n_coins: i64, whose_turn: Player) {
    if n_coins == 0 {
        console.write("You took the last coin.  You lose.\n");
    } else {
        console.write("There is only one coin left.\n");
        match whose_turn {
            Player::Human => console.write("I win.\n"),
            Player::Computer => console.write("I lose.\n"),
        }
    }
}

fn get_user_move<C: Console>(
    rules: Rules,
    console: &mut C,
    n_coins: i64,
) -> Result<i64, EndOfInput> {
    loop {
        console.write("How many would you like? ");
        let n_taken = get_integer(console)?;
        if move_is_legal(rules, n_taken, n_coins) {
            return Ok(n_taken);
        }
        let limit = if n_coins < rules.max_move {
            n_coins
        } else {
            rules.max_move
        };
        console.write("That's cheating!  Please choose a number");
        console.write(&format!(" between 1 and {limit}\n"));
        console.write(&format!("There are {n_coins} coins in the pile.\n"));
    }
}

fn move_is_legal(rules: Rules, n_taken: i64, n_coins: i64) -> bool {
    n_taken > 0 && n_taken <= rules.max_move && n_taken <= n_coins
}

/// Roberts' `GetInteger`, see the module doc.
fn get_integer<C: Console>(console: &mut C) -> Result<i64, EndOfInput> {
    loop {
        let line = console.read_line().ok_or(EndOfInput)?;
        if let Some(value) = parse_integer(&line) {
            return Ok(i64::from(value));
        }
        console.write(ILLEGAL_INTEGER);
        console.write("\n");
    }
}

/// Parses a line the way `GetInteger` does (`stream >> value >> ws`, then nothing may be
/// left): C whitespace around an optionally signed decimal that fits in a C `int`.
pub fn parse_integer(line: &str) -> Option<i32> {
    let is_c_space = |c: char| matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r');
    let text = line.trim_matches(is_c_space);
    // `str::parse` accepts exactly an optional sign and at least one decimal digit, and
    // fails on overflow, as the stream extraction does.
    text.parse::<i32>().ok()
}

/// Splits input text into lines the way `getline` reads them.
struct Lines<'a> {
    rest: &'a str,
}

impl<'a> Iterator for Lines<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        if self.rest.is_empty() {
            return None;
        }
        match self.rest.split_once('\n') {
            Some((line, rest)) => {
                self.rest = rest;
                Some(line)
            }
            None => Some(std::mem::take(&mut self.rest)),
        }
    }
}

/// A console over a string, optionally echoing each line read as a terminal would.
struct StringConsole<'a> {
    lines: Lines<'a>,
    out: String,
    echo: bool,
}

impl Console for StringConsole<'_> {
    fn read_line(&mut self) -> Option<String> {
        let line = self.lines.next()?;
        if self.echo {
            self.out.push_str(line);
            self.out.push('\n');
        }
        Some(line.to_owned())
    }

    fn write(&mut self, text: &str) {
        self.out.push_str(text);
    }
}

/// The strategy used by [`play`]: the counted `ChooseComputerMove`, which always returns
/// for the two or more coins the game asks it about.
fn counted_choice(rules: Rules, n_coins: i64) -> i64 {
    match super::run_with(rules, super::Function::ChooseComputerMove, n_coins).value {
        super::Outcome::Returns(super::Value::Int(n_taken)) => n_taken,
        // Unreachable: the game asks only with two or more coins, where the book's
        // recursion always returns. Taking one coin is the book's own fallback move.
        _ => 1,
    }
}

fn run_on_string(rules: Rules, stdin: &str, echo: bool) -> Transcript {
    let mut console = StringConsole {
        lines: Lines { rest: stdin },
        out: String::new(),
        echo,
    };
    let (stderr, exit_status) =
        match run_game_with(rules, &mut console, |n| counted_choice(rules, n)) {
            Ok(()) => (String::new(), 0),
            Err(EndOfInput) => (format!("{UNEXPECTED_EOF}\n"), EOF_STATUS),
        };
    Transcript {
        stdout: console.out,
        stderr,
        exit_status,
    }
}

/// Runs the program on `stdin`: the exact stdout (no echo), stderr and exit status.
pub fn play(stdin: &str) -> Transcript {
    play_with(Rules::BOOK, stdin)
}

/// [`play`] with a course's constants.
pub fn play_with(rules: Rules, stdin: &str) -> Transcript {
    run_on_string(rules, stdin, false)
}

/// The session as a person sees it on a terminal: each input line echoed after the prompt
/// it answers (`How many would you like? 2`), and stderr, if any, at the end, where it
/// appears.
pub fn render_terminal(stdin: &str) -> String {
    let transcript = run_on_string(Rules::BOOK, stdin, true);
    transcript.stdout + &transcript.stderr
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Figure 7-4, verbatim from the seed (markdown: trailing double spaces are line breaks,
    /// and the extraction collapsed the program's double spaces).
    const FIGURE_7_4: &str = "\
Hello. Welcome to the game of nim.  
In this game, we will start with a pile of  
13 coins on the table. On each turn, you  
and I will alternately take between 1 and  
3 coins from the table. The player who  
takes the last coin loses.  
  
There are 13 coins in the pile.  
How many would you like? 2  
There are 11 coins in the pile.  
I'll take 2.  
There are 9 coins in the pile.  
How many would you like? 3  
There are 6 coins in the pile.  
I'll take 1.  
There are 5 coins in the pile.  
How many would you like? 1  
There are 4 coins in the pile.  
I'll take 3.  
There is only one coin left.  
I win.
";

    fn normalise(line: &str) -> String {
        line.split(' ')
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn figure_7_4_sample_game() {
        let shown = render_terminal("2\n3\n1\n");
        let got: Vec<String> = shown.lines().map(normalise).collect();
        let want: Vec<String> = FIGURE_7_4.lines().map(normalise).collect();
        assert_eq!(got, want);
        // The figure keeps leading spaces; the program has none.
        assert!(shown.lines().all(|l| !l.starts_with(' ')));
    }

    #[test]
    fn exact_stdout_of_the_sample_game() {
        let t = play("2\n3\n1\n");
        assert_eq!(t.exit_status, 0);
        assert_eq!(t.stderr, "");
        assert!(t.stdout.starts_with(
            "Hello.  Welcome to the game of nim.\n\
             In this game, we will start with a pile of\n\
             13 coins on the table.  On each turn, you\n\
             and I will alternately take between 1 and\n\
             3 coins from the table.  The player who\n\
             takes the last coin loses.\n\
             \n\
             There are 13 coins in the pile.\n\
             How many would you like? There are 11 coins in the pile.\n"
        ));
        assert!(t
            .stdout
            .ends_with("I'll take 3.\nThere is only one coin left.\nI win.\n"));
        // A last line without '\n' is still read.
        assert_eq!(play("2\n3\n1"), t);
    }

    #[test]
    fn illegal_moves_and_integers() {
        let t = play("0\n4\n-2\nabc\n\n 2 x\n+2\n");
        let after_intro = t.stdout.split_once("\n\n").unwrap().1;
        assert_eq!(
            after_intro,
            "There are 13 coins in the pile.\n\
             How many would you like? \
             That's cheating!  Please choose a number between 1 and 3\n\
             There are 13 coins in the pile.\n\
             How many would you like? \
             That's cheating!  Please choose a number between 1 and 3\n\
             There are 13 coins in the pile.\n\
             How many would you like? \
             That's cheating!  Please choose a number between 1 and 3\n\
             There are 13 coins in the pile.\n\
             How many would you like? \
             Illegal integer format. Try again.\n\
             Illegal integer format. Try again.\n\
             Illegal integer format. Try again.\n\
             There are 11 coins in the pile.\n\
             I'll take 2.\n\
             There are 9 coins in the pile.\n\
             How many would you like? "
        );
        // ... and then input runs out.
        assert_eq!(t.stderr, "GetInteger: unexpected end of input\n");
        assert_eq!(t.exit_status, 1);
    }

    #[test]
    fn a_course_s_pile_and_largest_move_are_printed_and_played() {
        let rules = Rules {
            n_coins: 7,
            max_move: 4,
            ..Rules::BOOK
        };
        // 7 coins, take 1 to 4: the bad positions are 1, 6, 11, ... The human takes 1 and
        // leaves the computer 6, a bad position: it takes 1 (no good move); from 4 it takes 3.
        let t = play_with(rules, "1\n1\n");
        assert!(t.stdout.contains("\n7 coins on the table."), "{}", t.stdout);
        assert!(
            t.stdout.contains("\n4 coins from the table."),
            "{}",
            t.stdout
        );
        assert!(
            t.stdout
                .contains("There are 6 coins in the pile.\nI'll take 1.\n")
                && t.stdout
                    .contains("There are 4 coins in the pile.\nI'll take 3.\n"),
            "{}",
            t.stdout
        );
        assert!(
            t.stdout.ends_with("There is only one coin left.\nI win.\n"),
            "{}",
            t.stdout
        );
        // Moves of 4 are legal under these rules, and 5 is cheating.
        let t = play_with(rules, "5\n1\n1\n");
        assert!(t.stdout.contains("between 1 and 4"), "{}", t.stdout);
    }

    #[test]
    fn the_computer_always_wins() {
        // The human always faces 13, 9 and 5 coins (1 mod 4, bad positions), so every legal
        // game ends with the human left one coin. The cheating limit is therefore always 3.
        for a in 1..=3 {
            for b in 1..=3 {
                for c in 1..=3 {
                    let t = play(&format!("{a}\n{b}\n{c}\n"));
                    assert_eq!(t.exit_status, 0);
                    let chunks: Vec<&str> = t.stdout.split("How many would you like? ").collect();
                    // The line before each prompt says how many coins the human faces.
                    let faced: Vec<&str> = chunks[..chunks.len() - 1]
                        .iter()
                        .filter_map(|chunk| chunk.lines().last())
                        .collect();
                    assert_eq!(
                        faced,
                        [
                            "There are 13 coins in the pile.",
                            "There are 9 coins in the pile.",
                            "There are 5 coins in the pile.",
                        ]
                    );
                    assert!(t.stdout.ends_with("There is only one coin left.\nI win.\n"));
                }
            }
        }
    }

    #[test]
    fn endings_the_sample_game_cannot_reach() {
        let mut c = StringConsole {
            lines: Lines { rest: "" },
            out: String::new(),
            echo: false,
        };
        announce_winner(&mut c, 0, Player::Computer);
        announce_winner(&mut c, 1, Player::Computer);
        assert_eq!(
            c.out,
            "You took the last coin.  You lose.\nThere is only one coin left.\nI lose.\n"
        );
    }

    #[test]
    fn end_of_input_exits_with_status_one() {
        let t = play("");
        assert_eq!(t.exit_status, 1);
        assert_eq!(t.stderr, "GetInteger: unexpected end of input\n");
        assert!(t
            .stdout
            .ends_with("There are 13 coins in the pile.\nHow many would you like? "));
        let shown = render_terminal("2\n");
        assert!(shown.ends_with(
            "There are 9 coins in the pile.\n\
             How many would you like? GetInteger: unexpected end of input\n"
        ));
    }

    #[test]
    fn integer_format() {
        for (line, want) in [
            ("2", Some(2)),
            ("  +3\t", Some(3)),
            ("-2", Some(-2)),
            ("007", Some(7)),
            ("2\r", Some(2)),
            ("2147483647", Some(i32::MAX)),
            ("-2147483648", Some(i32::MIN)),
            ("2147483648", None),
            ("", None),
            ("   ", None),
            ("+", None),
            ("- 2", None),
            ("2 3", None),
            ("2x", None),
            ("0x2", None),
            ("2.0", None),
            ("abc", None),
        ] {
            assert_eq!(parse_integer(line), want, "{line:?}");
        }
    }
}
