//! `labgrade-check`: the student bundle's checker, `labgrade check` with no reference solver
//! linked in (see `labgrade::student`).

use labgrade::problems::{self, kit, precomputed};
use labgrade::spec::Root;

fn main() {
    std::process::exit(run());
}

/// The checker's work: judges without their solvers, expectations read from the bundle.
fn run() -> i32 {
    precomputed::set_precomputed_only();
    problems::install(labgrade::student::judges());
    Root::install_finder(Root::beside_binary);
    let args: Vec<String> = std::env::args().skip(1).collect();
    // The bundle's labgrade-worker starts this binary as the world host of a hosted world
    // (the game side's): its world is the table of the game in the bundle's evidence.
    // A package's checker runs in the check host, this binary too.
    if args.first().map(String::as_str) == Some(labgrade::package::checker::FLAG) {
        return labgrade::package::checker::host_main(&args[1..]);
    }
    if args.first().map(String::as_str) == Some(kit::world_host::FLAG) {
        if let (Some(problem), Ok(root)) = (args.get(1), Root::find(None, std::path::Path::new("")))
        {
            if let Err(e) = precomputed::load(&root, problem) {
                eprintln!("labgrade {}: {e}", kit::world_host::FLAG);
            }
        }
        return kit::world_host::main(&args[1..], labgrade::package::world::hosted);
    }
    labgrade::cli::check_only_main()
}
