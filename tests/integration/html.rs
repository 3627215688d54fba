//! The class report (`report.html`): `grade` writes it, `labgrade report` rebuilds the same
//! page from the JSON reports, and, with `LABGRADE_BROWSER_TESTS=1` and Chromium installed,
//! headless Chromium loads it with no console message at all (no script error, nothing the
//! page's policy refused) and shows each student's score and the class mean of the JSONs.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::util::*;

/// Samples graded in these tests, and two copies named as a hostile student might.
const CLASS: [(&str, &str); 6] = [
    ("book-cpp", "book-cpp"),
    ("memoised", "memoised"),
    ("max-move-off-by-one", "max-move-off-by-one"),
    ("missing-function", "missing-function"),
    ("memoised", "<script>alert(1)"),
    ("wrong-fallback", "<img src=x onerror=alert(2)>"),
];

/// Grades [`CLASS`] into `<tmp>/out` and returns that directory.
fn graded_class(tmp: &Path) -> PathBuf {
    let class = tmp.join("class");
    for (sample_name, name) in CLASS {
        copy_dir(&sample(sample_name), &class.join(name));
    }
    let out_dir = tmp.join("out");
    let out = labgrade(&[
        "grade",
        "nim",
        class.to_str().unwrap(),
        "--out",
        out_dir.to_str().unwrap(),
        "--jobs",
        "2",
    ]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    assert!(
        stdout(&out).contains("grades.csv, class.csv and report.html"),
        "{}",
        stdout(&out)
    );
    out_dir
}

/// Every `<stem>.json` of `dir` with its stem.
fn reports(dir: &Path) -> Vec<(String, Value)> {
    let mut v: Vec<(String, Value)> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let stem = name.strip_suffix(".json")?.to_string();
            let json = serde_json::from_str(&std::fs::read_to_string(e.path()).unwrap()).unwrap();
            Some((stem, json))
        })
        .collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v
}

/// Points as the report writes them: `82`, `5.33`.
fn points(x: f64) -> String {
    if (x - x.round()).abs() < 1e-9 {
        format!("{}", x.round() as i64)
    } else {
        let s = format!("{x:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// The numbers of the JSON reports are the page's: each student's score in the students
/// table and in its own section, the class mean, the histogram's total, the named mistakes.
fn assert_numbers_match(page: &str, reports: &[(String, Value)]) {
    let n = reports.len();
    let students = &page[page.find("<section id=\"students\">").expect("students")..];
    let students = &students[..students.find("</section>").unwrap()];
    let (mut sum, mut sum_max, mut sum_pct) = (0.0, 0.0, 0.0);
    for (stem, r) in reports {
        let (score, max) = (
            r["score"].as_f64().unwrap(),
            r["max_score"].as_f64().unwrap(),
        );
        let shown = format!("{} / {}", points(score), points(max));
        let pct = format!("{:.1}%", score / max * 100.0);
        (sum, sum_max, sum_pct) = (sum + score, sum_max + max, sum_pct + score / max * 100.0);
        let row = students
            .split("<tr")
            .find(|row| row.contains(&format!("href=\"#student-{stem}\"")))
            .unwrap_or_else(|| panic!("no row for {stem}"));
        assert!(row.contains(&format!(">{shown}</td>")), "{stem}: {row}");
        assert!(row.contains(&format!(">{pct}</td>")), "{stem}: {row}");
        let section = &page[page
            .find(&format!("id=\"student-{stem}\""))
            .unwrap_or_else(|| panic!("no section for {stem}"))..];
        let section = &section[..section.find("</section>").unwrap()];
        assert!(
            section.contains(&format!("<span class=\"score\">{shown}</span>")),
            "{stem}"
        );
        // check's own summary line, as the terminal prints it.
        assert!(section.contains(&format!("; score {shown}\n")), "{stem}");
    }
    let nf = n as f64;
    assert!(page.contains(&format!("<dd id=\"submissions\">{n}</dd>")));
    assert!(
        page.contains(&format!(
            "<dd id=\"mean-score\">{} / {}</dd>",
            points(sum / nf),
            points(sum_max / nf)
        )),
        "mean score"
    );
    assert!(page.contains(&format!(
        "<dd id=\"mean-percent\">{:.1}%</dd>",
        sum_pct / nf
    )));
    let counted: usize = page
        .split("<text class=\"count\"")
        .skip(1)
        .map(|t| {
            t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()]
                .parse::<usize>()
                .unwrap()
        })
        .sum();
    assert_eq!(counted, n, "the histogram counts every submission once");
    // Both memoised copies are named, by the same mistake.
    let memo = page
        .split("<tr>")
        .find(|r| r.contains("memoised (or pruned)</td>"))
        .expect("the memoised mistake is named");
    assert!(memo.contains("<td class=\"num\">2</td>"), "{memo}");
}

/// The student-named entries are text: neither name became an element.
fn assert_names_are_text(page: &str) {
    assert_eq!(
        page.matches("<script").count(),
        1,
        "only labgrade's own script"
    );
    assert!(!page.contains("<img"), "a student's name became an element");
    assert!(page.contains("&lt;script&gt;alert(1)"));
    assert!(page.contains("&lt;img src=x onerror=alert(2)&gt;"));
}

#[test]
fn grade_writes_the_class_report_and_report_rebuilds_the_same_page() {
    let tmp = tempfile::tempdir().unwrap();
    let out_dir = graded_class(tmp.path());
    let written = std::fs::read_to_string(out_dir.join("report.html")).unwrap();
    assert_numbers_match(&written, &reports(&out_dir));
    assert_names_are_text(&written);

    std::fs::remove_file(out_dir.join("report.html")).unwrap();
    let out = labgrade(&["report", out_dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("from 6 report(s)"),
        "{}",
        stdout(&out)
    );
    let rebuilt = std::fs::read_to_string(out_dir.join("report.html")).unwrap();
    assert!(
        rebuilt == written,
        "labgrade report wrote another page than grade"
    );

    // Nothing to report on is an error that says what to do.
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let out = labgrade(&["report", empty.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("labgrade grade"), "{}", stderr(&out));
}

/// Chromium's binary: `$LABGRADE_CHROMIUM`, else the first of Debian's and others' names on
/// PATH.
fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("LABGRADE_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    [
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
    ]
    .iter()
    .flat_map(|name| std::env::split_paths(&path).map(move |d| d.join(name)))
    .find(|p| p.is_file())
}

/// Loads `page` in headless Chromium: the DOM after its script ran, and every console
/// message Chromium logged (`INFO:CONSOLE` lines: errors, logs and policy violations alike).
fn load(browser: &Path, page: &Path, profile: &Path) -> (String, Vec<String>) {
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--enable-logging=stderr",
            "--v=0",
            "--dump-dom",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("run chromium");
    assert!(out.status.success(), "chromium: {}", stderr(&out));
    let console = stderr(&out)
        .lines()
        .filter(|l| l.contains(":CONSOLE"))
        .map(str::to_string)
        .collect();
    (stdout(&out), console)
}

/// Says the browser test did not run, on the real stderr (libtest captures `eprintln!` of a
/// passing test, and a skip must not pass silently).
fn skipped(why: &str) {
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED html::the_class_report_loads_in_chromium...: {why}"
    );
}

#[test]
fn the_class_report_loads_in_chromium_without_console_messages_and_shows_the_json_numbers() {
    if std::env::var_os("LABGRADE_BROWSER_TESTS").is_none_or(|v| v != "1") {
        skipped(
            "a browser test; set LABGRADE_BROWSER_TESTS=1 to run it (it needs Chromium: \
             apt-get install chromium)",
        );
        return;
    }
    let Some(browser) = chromium() else {
        skipped(
            "LABGRADE_BROWSER_TESTS=1 but no Chromium found (apt-get install chromium, or set \
             LABGRADE_CHROMIUM=/path/to/it)",
        );
        return;
    };
    let tmp = tempfile::tempdir().unwrap();

    // First, that this Chromium reports console messages where the test looks for them:
    // otherwise "no console message" below would prove nothing.
    let probe = tmp.path().join("probe.html");
    std::fs::write(
        &probe,
        "<!DOCTYPE html><html><body><script>console.error('probe')</script></body></html>",
    )
    .unwrap();
    let (_, console) = load(&browser, &probe, &tmp.path().join("profile-probe"));
    assert!(
        console.iter().any(|l| l.contains("probe")),
        "Chromium logged no console message for the probe page; got {console:?}"
    );

    let out_dir = graded_class(tmp.path());
    let (dom, console) = load(
        &browser,
        &out_dir.join("report.html"),
        &tmp.path().join("profile"),
    );
    assert!(console.is_empty(), "console messages: {console:#?}");
    // The page's script ran (the policy allowed labgrade's own script by its hash).
    assert!(
        dom.starts_with("<!DOCTYPE html><html lang=\"en\" class=\"js\">")
            || dom.starts_with("<!DOCTYPE html>\n<html lang=\"en\" class=\"js\">"),
        "{}",
        &dom[..dom.len().min(300)]
    );
    assert_numbers_match(&dom, &reports(&out_dir));
    assert_names_are_text(&dom);
}
