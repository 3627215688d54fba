//! `labgrade list`.

use super::common::{CliError, Context};
use crate::exit_codes;
use crate::spec::{load_fixtures, Root};

/// Prints one line per problem (name, number of cases, title, source), or, given a
/// problem, one line per case.
pub fn run(ctx: &Context, problem: Option<&str>) -> Result<i32, CliError> {
    let root = ctx.root()?;
    if let Some(name) = problem {
        return cases(&root, name);
    }
    let mut rows = Vec::new();
    for name in root.problem_names() {
        let spec = root.load_spec(&name)?;
        let cases = load_fixtures(&root.fixtures_dir(&name), spec.limits)
            .map(|c| c.len().to_string())
            .unwrap_or_else(|e| format!("error: {e}"));
        rows.push((name, cases, spec.problem.title, spec.problem.source));
    }
    let w = rows.iter().map(|r| r.0.len()).max().unwrap_or(7).max(7);
    println!("{:<w$}  {:>5}  TITLE / SOURCE", "PROBLEM", "CASES");
    for (name, cases, title, source) in rows {
        println!("{name:<w$}  {cases:>5}  {title}");
        println!("{:<w$}  {:>5}  {source}", "", "");
    }
    Ok(exit_codes::OK)
}

/// One line per case of `problem`: name, points, visibility, tags; what `check --case`,
/// `--tag` and the fixtures' globs choose from.
fn cases(root: &Root, problem: &str) -> Result<i32, CliError> {
    let spec = root.load_spec(problem)?;
    let cases = load_fixtures(&root.fixtures_dir(problem), spec.limits)?;
    let w = cases
        .iter()
        .map(|c| c.name().len())
        .max()
        .unwrap_or(4)
        .max(4);
    let mut text = format!(
        "{:<w$}  {:>6}  {:<15}  TAGS\n",
        "CASE", "POINTS", "VISIBILITY"
    );
    for c in &cases {
        let visibility = serde_json::to_value(c.visibility)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        text.push_str(&format!(
            "{:<w$}  {:>6}  {visibility:<15}  {}\n",
            c.name(),
            c.points,
            c.tags.join(", ")
        ));
    }
    let points: f64 = cases.iter().map(|c| c.points).sum();
    text.push_str(&format!("{} cases, {points} points\n", cases.len()));
    print!("{text}");
    Ok(exit_codes::OK)
}
