//! The `labgrade` command: parse, call the library, set the exit code.

fn main() {
    std::process::exit(labgrade::cli::main());
}
