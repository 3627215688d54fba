//! The console game of Figure 7-4, played against the strategy in lib.rs.
//! The dialogue is the book's, character for character; input is read the
//! way the book's simpio GetInteger reads it.

use std::io::{self, BufRead, Write};
use std::process;

use nim_student::{ChooseComputerMove, MAX_MOVE, N_COINS};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Player {
    Human,
    Computer,
}

fn main() {
    give_instructions();
    let mut n_coins = N_COINS;
    let mut whose_turn = Player::Human;
    while n_coins > 1 {
        println!("There are {n_coins} coins in the pile.");
        let n_taken = match whose_turn {
            Player::Human => {
                whose_turn = Player::Computer;
                get_user_move(n_coins)
            }
            Player::Computer => {
                let n_taken = ChooseComputerMove(n_coins);
                println!("I'll take {n_taken}.");
                whose_turn = Player::Human;
                n_taken
            }
        };
        n_coins -= n_taken;
    }
    announce_winner(n_coins, whose_turn);
}

fn give_instructions() {
    println!("Hello.  Welcome to the game of nim.");
    println!("In this game, we will start with a pile of");
    println!("{N_COINS} coins on the table.  On each turn, you");
    println!("and I will alternately take between 1 and");
    println!("{MAX_MOVE} coins from the table.  The player who");
    println!("takes the last coin loses.");
    println!();
}

fn announce_winner(n_coins: i32, whose_turn: Player) {
    if n_coins == 0 {
        println!("You took the last coin.  You lose.");
    } else {
        println!("There is only one coin left.");
        match whose_turn {
            Player::Human => println!("I win."),
            Player::Computer => println!("I lose."),
        }
    }
}

fn get_user_move(n_coins: i32) -> i32 {
    loop {
        print!("How many would you like? ");
        let _ = io::stdout().flush();
        let n_taken = get_integer();
        if move_is_legal(n_taken, n_coins) {
            return n_taken;
        }
        let limit = if n_coins < MAX_MOVE { n_coins } else { MAX_MOVE };
        println!("That's cheating!  Please choose a number between 1 and {limit}");
        println!("There are {n_coins} coins in the pile.");
    }
}

fn move_is_legal(n_taken: i32, n_coins: i32) -> bool {
    n_taken > 0 && n_taken <= MAX_MOVE && n_taken <= n_coins
}

/// simpio's GetInteger: one line per try; a whole integer (spaces and tabs
/// around an optionally signed run of decimal digits, in range) is returned,
/// anything else asks again; end of input ends the program with status 1.
fn get_integer() -> i32 {
    let stdin = io::stdin();
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = stdin.lock().read_until(b'\n', &mut line).unwrap_or(0);
        if n == 0 {
            let _ = io::stdout().flush();
            eprintln!("GetInteger: unexpected end of input");
            process::exit(1);
        }
        if line.last() == Some(&b'\n') {
            line.pop();
        }
        if let Some(value) = parse_integer(&line) {
            return value;
        }
        println!("Illegal integer format. Try again.");
    }
}

fn parse_integer(line: &[u8]) -> Option<i32> {
    let text = std::str::from_utf8(line).ok()?;
    // i32's FromStr takes exactly an optional sign and one or more ASCII digits.
    text.trim_matches(|c| matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r')).parse().ok()
}
