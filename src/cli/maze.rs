//! `labgrade maze`: print or save a generated maze, to hand out.
//!
//! The maze is the one a fixture with the same parameters grades (`{ seed = S, width = W,
//! height = H, loops = K, exits = N, solvable = false }`): the generator is part of
//! labgrade, so an instructor can give students the exact map a hidden case uses, or a new
//! one to practise on. `--solve` adds what Figure 7-3 does on it: the result, the number of
//! SolveMaze calls, the depth, and the map with the path marked.

use std::path::PathBuf;

use clap::Args;
use labgrade_reference::maze::generate::{generate, Params};
use labgrade_reference::maze::{solve, with_stack, Marked, Variant};

use super::common::CliError;
use crate::exit_codes;

/// Options of `labgrade maze`.
#[derive(Debug, Clone, Args)]
pub struct MazeArgs {
    /// The seed.
    #[arg(long)]
    pub seed: u64,
    /// Columns (1 to 400).
    #[arg(long)]
    pub width: usize,
    /// Rows (1 to 400).
    #[arg(long)]
    pub height: usize,
    /// Inner walls removed after the perfect maze is carved (each makes a loop).
    #[arg(long, default_value_t = 0)]
    pub loops: usize,
    /// Openings in the outer wall.
    #[arg(long, default_value_t = 1)]
    pub exits: usize,
    /// Wall the start off from every exit (`solvable = false` in a fixture).
    #[arg(long)]
    pub sealed: bool,
    /// Write the map to this file instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Also show what Figure 7-3 does on it (on standard error when --out is given).
    #[arg(long)]
    pub solve: bool,
}

/// Runs `labgrade maze`.
pub fn run(a: &MazeArgs) -> Result<i32, CliError> {
    let max = crate::problems::maze::input::MAX_SIDE;
    if !(1..=max).contains(&a.width) || !(1..=max).contains(&a.height) {
        return Err(CliError(format!(
            "--width and --height must be from 1 to {max} (got {} x {})",
            a.width, a.height
        )));
    }
    let p = Params {
        seed: a.seed,
        width: a.width,
        height: a.height,
        loops: a.loops,
        exits: a.exits,
        solvable: !a.sealed,
    };
    let maze = generate(&p);
    let text = maze.render();
    match &a.out {
        Some(path) => std::fs::write(path, &text)
            .map_err(|e| CliError(format!("cannot write `{}`: {e}", path.display())))?,
        None => print!("{text}"),
    }
    if a.solve {
        let m = maze.clone();
        let (ok, run, marked) = with_stack(512, move || {
            let mut lib = Marked::new(m.clone());
            let (ok, run) = solve(&mut lib, m.start(), Variant::Unmark, 0);
            (ok, run, lib.marked())
        });
        let drawn =
            maze.render_with(|pt| (marked.contains(&pt) && pt != maze.start()).then_some('*'));
        let report = format!(
            "\nSolveMaze({}) returns {ok} after {} calls, {} deep (Figure 7-3, North, East, \
             South, West){}\n{}",
            maze.start(),
            run.calls,
            run.max_depth,
            if ok { "; the marked path:" } else { "" },
            if ok { drawn } else { String::new() }
        );
        if a.out.is_some() {
            eprint!("{report}");
        } else {
            print!("{report}");
        }
    }
    Ok(exit_codes::OK)
}
