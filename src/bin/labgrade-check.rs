//! `labgrade-check`: the student bundle's checker, `labgrade check` with no reference solver
//! linked in (see `labgrade::student`).

fn main() {
    std::process::exit(labgrade::student::main());
}
