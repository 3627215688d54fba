//! Cases labgrade could not measure, settled so that every student of a problem is graded
//! out of the same maximum: a student cannot make a measurement vanish (0 of 0) by how they
//! hand in their work.
//!
//! What the submission's own code hides is already a failure ([`crate::compare::Hides`]).
//! What is left is of two kinds. A prebuilt library or program, where the spec asks for
//! sources, is the student's choice: each case it cannot show fails, saying to hand in the
//! sources, unless the spec's `[rubric] accept_prebuilt` says prebuilt work is accepted.
//! Everything else is labgrade's own limit for every submission of that kind (a turnpike
//! that keeps its own distance set, a Java program's sanitizer run), or what the spec
//! accepts: such a case keeps its points (credited), and the report says so.

use crate::report::{CaseReport, Verdict};

/// Settles the `not-observable` cases of a submission of build kind `kind` (`c`, `cpp`,
/// `java`, `rust`, `library`, `executable`).
pub fn settle(cases: &mut [CaseReport], kind: &str, accept_prebuilt: bool) {
    let prebuilt = match kind {
        "library" => Some("library"),
        "executable" => Some("program"),
        _ => None,
    };
    for c in cases
        .iter_mut()
        .filter(|c| c.verdict == Verdict::NotObservable)
    {
        match prebuilt {
            Some(what) if !accept_prebuilt => {
                c.verdict = Verdict::Fail;
                c.passed = false;
                c.score = 0.0;
                c.message = format!(
                    "you handed in a prebuilt {what}, and this case needs what only labgrade's \
                     own build of your sources shows ({}): hand in your sources (this \
                     assignment does not accept prebuilt work)",
                    c.message.trim_end_matches('.')
                );
            }
            _ => {
                c.score = c.max_score;
                c.message = format!(
                    "{} (credited in full: labgrade cannot see this for any submission of this \
                     kind)",
                    c.message
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::test_helpers::case;

    fn unseen() -> CaseReport {
        CaseReport {
            max_score: 2.0,
            message: "calls are not observable".into(),
            ..case("f/calls", Verdict::NotObservable, false)
        }
    }

    #[test]
    fn a_prebuilt_library_fails_what_it_hides_unless_the_spec_accepts_it() {
        let mut cases = vec![unseen(), case("f/return", Verdict::Pass, true)];
        settle(&mut cases, "library", false);
        assert_eq!(cases[0].verdict, Verdict::Fail);
        assert_eq!((cases[0].score, cases[0].max_score), (0.0, 2.0));
        assert!(cases[0].message.contains("hand in your sources"));
        assert_eq!(
            cases[1].verdict,
            Verdict::Pass,
            "other cases are left alone"
        );

        let mut cases = vec![unseen()];
        settle(&mut cases, "executable", true);
        assert_eq!(cases[0].verdict, Verdict::NotObservable);
        assert_eq!((cases[0].score, cases[0].max_score), (2.0, 2.0));
    }

    #[test]
    fn what_labgrade_cannot_see_in_built_sources_is_credited_out_of_the_same_maximum() {
        for kind in ["c", "cpp", "java", "rust"] {
            let mut cases = vec![unseen()];
            settle(&mut cases, kind, false);
            assert_eq!(cases[0].verdict, Verdict::NotObservable, "{kind}");
            assert_eq!((cases[0].score, cases[0].max_score), (2.0, 2.0), "{kind}");
            assert!(cases[0].message.contains("credited in full"), "{kind}");
        }
    }
}
