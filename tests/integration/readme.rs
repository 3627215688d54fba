//! The README's example outputs are what the current code prints: every `$ labgrade ...`
//! console block is run, and each of its lines (other than `...`) must be in the output,
//! times aside (they differ from run to run). `labgrade doctor` is left out: its output is
//! the machine's.

use crate::util::*;

/// A line as compared: spaces collapsed, times (`6 ms`, `<1 ms`) blanked.
fn normal(line: &str) -> String {
    let times = regex::Regex::new(r"<?\d+ ms\b").unwrap();
    let line = times.replace_all(line.trim_end(), "T");
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn the_readme_s_example_outputs_are_what_labgrade_prints() {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let mut checked = 0;
    for block in readme.split("```console\n").skip(1) {
        let block = block.split("```").next().unwrap();
        let mut lines = block.lines();
        let Some(command) = lines.next().and_then(|l| l.strip_prefix("$ labgrade ")) else {
            continue;
        };
        if command.starts_with("doctor") {
            continue;
        }
        // A Java problem's example needs a JDK (CI installs one).
        if command.contains("cs61b-minimax")
            && !crate::java::java_available("README: cs61b-minimax")
        {
            continue;
        }
        let args: Vec<&str> = command.split_whitespace().collect();
        let out = labgrade(&args);
        let printed: Vec<String> = stdout(&out).lines().map(normal).collect();
        for line in lines {
            let want = normal(line);
            if want.is_empty() || want == "..." {
                continue;
            }
            assert!(
                printed.contains(&want),
                "README: `labgrade {command}` no longer prints\n  {line}\nIt prints:\n{}",
                stdout(&out)
            );
        }
        checked += 1;
    }
    assert!(checked >= 3, "only {checked} README examples found");
}
