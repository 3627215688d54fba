//! One direction between layers: every top-level module of the library depends only on the
//! modules of the layers below its own (ARCHITECTURE.md, "Layers"). The test reads the
//! sources as a reviewer would, following `crate::` paths outside comments and unit tests,
//! so a new upward edge fails here with the file and line that made it, and a new top-level
//! module must be given its layer.

use std::collections::BTreeMap;
use std::path::Path;

use crate::util::repo;

/// The layers, from the bottom up. A module may use any module of a lower layer, none of its
/// own layer or above. Below them all are the crates `labgrade-spec` (`crates/spec`: the
/// specs, fixtures, courses and transcripts, re-exported as `labgrade::spec`) and, on it,
/// `labgrade-sandbox` (`crates/sandbox`, re-exported as `labgrade::sandbox`), whose places
/// Cargo keeps: neither can name the library at all.
const LAYERS: &[&[&str]] = &[
    &["columns", "owned_dir"],
    &["submission"],
    &["problems"],
    &["package", "report"],
    &["compare", "exit_codes"],
    &["runner"],
    &["selftest", "student", "fix"],
    &["cli"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// The library's top-level modules, by their file or directory under `src/`.
fn top_level_modules(src: &Path) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(src)
        .unwrap()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            match name.strip_suffix(".rs") {
                Some("lib" | "main") => None,
                Some(stem) => Some(stem.to_string()),
                None if e.path().is_dir() && name != "bin" => Some(name),
                None => None,
            }
        })
        .collect();
    out.sort();
    out
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

/// The `crate::<module>` names a source text uses, with the offset of each: paths, and the
/// heads of a grouped `use crate::{a, b::{c, d}}` however it is spread over lines.
fn modules_named(code: &str, known: &[String]) -> Vec<(usize, String)> {
    let path = regex::Regex::new(r"crate::(\w+)").unwrap();
    let mut found: Vec<(usize, String)> = path
        .captures_iter(code)
        .map(|c| (c.get(0).unwrap().start(), c[1].to_string()))
        .collect();
    for (start, _) in code.match_indices("crate::{") {
        let body = &code[start + "crate::{".len()..];
        let (mut depth, mut head, mut fresh) = (0usize, String::new(), true);
        for ch in body.chars() {
            if fresh && (ch.is_alphanumeric() || ch == '_') {
                head.push(ch);
                continue;
            }
            if !head.is_empty() {
                found.push((start, std::mem::take(&mut head)));
                fresh = false;
            }
            match ch {
                '{' => depth += 1,
                '}' if depth == 0 => break,
                '}' => depth -= 1,
                ',' if depth == 0 => fresh = true,
                _ => {}
            }
        }
        if !head.is_empty() {
            found.push((start, head));
        }
    }
    found.retain(|(_, m)| known.contains(m));
    found
}

/// Every edge between top-level modules: (from, to) with the places that make it.
fn edges(src: &Path, modules: &[String]) -> BTreeMap<(String, String), Vec<String>> {
    let mut edges: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for module in modules {
        let mut files = Vec::new();
        let dir = src.join(module);
        if dir.is_dir() {
            rust_files(&dir, &mut files);
        } else {
            files.push(src.join(format!("{module}.rs")));
        }
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            // Unit tests may reach anywhere (a test helper is no dependency of the code), and
            // a comment's mention is none either; lines keep their numbers.
            let code: String = text
                .split("#[cfg(test)]\nmod tests")
                .next()
                .unwrap_or("")
                .lines()
                .map(|l| {
                    if l.trim_start().starts_with("//") {
                        ""
                    } else {
                        l
                    }
                })
                .collect::<Vec<_>>()
                .join("\n");
            for (offset, to) in modules_named(&code, modules) {
                if &to != module {
                    let line = code[..offset].matches('\n').count() + 1;
                    let at = format!("{}:{line}", file.strip_prefix(src).unwrap().display());
                    edges.entry((module.clone(), to)).or_default().push(at);
                }
            }
        }
    }
    edges
}

#[test]
fn every_top_level_module_depends_only_on_the_layers_below_it() {
    let src = repo().join("src");
    let modules = top_level_modules(&src);
    let unplaced: Vec<&String> = modules.iter().filter(|m| layer_of(m).is_none()).collect();
    assert!(
        unplaced.is_empty(),
        "top-level modules with no layer: {unplaced:?}; give each its place in LAYERS \
         (tests/integration/layers.rs) and in ARCHITECTURE.md"
    );
    let all = edges(&src, &modules);
    assert!(all.len() > 20, "the scan found only {} edges", all.len());
    let upward: Vec<String> = all
        .iter()
        .filter(|((from, to), _)| layer_of(to) >= layer_of(from))
        .map(|((from, to), at)| format!("{from} -> {to} at {}", at.join(", ")))
        .collect();
    assert!(
        upward.is_empty(),
        "dependencies that do not point down (ARCHITECTURE.md, \"Layers\"):\n{}",
        upward.join("\n")
    );
}

/// The scan sees what it must: a path, a grouped `use`, and not a comment's mention.
#[test]
fn the_layer_scan_reads_paths_and_grouped_uses() {
    let known: Vec<String> = ["spec", "report", "sandbox", "runner"]
        .map(String::from)
        .to_vec();
    let names = |code: &str| -> Vec<String> {
        let mut m: Vec<String> = modules_named(code, &known)
            .into_iter()
            .map(|(_, m)| m)
            .collect();
        m.sort();
        m
    };
    assert_eq!(
        names("    let v = crate::report::Visibility::Hidden;"),
        ["report"]
    );
    assert_eq!(
        names("use crate::{\n    sandbox::{Ending, RunInput},\n    spec,\n    runner::x,\n};"),
        ["runner", "sandbox", "spec"]
    );
    assert!(names("let x = crate_name::report;").is_empty());
}
