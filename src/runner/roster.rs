//! The course roster (`grade --roster roster.csv`): who the students are, under the id the
//! gradebook should use.
//!
//! A CSV file with a header row. The `id` column is required: it is the student id every
//! output carries. A `name` column is optional. Every other column (an email, a Canvas
//! login or user id, a Gradescope sid, a Moodle id) is another name for the same student: a
//! submission is matched to the row whose `id` or any other cell equals an id the export
//! gives it (letter case and surrounding spaces aside).

use std::collections::BTreeMap;
use std::path::Path;

use super::class::ClassSubmission;

/// One student of the roster.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Student {
    /// The id every output carries.
    pub id: String,
    /// The student's name, if the roster has a `name` column.
    pub name: Option<String>,
}

/// A course roster.
#[derive(Debug, Clone, Default)]
pub struct Roster {
    /// Every student, in file order.
    pub students: Vec<Student>,
    /// Any cell of a row (lowercased) -> the row.
    index: BTreeMap<String, usize>,
}

fn normal(cell: &str) -> String {
    cell.trim().to_lowercase()
}

impl Roster {
    /// Reads a roster file.
    pub fn load(path: &Path) -> Result<Roster, String> {
        let text = crate::spec::text_file::read(path)
            .map_err(|e| format!("cannot read the roster `{}`: {e}", path.display()))?;
        Roster::parse(&text).map_err(|e| format!("roster `{}`: {e}", path.display()))
    }

    /// Reads a roster's text.
    pub fn parse(text: &str) -> Result<Roster, String> {
        let mut reader = ::csv::ReaderBuilder::new()
            .flexible(true)
            .from_reader(text.as_bytes());
        let header: Vec<String> = reader
            .headers()
            .map_err(|e| e.to_string())?
            .iter()
            .map(normal)
            .collect();
        let column = |name: &str| header.iter().position(|h| h == name);
        let id_col = column("id").ok_or_else(|| {
            format!(
                "no `id` column (the header is `{}`): the first line must name the columns, \
                 e.g. `id,name,email`",
                header.join(",")
            )
        })?;
        let name_col = column("name");
        let mut roster = Roster::default();
        for (n, row) in reader.records().enumerate() {
            let row = row.map_err(|e| e.to_string())?;
            let id = row.get(id_col).unwrap_or("").trim();
            if id.is_empty() {
                continue;
            }
            let at = roster.students.len();
            roster.students.push(Student {
                id: id.to_string(),
                name: name_col
                    .and_then(|c| row.get(c))
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_string),
            });
            for (c, cell) in row.iter().enumerate() {
                if Some(c) == name_col || cell.trim().is_empty() {
                    continue;
                }
                if let Some(&other) = roster.index.get(&normal(cell)) {
                    if other != at && c == id_col {
                        return Err(format!(
                            "line {}: the id `{id}` is also on an earlier line",
                            n + 2
                        ));
                    }
                    continue;
                }
                roster.index.insert(normal(cell), at);
            }
        }
        Ok(roster)
    }

    /// The roster's student for a submission: matched by its student id first, then by
    /// its other ids.
    pub fn find(&self, sub: &ClassSubmission) -> Option<&Student> {
        self.find_any(std::iter::once(&sub.student_id).chain(&sub.aliases))
    }

    /// The student any of `keys` (an id, then other identities) names.
    pub fn find_any<'a>(&self, mut keys: impl Iterator<Item = &'a String>) -> Option<&Student> {
        keys.find_map(|k| self.index.get(&normal(k)))
            .map(|&i| &self.students[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sub(id: &str, aliases: &[&str]) -> ClassSubmission {
        ClassSubmission {
            name: "x".into(),
            path: "x".into(),
            student_id: id.into(),
            student_name: None,
            late: None,
            submitted_at: None,
            partners: Vec::new(),
            aliases: aliases.iter().map(|a| a.to_string()).collect(),
        }
    }

    #[test]
    fn students_are_found_by_id_or_any_other_column() {
        let r = Roster::parse(
            "ID,Name,Email,canvas_login\n\
             s1815,Ada Lovelace,ada@example.edu,lovelaceada\n\
             s1912,Alan Turing,alan@example.edu,\n",
        )
        .unwrap();
        assert_eq!(r.find(&sub("S1815", &[])).unwrap().id, "s1815");
        let ada = r.find(&sub("5555", &["lovelaceada"])).unwrap();
        assert_eq!(ada.name.as_deref(), Some("Ada Lovelace"));
        assert_eq!(r.find(&sub("Alan@Example.edu ", &[])).unwrap().id, "s1912");
        assert!(r.find(&sub("nobody", &["Ada Lovelace"])).is_none());
    }

    #[test]
    fn a_roster_needs_an_id_column_and_distinct_ids() {
        let e = Roster::parse("student,name\n1,a\n").unwrap_err();
        assert!(e.contains("no `id` column"), "{e}");
        let e = Roster::parse("id,name\n1,a\n1,b\n").unwrap_err();
        assert!(e.contains("line 3"), "{e}");
    }
}
