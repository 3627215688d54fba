//! Errors met while reading specs and fixtures.

use std::path::PathBuf;

/// A spec or fixture that cannot be used, with where and why.
#[derive(Debug, thiserror::Error)]
pub enum SpecError {
    /// The file could not be read at all.
    #[error("cannot read `{path}`: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The TOML is malformed or a field has the wrong type or name.
    #[error("{path}:{line}:{column}: {message}")]
    Syntax {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The parser's message (names the field).
        message: String,
    },
    /// The TOML is well formed but says something labgrade cannot do.
    #[error("{}: {message}", at(path, *line))]
    Invalid {
        /// The file.
        path: PathBuf,
        /// 1-based line (0 when unknown).
        line: usize,
        /// What is wrong and what to do.
        message: String,
    },
    /// No spec for that problem name.
    #[error("unknown problem `{name}`{hint} (known problems: {known})")]
    UnknownProblem {
        /// What was asked for.
        name: String,
        /// `: did you mean `maze-lib`?`, or nothing.
        hint: String,
        /// Comma-separated known names.
        known: String,
    },
    /// No specs directory could be found.
    #[error("cannot find labgrade's specs/ and fixtures/ (looked in {looked}); run from the labgrade checkout or pass --root <dir>")]
    NoRoot {
        /// Where it looked.
        looked: String,
    },
}

/// 1-based line and column of a byte offset in `text`.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// Turns a `toml` deserialisation error into a [`SpecError::Syntax`] naming the file.
pub fn from_toml(path: &std::path::Path, text: &str, err: toml::de::Error) -> SpecError {
    let (line, column) = err.span().map_or((1, 1), |s| line_col(text, s.start));
    SpecError::Syntax {
        path: path.to_path_buf(),
        line,
        column,
        message: err.message().trim().to_string(),
    }
}

/// `path:line`, or the path alone when the line is unknown (0): a directory, a whole file.
fn at(path: &std::path::Path, line: usize) -> String {
    match line {
        0 => path.display().to_string(),
        line => format!("{}:{line}", path.display()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_from_one() {
        let t = "a = 1\nbb = 2\n";
        assert_eq!(line_col(t, 0), (1, 1));
        assert_eq!(line_col(t, 6), (2, 1));
        assert_eq!(line_col(t, 8), (2, 3));
    }

    #[test]
    fn an_unknown_line_is_not_shown_as_line_0() {
        let e = |line| SpecError::Invalid {
            path: "pkg/reference".into(),
            line,
            message: "why".into(),
        };
        assert_eq!(e(0).to_string(), "pkg/reference: why");
        assert_eq!(e(3).to_string(), "pkg/reference:3: why");
    }
}
