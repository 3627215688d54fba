//! `labgrade-worker`: the sandbox. The grader starts one per parallel slot, next to its own
//! binary, and sends it runs on stdin; it forks one sandboxed child per run.
//!
//! This binary is kept apart from `labgrade` so that the child's address space holds no
//! reference solver: it links the sandbox and the worlds a submission calls back into
//! (`labgrade::problems::child`), never `labgrade::problems::Problem::expected`. Student code
//! shares the child's address space, so anything linked here is reachable from it;
//! `tests/integration/worker_symbols.rs` checks the built binary.
//!
//! `labgrade-worker --probe` prints, as JSON, which isolation layers this kernel enforces
//! for the runs this binary makes (every report's `metadata.sandbox`).
//!
//! `labgrade-worker --unpack FORMAT ARCHIVE DEST` unpacks a handed-in archive: intake runs it
//! in the build jail, so an archive is never parsed in the grader's process
//! (`labgrade::submission::unpack`).
//!
//! `labgrade-worker --edits FILE c|cpp` prints the small edits of a student's source that a
//! fix hint tries, parsed with tree-sitter: the grader runs it in the build jail too
//! (`labgrade::submission::edits`).

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let probe = match args.first().map(String::as_str) {
        None => false,
        Some("--probe") => true,
        Some("--unpack") => {
            std::process::exit(labgrade::submission::unpack::worker_main(&args[1..]))
        }
        Some("--edits") => std::process::exit(labgrade::submission::edits::worker_main(&args[1..])),
        Some(other) => {
            eprintln!(
                "labgrade-worker: unknown argument `{other}` (labgrade starts this program itself; \
                 run `labgrade` instead)"
            );
            std::process::exit(2);
        }
    };
    if probe {
        let status = labgrade::sandbox::probe::probe();
        println!("{}", serde_json::to_string(&status).unwrap_or_default());
        return;
    }
    if let Err(e) = labgrade::sandbox::worker::main(&labgrade::problems::child::HOOKS) {
        eprintln!("labgrade-worker: {e}");
        std::process::exit(2);
    }
}
