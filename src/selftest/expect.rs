//! `expect.toml`: the verdicts a sample submission declares it must get.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::report::Verdict;
use crate::runner::{Session, SessionOptions};

/// How labgrade test hands a sample in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Arrive {
    /// The directory, as a student hands in sources.
    #[default]
    Source,
    /// Only the shared library built from the sources (a prebuilt library).
    Library,
    /// Only the program built from the sources (an executable).
    Executable,
}

/// One rule: cases matching a glob get a verdict. The first matching rule wins.
#[derive(Debug, Clone)]
pub struct Rule {
    /// The glob (`*` matches any characters, `/` included).
    pub pattern: glob::Pattern,
    /// The verdict.
    pub verdict: Verdict,
}

impl Rule {
    /// True when the case's name matches.
    pub fn matches(&self, case: &str) -> bool {
        self.pattern.matches(case)
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRule {
    cases: String,
    verdict: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawExpect {
    description: String,
    #[serde(default)]
    arrive: Arrive,
    #[serde(default)]
    course: Option<String>,
    expect: Vec<RawRule>,
}

/// A parsed `expect.toml`.
#[derive(Debug, Clone)]
pub struct SampleExpect {
    /// Why the sample exists.
    pub description: String,
    /// How it is handed in.
    pub arrive: Arrive,
    /// The course file it is graded under (beside `expect.toml`), if not the books'.
    pub course: Option<PathBuf>,
    /// Its rules.
    pub rules: Vec<Rule>,
}

impl SampleExpect {
    /// Reads and checks `path`.
    pub fn load(path: &Path) -> Result<SampleExpect, String> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            format!(
                "cannot read `{}`: {e} (every sample declares its verdicts there)",
                path.display()
            )
        })?;
        let raw: RawExpect = toml::from_str(&text)
            .map_err(|e| crate::spec::from_toml_error(path, &text, e).to_string())?;
        let mut rules = Vec::new();
        for r in raw.expect {
            let verdict = Verdict::parse(&r.verdict).ok_or_else(|| {
                let known: Vec<&str> = Verdict::ALL.iter().map(|v| v.as_str()).collect();
                format!(
                    "{}: unknown verdict `{}` (known: {})",
                    path.display(),
                    r.verdict,
                    known.join(", ")
                )
            })?;
            let pattern = glob::Pattern::new(&r.cases)
                .map_err(|e| format!("{}: bad pattern `{}`: {e}", path.display(), r.cases))?;
            rules.push(Rule { pattern, verdict });
        }
        Ok(SampleExpect {
            description: raw.description,
            arrive: raw.arrive,
            course: raw
                .course
                .map(|c| path.parent().unwrap_or(Path::new(".")).join(c)),
            rules,
        })
    }

    /// The path to hand in: the directory, or the library or program built from it.
    pub fn artifact_for(
        &self,
        dir: &Path,
        session: &Session,
        options: &SessionOptions,
    ) -> Result<PathBuf, String> {
        if self.arrive == Arrive::Source {
            return Ok(dir.to_path_buf());
        }
        let policy = crate::runner::prepare::intake_policy(&session.spec, dir);
        let staged = crate::submission::intake::stage(dir, &options.cache.staging_dir(), &policy)?;
        let kind = crate::submission::detect(&staged.root)?;
        let built = options.cache.build(
            &kind,
            &staged,
            &session.spec,
            &crate::runner::prepare::graded_names(session.problem),
        );
        if built.failed {
            return Err(format!("the sample did not build:\n{}", built.output));
        }
        let path = match self.arrive {
            Arrive::Library => built.library,
            Arrive::Executable => built.program,
            Arrive::Source => unreachable!(),
        };
        path.ok_or_else(|| "the sample built no such artifact".to_string())
    }
}
