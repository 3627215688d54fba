//! The `labgrade` command: parse, call the library, set the exit code.

fn main() {
    labgrade::problems::install(labgrade::problems::catalogue());
    labgrade::spec::Root::install_finder(labgrade::spec::Root::discover);
    let args: Vec<String> = std::env::args().skip(1).collect();
    // labgrade starts this binary as the check host of a package's checker
    // (labgrade::package::checker).
    if args.first().map(String::as_str) == Some(labgrade::package::checker::FLAG) {
        std::process::exit(labgrade::package::checker::host_main(&args[1..]));
    }
    // labgrade-worker starts this binary as the world host of a run whose world must not be
    // in the sandboxed child (labgrade::problems::kit::remote_world).
    if args.first().map(String::as_str) == Some(labgrade::problems::kit::world_host::FLAG) {
        std::process::exit(labgrade::problems::kit::world_host::main(
            &args[1..],
            labgrade::package::world::hosted,
        ));
    }
    quiet_when_the_reader_leaves();
    std::process::exit(labgrade::cli::main());
}

/// `labgrade list nim | head` closes the pipe early. Rust ignores SIGPIPE (so that a worker
/// that dies never kills the grader through its pipe), and `println!` then panics: here that
/// one panic ends the program quietly, as the reader asked, with the status a shell gives a
/// command killed by SIGPIPE. Every other panic is reported as usual.
fn quiet_when_the_reader_leaves() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or_default();
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(141);
        }
        default(info);
    }));
}
