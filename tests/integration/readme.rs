//! The README's and the book's (`docs/src/`) example outputs are what the current code
//! prints: every `$ labgrade ...` console block is run, and each of its lines (other than
//! `...`) must be in the output, times aside (they differ from run to run). `labgrade
//! doctor` is left out: its output is the machine's. And no link of theirs leaves the
//! repository or points at nothing.

use crate::util::*;

/// A line as compared: spaces collapsed, times (`6 ms`, `<1 ms`) blanked.
fn normal(line: &str) -> String {
    let times = regex::Regex::new(r"<?\d+ ms\b").unwrap();
    let line = times.replace_all(line.trim_end(), "T");
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// README.md, ARCHITECTURE.md and every chapter of the book, with their paths.
fn documents() -> Vec<(std::path::PathBuf, String)> {
    let mut paths = vec![repo().join("README.md"), repo().join("ARCHITECTURE.md")];
    let mut chapters: Vec<_> = std::fs::read_dir(repo().join("docs/src"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    chapters.sort();
    paths.extend(chapters);
    paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            (p, text)
        })
        .collect()
}

#[test]
fn the_readme_s_and_the_book_s_example_outputs_are_what_labgrade_prints() {
    let mut checked = 0;
    for (path, text) in documents() {
        checked += check_examples(&path, &text);
    }
    assert!(checked >= 10, "only {checked} examples found");
}

/// Every relative link of the README, ARCHITECTURE.md and the book names a file of the
/// repository (its anchor aside), and none climbs out of it.
#[test]
fn no_link_of_the_documents_leaves_the_repository_or_points_at_nothing() {
    let link = regex::Regex::new(r"\]\(([^)\s]+)\)").unwrap();
    let root = repo().canonicalize().unwrap();
    let mut broken = Vec::new();
    for (path, text) in documents() {
        for c in link.captures_iter(&text) {
            let target = &c[1];
            if target.starts_with("http") || target.starts_with('#') {
                continue;
            }
            let file = target.split('#').next().unwrap();
            let full = path.parent().unwrap().join(file);
            match full.canonicalize() {
                Ok(p) if p.starts_with(&root) => {}
                _ => broken.push(format!("{}: {target}", path.display())),
            }
        }
    }
    assert!(
        broken.is_empty(),
        "links to nothing or outside: {broken:#?}"
    );
}

/// Runs `text`'s console examples; how many it checked.
fn check_examples(path: &std::path::Path, text: &str) -> usize {
    let mut checked = 0;
    for block in text.split("```console\n").skip(1) {
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
                "{}: `labgrade {command}` no longer prints\n  {line}\nIt prints:\n{}",
                path.display(),
                stdout(&out)
            );
        }
        checked += 1;
    }
    checked
}
