//! `labgrade list`.

use super::common::{CliError, Context};
use crate::exit_codes;
use crate::spec::load_fixtures;

/// Prints one line per problem: name, number of cases, title, source.
pub fn run(ctx: &Context) -> Result<i32, CliError> {
    let root = ctx.root()?;
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
