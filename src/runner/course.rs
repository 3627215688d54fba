//! Applying a course file to a problem's cases: the course's parameters, points, required
//! cases and transcript comparison, checked against what the problem declares.

use glob::Pattern;

use crate::problems::{Params, Problem};
use crate::spec::{Case, CompareItem, Course, SpecError};
use crate::transcript::{compile_patterns, OutputMode};

/// The cases the course grades, changed as it says, and the parameters it sets. Without a
/// table for this problem, the cases are returned unchanged with the book's parameters.
pub fn apply(
    course: &Course,
    problem: &dyn Problem,
    cases: Vec<Case>,
) -> Result<(Vec<Case>, Params), SpecError> {
    let name = problem.name();
    let Some(settings) = course.problems.get(name) else {
        return Ok((cases, Params::new()));
    };
    check_params(course, problem, &settings.params)?;
    let params: Params = settings.params.clone();
    let substance = match &settings.substance {
        Some(patterns) => {
            compile_patterns(patterns).map_err(|m| course.invalid(name, "substance", m))?
        }
        None => Vec::new(),
    };
    let rules = case_rules(course, name, &settings.cases, &cases)?;
    let mut kept = Vec::with_capacity(cases.len());
    for mut case in cases {
        if let Some((_, rule)) = rules.iter().find(|(p, _)| p.matches(case.name())) {
            if rule.required == Some(false) {
                continue;
            }
            if let Some(points) = rule.points {
                case.points = points;
            }
            if let Some(visibility) = rule.visibility {
                case.visibility = visibility;
            }
        }
        if let Some(mode) = settings.output {
            if case.compare.contains(&CompareItem::Stdout) {
                case.output = mode;
                if !substance.is_empty() {
                    case.substance = substance.clone();
                }
                if mode == OutputMode::Substance && case.substance.is_empty() {
                    return Err(course.invalid(
                        name,
                        "output",
                        "output = \"substance\" needs `substance = [\"pattern\", ...]`: regular \
                         expressions for the lines that carry the moves and the result"
                            .into(),
                    ));
                }
            }
        }
        case.params = params.clone();
        kept.push(case);
    }
    Ok((kept, params))
}

/// The course's parameters against those the problem declares: known, in range, and
/// accepted together.
fn check_params(course: &Course, problem: &dyn Problem, params: &Params) -> Result<(), SpecError> {
    let name = problem.name();
    let declared = problem.parameters();
    for (key, &value) in params {
        let Some(p) = declared.iter().find(|p| p.name == key) else {
            let known: Vec<&str> = declared.iter().map(|p| p.name).collect();
            return Err(course.invalid(
                name,
                key,
                if known.is_empty() {
                    format!("`{key}`: {name} has no parameters a course can set")
                } else {
                    format!(
                        "`{key}` is not a parameter of {name} (it has: {})",
                        known.join(", ")
                    )
                },
            ));
        };
        if value < p.min || value > p.max {
            return Err(course.invalid(
                name,
                key,
                format!(
                    "{key} = {value} is out of range: {} takes {} to {} (the book's is {})",
                    p.doc, p.min, p.max, p.default
                ),
            ));
        }
    }
    if let Err(why) = problem.check_params(params) {
        let key = params.keys().next().map_or("params", String::as_str);
        return Err(course.invalid(name, key, why));
    }
    Ok(())
}

/// The course's case rules, each with its glob: every glob must match some case (but in a
/// student bundle, which holds only some), and points stay within a fixture's bounds.
fn case_rules<'a>(
    course: &Course,
    name: &str,
    settings: &'a [crate::spec::CaseRule],
    cases: &[Case],
) -> Result<Vec<(Pattern, &'a crate::spec::CaseRule)>, SpecError> {
    let mut rules = Vec::new();
    for rule in settings {
        let pattern = Pattern::new(&rule.pattern).map_err(|e| {
            course.invalid(
                name,
                &rule.pattern,
                format!("`{}` is not a glob: {e}", rule.pattern),
            )
        })?;
        // A student bundle holds only some of the cases: a rule may match none of them.
        if !crate::problems::precomputed::precomputed_only()
            && !cases.iter().any(|c| pattern.matches(c.name()))
        {
            return Err(course.invalid(
                name,
                &rule.pattern,
                format!(
                    "match = \"{}\" matches no case of {name} (`labgrade list` names them)",
                    rule.pattern
                ),
            ));
        }
        // Bounded as a fixture's are, so that no sum of a course's points can overflow
        // (`points = 1e308` made scores `inf / inf`).
        let bound = crate::spec::MAX_POINTS;
        if rule.points.is_some_and(|p| !(0.0..=bound).contains(&p)) {
            return Err(course.invalid(
                name,
                &rule.pattern,
                format!("points must be a number from 0 to {bound}"),
            ));
        }
        rules.push((pattern, rule));
    }
    Ok(rules)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A course's points are bounded as a fixture's are: `1e308` made scores `inf / inf`.
    #[test]
    fn course_points_too_large_to_add_up_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("a.toml"),
            "case = [ { name = \"FindGoodMove/5/return\", call = \"FindGoodMove\", args = [5], compare = [\"return\"] } ]\n",
        )
        .unwrap();
        let cases = crate::spec::load_fixtures(dir.path(), Default::default()).unwrap();
        let nim = crate::problems::get("nim").unwrap();
        for (points, ok) in [
            ("1e308", false),
            ("-1", false),
            ("1000000", true),
            ("2.5", true),
        ] {
            let path = dir.path().join("course.toml");
            std::fs::write(
                &path,
                format!("[[nim.cases]]\nmatch = \"FindGoodMove/*\"\npoints = {points}\n"),
            )
            .unwrap();
            let course = Course::load(&path).unwrap();
            match apply(&course, nim, cases.clone()) {
                Ok((kept, _)) => {
                    assert!(ok, "{points} accepted");
                    assert_eq!(kept[0].points, points.parse::<f64>().unwrap());
                }
                Err(e) => {
                    assert!(!ok, "{points}: {e}");
                    let e = e.to_string();
                    assert!(
                        e.contains("course.toml:2") && e.contains("from 0 to 1000000"),
                        "{e}"
                    );
                }
            }
        }
    }
}
