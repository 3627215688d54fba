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
    /// The directory's files (less `expect.toml`) packed into `<dir>.zip`, inside a folder
    /// named like the directory (the usual wrapper).
    Zip,
    /// The directory's files (less `expect.toml`) packed into `<dir>.tar.gz`, at its top.
    TarGz,
}

/// One rule: cases matching a glob get a verdict. The first matching rule wins.
#[derive(Debug, Clone)]
pub struct Rule {
    /// The glob (`*` matches any characters, `/` included).
    pub pattern: glob::Pattern,
    /// The verdict.
    pub verdict: Verdict,
    /// 1-based line of the rule's `[[expect]]` in `expect.toml` (for CI annotations).
    pub line: usize,
    /// Words the case's message must hold (`says = "..."`): the explanation the sample
    /// exists to trigger.
    pub says: Option<String>,
    /// Words the case's message must never hold (`never_says = "..."`): an explanation
    /// whose evidence this sample must not give.
    pub never_says: Option<String>,
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
    cases: toml::Spanned<String>,
    verdict: String,
    #[serde(default)]
    says: Option<String>,
    #[serde(default)]
    never_says: Option<String>,
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
    #[serde(default)]
    fix: Option<KnownFix>,
}

/// The one-edit mistake a sample was made with (`[fix]`): where it is and what undoes it,
/// for the smallest fix's benchmark (`benches/fix_hint.rs`).
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct KnownFix {
    /// The source file, relative to the sample.
    pub file: String,
    /// The 1-based line the mistake is on.
    pub line: usize,
    /// The mistake, in a few words.
    pub mistake: String,
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
    /// The one-edit mistake it was made with, when it was.
    pub fix: Option<KnownFix>,
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
            let line = rule_line(&text, r.cases.span().start);
            let cases = r.cases.into_inner();
            let pattern = glob::Pattern::new(&cases)
                .map_err(|e| format!("{}: bad pattern `{cases}`: {e}", path.display()))?;
            rules.push(Rule {
                pattern,
                verdict,
                line,
                says: r.says,
                never_says: r.never_says,
            });
        }
        Ok(SampleExpect {
            description: raw.description,
            arrive: raw.arrive,
            course: raw
                .course
                .map(|c| path.parent().unwrap_or(Path::new(".")).join(c)),
            rules,
            fix: raw.fix,
        })
    }

    /// The path to hand in: the directory, the library or program built from it, or an
    /// archive of it (packed here from labgrade's own sample: nothing is unpacked here).
    pub fn artifact_for(
        &self,
        dir: &Path,
        session: &Session,
        options: &SessionOptions,
    ) -> Result<PathBuf, String> {
        if self.arrive == Arrive::Source {
            return Ok(dir.to_path_buf());
        }
        let policy = crate::runner::prepare::intake_policy(&session.spec, dir, &options.worker_exe);
        let staged = crate::submission::intake::stage(dir, &options.cache.staging_dir(), &policy)?;
        if matches!(self.arrive, Arrive::Zip | Arrive::TarGz) {
            return pack(&staged, self.arrive, &options.cache.staging_dir());
        }
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
            Arrive::Source | Arrive::Zip | Arrive::TarGz => unreachable!(),
        };
        path.ok_or_else(|| "the sample built no such artifact".to_string())
    }
}

/// The line of the `[[expect]]` header above byte `at` (1-based), else `at`'s own line.
fn rule_line(text: &str, at: usize) -> usize {
    let before = &text[..at.min(text.len())];
    let own = before.matches('\n').count() + 1;
    before
        .lines()
        .enumerate()
        .filter(|(_, l)| l.trim_start().starts_with("[[expect]]"))
        .last()
        .map_or(own, |(i, _)| i + 1)
}

/// Packs a staged sample (less its `expect.toml`) into an archive under `under`, named after
/// the sample's directory, and returns the archive's path.
fn pack(
    staged: &crate::submission::intake::Staged,
    arrive: Arrive,
    under: &Path,
) -> Result<PathBuf, String> {
    use std::io::Write;
    let name = staged
        .original
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    let problem = staged
        .original
        .parent()
        .and_then(Path::file_name)
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    let dir = under.join("archived-samples").join(&problem);
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot pack the sample: {e}"))?;
    let files: Vec<&PathBuf> = staged
        .files
        .iter()
        .filter(|f| f.as_os_str() != "expect.toml")
        .collect();
    let err = |e: &dyn std::fmt::Display| format!("cannot pack the sample: {e}");
    let tmp = tempfile::NamedTempFile::new_in(&dir).map_err(|e| err(&e))?;
    let path = match arrive {
        Arrive::Zip => {
            let mut zip = zip::ZipWriter::new(tmp.as_file());
            let opts = zip::write::SimpleFileOptions::default()
                .compression_method(zip::CompressionMethod::Deflated);
            zip.add_directory(format!("{name}/"), opts)
                .map_err(|e| err(&e))?;
            for f in files {
                let data = std::fs::read(staged.root.join(f)).map_err(|e| err(&e))?;
                zip.start_file(format!("{name}/{}", f.display()), opts)
                    .map_err(|e| err(&e))?;
                zip.write_all(&data).map_err(|e| err(&e))?;
            }
            zip.finish().map_err(|e| err(&e))?;
            dir.join(format!("{name}.zip"))
        }
        Arrive::TarGz => {
            let gz = flate2::write::GzEncoder::new(tmp.as_file(), flate2::Compression::default());
            let mut tar = tar::Builder::new(gz);
            for f in files {
                tar.append_path_with_name(staged.root.join(f), f)
                    .map_err(|e| err(&e))?;
            }
            tar.into_inner()
                .and_then(|gz| gz.finish())
                .map_err(|e| err(&e))?;
            dir.join(format!("{name}.tar.gz"))
        }
        _ => unreachable!("only archives are packed"),
    };
    tmp.persist(&path).map_err(|e| err(&e))?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_rule_knows_its_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("expect.toml");
        std::fs::write(
            &path,
            "description = \"d\"\n\n# first\n[[expect]]\ncases = \"A/*\"\nverdict = \"crash\"\n\n\
             [[expect]]\nverdict = \"pass\"\ncases = \"*\"\n",
        )
        .unwrap();
        let e = SampleExpect::load(&path).unwrap();
        let lines: Vec<usize> = e.rules.iter().map(|r| r.line).collect();
        assert_eq!(lines, [4, 8]);
    }
}
