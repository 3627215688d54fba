//! The command line: arguments, dispatch, exit codes. Everything else is in the library.

mod check;
mod common;
mod doctor;
mod export;
mod grade;
mod gradescope;
mod list;
mod maze;
mod new;
mod play;
mod play_roberts;
mod report;
mod shard;
mod test;
mod watch;

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

use crate::exit_codes;
use common::CliError;

/// Grades recursive-backtracking assignments beside an exact reference.
#[derive(Debug, Parser)]
#[command(name = "labgrade", version, about, long_about = None)]
pub struct Cli {
    /// Directory holding specs/ and fixtures/ (default: found from the current directory).
    #[arg(long, global = true, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Parallel workers (default: number of CPUs).
    #[arg(long, short = 'j', global = true)]
    pub jobs: Option<usize>,
    /// Build cache directory (default: $LABGRADE_CACHE or ~/.cache/labgrade).
    #[arg(long, global = true, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
    /// When to color output.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// The course file: the course's constants, cases, points and transcript comparison
    /// (default: $LABGRADE_COURSE; none: the books').
    #[arg(long, global = true, value_name = "FILE")]
    pub course: Option<PathBuf>,
    /// A problem package (or a directory of packages) to grade beside the catalogue;
    /// repeatable (default: $LABGRADE_PROBLEMS, directories separated by `:`).
    #[arg(long = "problems", id = "packages", global = true, value_name = "DIR")]
    pub packages: Vec<PathBuf>,
    /// The command.
    #[command(subcommand)]
    pub command: Command,
}

/// When to color output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// When standard output is a terminal and NO_COLOR is unset.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// Output formats of `check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Colored text for a person.
    Text,
    /// The JSON report.
    Json,
    /// Gradescope's results.json.
    Gradescope,
    /// JUnit XML.
    Junit,
}

/// labgrade's commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the problems with title, source and number of cases, or one problem's cases.
    #[command(after_help = "Examples:\n  labgrade list\n  labgrade list nim")]
    List {
        /// A problem: list its cases with points, visibility and tags.
        problem: Option<String>,
    },
    /// Self-check one submission on the visible cases.
    #[command(
        after_help = "Examples:\n  labgrade check nim my-nim/\n  labgrade check nim my-nim/ \
                            --case 'FindGoodMove/*' --failures-only\n  labgrade check nim \
                            my-nim/ --rerun-failed\n  labgrade check nim my-nim/ --watch\n  labgrade check nim my-nim/ --fix-hint\n\nExit: 0 every case run passed, 1 some \
                            did not, 2 labgrade could not grade."
    )]
    Check {
        /// The problem (see `labgrade list`).
        problem: String,
        /// A source directory or file, a shared library, or an executable.
        submission: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Also run hidden cases.
        #[arg(long)]
        all: bool,
        /// Show passing cases' details and build notes.
        #[arg(long, short)]
        verbose: bool,
        /// Run only the cases whose name matches this glob (repeatable), e.g.
        /// --case 'FindGoodMove/*'.
        #[arg(long = "case", value_name = "GLOB")]
        cases: Vec<String>,
        /// Run only the cases with this tag (repeatable), e.g. --tag recursion.
        #[arg(long = "tag", value_name = "TAG")]
        tags: Vec<String>,
        /// Run only the cases that did not pass the last time this submission was checked.
        #[arg(long)]
        rerun_failed: bool,
        /// List only the cases that did not pass (the summary still counts every case).
        #[arg(long)]
        failures_only: bool,
        /// Check again whenever the submission's files change, saying which cases newly
        /// pass or fail (Ctrl-C to stop).
        #[arg(long)]
        watch: bool,
        /// When visible cases fail, look for the one small change to your own code after
        /// which every visible case passes, and say where it is (`location`, the default)
        /// or what it is (`change`).
        #[arg(long, value_enum, num_args = 0..=1, default_missing_value = "location", value_name = "LEVEL")]
        fix_hint: Option<crate::fix::Level>,
    },
    /// Grade a class on all cases: a plain directory (one entry per student) or a
    /// Gradescope, Canvas or Moodle export. Notes, READMEs and PDFs are skipped and listed.
    #[command(
        after_help = "Examples:\n  labgrade grade nim tests/submissions/nim --out grades\n  \
                            labgrade grade nim gradescope-export/ --out grades --roster \
                            roster.csv\n  labgrade grade nim tests/submissions/nim --out grades --csv-cases --all-formats\n\nA result is reused until the submission, the \
                            problem's spec, fixtures or course file, or labgrade changes: a \
                            stopped run resumes where it stopped.\n\nExit: 0 every submission \
                            passed everything, 1 some did not, 2 bad arguments."
    )]
    Grade {
        /// The problem.
        problem: String,
        /// The class: a directory of submissions, or an unpacked Gradescope, Canvas or
        /// Moodle export.
        dir: PathBuf,
        /// Where to write <name>.json per submission, grades.csv, class.csv (who handed in
        /// what, what was skipped and why) and the class report report.html.
        #[arg(long)]
        out: PathBuf,
        /// Also write Gradescope results (<name>.gradescope.json) and junit.xml.
        #[arg(long)]
        all_formats: bool,
        /// The course roster: a CSV file with an `id` column (the student id every output
        /// carries), optionally `name`, and any other ids of the student (email, Canvas
        /// login, Gradescope sid) in other columns.
        #[arg(long, value_name = "FILE")]
        roster: Option<PathBuf>,
        /// Grade every submission again, reusing no earlier result.
        #[arg(long)]
        force: bool,
        /// Add a `case:<name>` column per case (its points, hidden cases too) to grades.csv.
        #[arg(long)]
        csv_cases: bool,
        /// Grade only shard I of N (from 1: 1/4 ... 4/4), a share of the class chosen by a
        /// hash of each submission's name; `labgrade merge` puts the shards together.
        #[arg(long, value_name = "I/N")]
        shard: Option<shard::Shard>,
        /// For each failing submission, look for the one small edit of its own code after
        /// which every case passes, and group the class by those fixes (report.html and
        /// class.csv).
        #[arg(long)]
        fix_hints: bool,
    },
    /// Put the output directories of `grade --shard` together: the reports, grades.csv,
    /// class.csv, report.html (and junit.xml) of the whole class, as one `grade` run writes.
    #[command(
        after_help = "Examples:\n  labgrade grade nim class --out out/shard-1 --shard 1/2\n  \
                            labgrade grade nim class --out out/shard-2 --shard 2/2\n  \
                            labgrade merge out/shard-1 out/shard-2 --out grades\n\nExit: 0 \
                            every submission passed everything, 1 some did not, 2 a shard is \
                            missing, given twice, or of another class or problem."
    )]
    Merge {
        /// The shards' output directories (each holding the shard.json `grade --shard`
        /// writes last).
        #[arg(required = true)]
        shards: Vec<PathBuf>,
        /// Where to write the whole class's reports and gradebook files.
        #[arg(long)]
        out: PathBuf,
    },
    /// Rebuild the class report (report.html) from the JSON reports in a directory.
    #[command(
        after_help = "Examples:\n  labgrade report grades\n  labgrade report grades --output \
                            class.html\n\nExit: 0 written, 2 no report found or the page \
                            cannot be written."
    )]
    Report {
        /// A directory of <name>.json reports (what `labgrade grade --out` wrote).
        dir: PathBuf,
        /// Where to write the page (default: <dir>/report.html).
        #[arg(long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Print each submission's text report instead (what `check` shows a student:
        /// hidden cases unnamed), writing no page.
        #[arg(long, conflicts_with = "output")]
        text: bool,
    },
    /// Validate specs and fixtures, grade the reference and every sample submission.
    #[command(
        after_help = "Examples:\n  labgrade test\n  labgrade test nim maze\n\nExit: 0 \
                            all as declared, 1 not, 2 an invalid spec or fixture."
    )]
    Test {
        /// Problems to test (default: all).
        problems: Vec<String>,
        /// The reference cdylib (default: next to this binary).
        #[arg(long, value_name = "FILE")]
        reference: Option<PathBuf>,
        /// Also write JUnit XML of the sample results here.
        #[arg(long, value_name = "FILE")]
        junit: Option<PathBuf>,
        /// Also write each sample's JSON report here, as <problem>/<sample>.json (read them
        /// with `labgrade report <dir>/<problem> --text`).
        #[arg(long, value_name = "DIR")]
        reports: Option<PathBuf>,
        /// Show each build's compiler output (the reference's and every sample's) and every
        /// mismatch's whole message.
        #[arg(long, short)]
        verbose: bool,
    },
    /// Write Gradescope's autograder zip: labgrade, the problem and every case, with
    /// setup.sh and run_autograder.
    #[command(
        after_help = "Example:\n  labgrade gradescope nim -o autograder.zip\n\nUpload the zip as the \
                      assignment's autograder. Exit: 0 written, 2 an error."
    )]
    Gradescope {
        /// The problem.
        problem: String,
        /// The zip to write.
        #[arg(short, long, value_name = "FILE")]
        out: PathBuf,
    },
    /// Write a problem package: your own assignment, graded with no Rust (a spec, a header,
    /// a fixture, a reference in C, a correct and a wrong sample), ready for `labgrade test`.
    #[command(
        after_help = "Example:\n  labgrade new word-search --dir my-course\n  \
                            labgrade test --problems my-course word-search"
    )]
    New {
        /// The problem's name: lowercase letters, digits and `-`.
        name: String,
        /// The example package to start from (see docs/packages/).
        #[arg(long, default_value = "subset-sum")]
        like: String,
        /// Where to write the package (as `<DIR>/<name>/`).
        #[arg(long, value_name = "DIR", default_value = ".")]
        dir: PathBuf,
    },
    /// Write a student bundle: labgrade, the problem's headers and its visible cases only.
    #[command(
        after_help = "Example:\n  labgrade export --student nim nim-checker\n  \
                            nim-checker/bin/labgrade check nim my-nim/"
    )]
    Export {
        /// The bundle students get: hidden cases are left out, not just skipped.
        #[arg(long)]
        student: bool,
        /// The problem.
        problem: String,
        /// The directory to write (new, or empty).
        dir: PathBuf,
    },
    /// Play a game in the terminal against the reference, or against a submission (each of
    /// its moves a sandboxed run, as the grader makes it).
    #[command(
        after_help = "Examples:\n  labgrade play weiss-tictactoe\n  labgrade play nim \
                            tests/submissions/nim/c-version\n  labgrade play roberts-minimax \
                            tests/submissions/roberts-minimax/figure-7-6-cpp\n  labgrade play \
                            roberts-three-row-nim\n\nExit: 0 the game ran to its end, 1 \
                            it stopped (end of input, a move that is not legal or did not come)."
    )]
    Play {
        /// The game: nim, weiss-tictactoe, roberts-minimax, cs61b-minimax, or a game side's game
        /// (roberts-nim-game, roberts-even-nim, roberts-three-row-nim, roberts-tictactoe-game).
        game: String,
        /// A submission to play against (default: the reference).
        submission: Option<std::path::PathBuf>,
    },
    /// Print or save a generated maze (the one a fixture with these parameters grades).
    #[command(after_help = "Example:\n  labgrade maze --seed 1 --width 10 --height 8 --solve")]
    Maze(maze::MazeArgs),
    /// Show which isolation layers this machine enforces (uid drop, Landlock, seccomp, ...).
    #[command(
        after_help = "Example:\n  labgrade doctor\n  labgrade doctor --for c,cpp\n\nExit: 0 \
                            every layer is enforced, 1 some is missing."
    )]
    Doctor {
        /// Judge only the languages a course grades (c, cpp, rust, java; all by default): a
        /// missing layer that only another language needs is said, not counted.
        #[arg(long = "for", value_delimiter = ',', value_name = "LANGUAGES")]
        languages: Vec<String>,
    },
}

/// Runs the command line and returns the exit code.
pub fn main() -> i32 {
    run_with(false, &dispatch)
}

/// The student bundle's `labgrade-check`: the command line of `labgrade`, of which only
/// `check` runs (its binary links no reference solver, see [`crate::student`]).
pub fn check_only_main() -> i32 {
    run_with(true, &|ctx, cli, _| {
        check_command(ctx, cli).unwrap_or_else(|| {
            Err(CliError(
                "this is the student bundle's labgrade: it runs `check` only".into(),
            ))
        })
    })
}

type Dispatch<'a> = dyn Fn(&common::Context, &Cli, bool) -> Result<i32, CliError> + 'a;

/// Parses the command line (`check_only`: with every other command hidden from the help),
/// runs `dispatch` and turns its result into the exit code.
fn run_with(check_only: bool, dispatch: &Dispatch<'_>) -> i32 {
    let parsed = if check_only {
        use clap::{CommandFactory, FromArgMatches};
        let mut command = Cli::command();
        let others: Vec<String> = command
            .get_subcommands()
            .map(|s| s.get_name().to_string())
            .filter(|n| n != "check")
            .collect();
        for name in others {
            command = command.mut_subcommand(name, |s| s.hide(true));
        }
        command
            .try_get_matches()
            .and_then(|m| Cli::from_arg_matches(&m))
    } else {
        Cli::try_parse()
    };
    let cli = match parsed {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() {
                exit_codes::CANNOT_GRADE
            } else {
                exit_codes::OK
            };
            let _ = e.print();
            return code;
        }
    };
    // Each stream is colored by what it is connected to: reports go to stdout, errors to
    // stderr.
    let wants_color = |tty: bool| match cli.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => std::env::var_os("NO_COLOR").is_none() && tty,
    };
    let color = wants_color(std::io::IsTerminal::is_terminal(&std::io::stdout()));
    let err_color = wants_color(std::io::IsTerminal::is_terminal(&std::io::stderr()));
    let ctx = common::Context::new(&cli, color);
    let installed =
        package_dirs(&ctx, &cli, check_only).and_then(|dirs| Ok(crate::package::install(&dirs)?));
    if let Err(e) = installed {
        common::print_error(&e, err_color);
        return exit_codes::CANNOT_GRADE;
    }
    match dispatch(&ctx, &cli, color) {
        Ok(code) => code,
        Err(e) => {
            common::print_error(&e, err_color);
            exit_codes::CANNOT_GRADE
        }
    }
}

/// The problem packages this run adds: `--problems` (else `$LABGRADE_PROBLEMS`), then the
/// course file's; a student bundle's checker adds the package its bundle holds instead.
fn package_dirs(
    ctx: &common::Context,
    cli: &Cli,
    check_only: bool,
) -> Result<Vec<PathBuf>, CliError> {
    let mut dirs = if cli.packages.is_empty() {
        crate::package::from_env()
    } else {
        cli.packages.clone()
    };
    if check_only {
        if dirs.is_empty() {
            let bundled = ctx
                .root()
                .ok()
                .map(|r| r.dir().join(crate::package::BUNDLED))
                .filter(|d| d.is_dir());
            dirs.extend(bundled);
        }
    } else if let Some(course) = ctx.course.as_deref().filter(|p| p.is_file()) {
        dirs.extend(crate::spec::Course::load(course)?.packages);
    }
    Ok(dirs)
}

/// Runs `check`, when that is the command.
fn check_command(ctx: &common::Context, cli: &Cli) -> Option<Result<i32, CliError>> {
    let Command::Check {
        problem,
        submission,
        format,
        all,
        verbose,
        cases,
        tags,
        rerun_failed,
        failures_only,
        watch,
        fix_hint,
    } = &cli.command
    else {
        return None;
    };
    Some(check::run(
        ctx,
        problem,
        submission,
        *format,
        check::Choice {
            all: *all,
            verbose: *verbose,
            cases,
            tags,
            rerun_failed: *rerun_failed,
            failures_only: *failures_only,
            watch: *watch,
            fix_hint: *fix_hint,
        },
    ))
}

/// Runs one parsed command.
fn dispatch(ctx: &common::Context, cli: &Cli, color: bool) -> Result<i32, CliError> {
    match &cli.command {
        Command::Doctor { languages } => doctor::run(ctx, languages),
        Command::Export {
            student,
            problem,
            dir,
        } => export::run(ctx, problem, dir, *student),
        Command::Gradescope { problem, out } => gradescope::run(ctx, problem, out),
        Command::Maze(args) => maze::run(args),
        Command::New { name, like, dir } => new::run(name, like, dir),
        Command::Play { game, submission } => play::run(ctx, game, submission.as_deref()),
        Command::List { problem } => list::run(ctx, problem.as_deref()),
        Command::Check { .. } => check_command(ctx, cli).expect("a check"),
        Command::Grade {
            problem,
            dir,
            out,
            all_formats,
            roster,
            force,
            csv_cases,
            shard,
            fix_hints,
        } => grade::run(
            ctx,
            problem,
            dir,
            out,
            &grade::GradeOptions {
                all_formats: *all_formats,
                roster: roster.clone(),
                force: *force,
                csv_cases: *csv_cases,
                shard: *shard,
                fix_hints: *fix_hints,
            },
        ),
        Command::Merge { shards, out } => shard::merge(shards, out, ctx.color),
        Command::Report { dir, output, text } => {
            if *text {
                report::print_text(dir, color)
            } else {
                report::run(dir, output.as_deref())
            }
        }
        Command::Test {
            problems,
            reference,
            junit,
            reports,
            verbose,
        } => test::run(
            ctx,
            problems,
            reference.as_deref(),
            test::Outputs {
                junit: junit.as_deref(),
                reports: reports.as_deref(),
                verbose: *verbose,
            },
        ),
    }
}
