//! Where to start: among many failures of a recursive function, the smallest input it
//! returns a wrong value for. Larger inputs recurse through smaller ones, so a wrong base
//! case (nim's `IsBadPosition(1)`) makes dozens of larger cases fail, across every function
//! built on it; read in case order, the one that tells comes sixth. A student fixes the
//! smallest failure first.
//!
//! The evidence is the cases themselves, named `Function/<n>/return` with an integer input
//! (every scalar recursion of the catalogue: nim, Miller-Rabin's power, the lab's depth):
//! the lead is the smallest failing `n` of any function, and it is called the base case
//! only when it is also the smallest input that function is tested on. Nothing is said when
//! fewer than two cases fail, no case has that form, or an explanation already names the
//! mistake ([`super::mistakes`]: a course's own constant, memoisation, ...), which tells the
//! cause better than any input.

use super::model::{CaseReport, SubmissionReport, Verdict};

/// The case to start from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lead {
    /// Its index in the report.
    pub case: usize,
    /// The function.
    pub function: String,
    /// Its input.
    pub input: i64,
    /// The inputs of the function below it, all right (None: it is the smallest tested).
    pub right_below: Option<(i64, i64)>,
    /// How many other cases fail that may follow from it: at a larger input, or with no
    /// input of their own (a whole game).
    pub others: usize,
    /// How many other cases fail at a smaller input: they cannot follow from it.
    pub below: usize,
}

/// The integer input a case is named with (`FindGoodMove/7/calls`), if any.
fn input_of(name: &str) -> Option<i64> {
    name.split('/').nth(1)?.parse().ok()
}

/// `Function/<n>/return` as its function and input.
fn scalar_return(name: &str) -> Option<(&str, i64)> {
    let mut parts = name.split('/');
    let (function, n, aspect) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() || aspect != "return" || function.is_empty() {
        return None;
    }
    Some((function, n.parse().ok()?))
}

/// Whether the case ran and got a wrong answer or ended abnormally (not a build or load
/// failure, where no input is to blame).
fn wrong(case: &CaseReport) -> bool {
    !case.passed
        && !matches!(
            case.verdict,
            Verdict::BuildError
                | Verdict::LoadError
                | Verdict::MissingSymbol
                | Verdict::Skipped
                | Verdict::NotObservable
                | Verdict::InternalError
        )
}

/// The lead among the cases `shown` says may be shown, when there is one.
pub fn find(report: &SubmissionReport, shown: &dyn Fn(&CaseReport) -> bool) -> Option<Lead> {
    let cases = &report.cases;
    let failing = cases.iter().filter(|c| wrong(c)).count();
    if failing < 2
        || cases
            .iter()
            .any(|c| !super::mistakes::of_case(c).is_empty())
    {
        return None;
    }
    let (case, function, input) = cases
        .iter()
        .enumerate()
        .filter(|(_, c)| wrong(c) && shown(c))
        .filter_map(|(i, c)| scalar_return(&c.name).map(|(f, n)| (i, f, n)))
        .min_by_key(|&(i, _, n)| (n, i))?;
    let below: Vec<i64> = cases
        .iter()
        .filter_map(|c| scalar_return(&c.name))
        .filter(|&(f, n)| f == function && n < input)
        .map(|(_, n)| n)
        .collect();
    let right_below = match (below.iter().min(), below.iter().max()) {
        (Some(&lo), Some(&hi)) => Some((lo, hi)),
        _ => None,
    };
    // A recursion on n reaches only smaller inputs: a failure at a smaller input than the
    // lead's cannot follow from it.
    let below = cases
        .iter()
        .enumerate()
        .filter(|&(i, c)| i != case && wrong(c))
        .filter(|(_, c)| input_of(&c.name).is_some_and(|m| m < input))
        .count();
    Some(Lead {
        case,
        function: function.to_string(),
        input,
        right_below,
        others: failing - 1 - below,
        below,
    })
}

impl Lead {
    /// The advice, in words (after the case's own message).
    pub fn advice(&self) -> String {
        let (f, n) = (&self.function, self.input);
        let mut rest = match self.others {
            0 => String::new(),
            1 => "the other failure may follow from it".to_string(),
            k => format!("the {k} other failures may all follow from it"),
        };
        if self.below > 0 {
            let at = if self.below == 1 {
                "the one at a smaller input cannot (it is wrong on its own)".to_string()
            } else {
                format!(
                    "the {} at smaller inputs cannot (they are wrong on their own)",
                    self.below
                )
            };
            rest = if rest.is_empty() {
                at
            } else {
                format!("{rest}; {at}")
            };
        }
        let rest = if rest.is_empty() {
            String::new()
        } else {
            format!("; {rest}")
        };
        match self.right_below {
            None => format!(
                "{n} is the smallest input {f} is tested on: check {f}'s base case \
                 first{rest}."
            ),
            Some((lo, hi)) if lo == hi => format!(
                "{f}({n}) is the smallest input it goes wrong on ({f}({lo}) is right): check \
                 what it does at {n} first{rest}."
            ),
            Some((lo, hi)) => format!(
                "{f}({n}) is the smallest input it goes wrong on ({f}({lo}) to {f}({hi}) are \
                 right): check what it does at {n} first{rest}."
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::test_helpers::{case, sample_report};

    fn report(cases: Vec<CaseReport>) -> SubmissionReport {
        SubmissionReport {
            cases,
            ..sample_report()
        }
    }

    fn failing(name: &str) -> CaseReport {
        case(name, Verdict::Fail, false)
    }

    fn passing(name: &str) -> CaseReport {
        case(name, Verdict::Pass, true)
    }

    #[test]
    fn a_wrong_base_case_leads_and_is_named() {
        // nim with `nCoins == 0` as IsBadPosition's base case, in case order.
        let r = report(vec![
            failing("FindGoodMove/2/return"),
            failing("FindGoodMove/2/calls"),
            failing("IsBadPosition/1/return"),
            passing("IsBadPosition/2/return"),
            failing("IsBadPosition/4/return"),
            failing("ChooseComputerMove/2/return"),
        ]);
        let lead = find(&r, &|_| true).expect("a lead");
        assert_eq!(
            (lead.case, lead.function.as_str(), lead.input),
            (2, "IsBadPosition", 1)
        );
        assert_eq!(lead.right_below, None);
        let advice = lead.advice();
        assert!(
            advice.contains("check IsBadPosition's base case first"),
            "{advice}"
        );
        assert!(advice.contains("the 4 other failures"), "{advice}");
    }

    #[test]
    fn failures_at_smaller_inputs_are_not_said_to_follow() {
        // A count wrong at 1 and 2 (a calls case), and answers wrong from 3 up: the answers
        // above 3 may follow from IsBadPosition(3), the counts below it cannot.
        let r = report(vec![
            failing("FindGoodMove/1/calls"),
            failing("FindGoodMove/2/calls"),
            passing("IsBadPosition/1/return"),
            passing("IsBadPosition/2/return"),
            failing("IsBadPosition/3/return"),
            failing("IsBadPosition/4/return"),
            failing("game/figure-7-4"),
        ]);
        let lead = find(&r, &|_| true).expect("a lead");
        assert_eq!((lead.input, lead.others, lead.below), (3, 2, 2));
        let advice = lead.advice();
        assert!(
            advice.contains(
                "the 2 other failures may all follow from it; the 2 at smaller inputs \
                 cannot (they are wrong on their own)"
            ),
            "{advice}"
        );
        // Only a smaller one besides the lead: nothing is said to follow.
        let r = report(vec![
            failing("FindGoodMove/1/calls"),
            passing("IsBadPosition/1/return"),
            failing("IsBadPosition/2/return"),
        ]);
        let advice = find(&r, &|_| true).expect("a lead").advice();
        assert!(!advice.contains("follow"), "{advice}");
        assert!(
            advice.ends_with("first; the one at a smaller input cannot (it is wrong on its own)."),
            "{advice}"
        );
    }

    #[test]
    fn a_mistake_above_the_base_case_is_not_called_the_base_case() {
        let r = report(vec![
            passing("power/0/return"),
            passing("power/1/return"),
            failing("power/2/return"),
            failing("power/3/return"),
        ]);
        let lead = find(&r, &|_| true).expect("a lead");
        assert_eq!(lead.input, 2);
        assert_eq!(lead.right_below, Some((0, 1)));
        let advice = lead.advice();
        assert!(!advice.contains("base case"), "{advice}");
        assert!(
            advice.contains("power(0) to power(1) are right"),
            "{advice}"
        );
    }

    #[test]
    fn a_named_mistake_is_the_cause_and_nothing_leads() {
        let constant = CaseReport {
            message: "FindGoodMove(5) returned 0; the reference returns -1\nFindGoodMove(5) \
                      returned 0, exactly what Figure 7-5 returns with NO_GOOD_MOVE = 0; \
                      labgrade graded against NO_GOOD_MOVE = -1."
                .into(),
            ..failing("FindGoodMove/5/return")
        };
        let r = report(vec![constant, failing("FindGoodMove/9/return")]);
        assert_eq!(find(&r, &|_| true), None);
    }

    #[test]
    fn nothing_leads_without_evidence() {
        // One failure: nothing to order.
        let one = report(vec![
            failing("IsBadPosition/1/return"),
            passing("x/1/return"),
        ]);
        assert_eq!(find(&one, &|_| true), None);
        // Failures of counts only, or of cases with no integer input: no wrong value.
        let counts = report(vec![
            failing("FindGoodMove/2/calls"),
            failing("FindGoodMove/3/calls"),
            failing("game/figure-7-4"),
            failing("SolveMaze/figure-7-3/return"),
        ]);
        assert_eq!(find(&counts, &|_| true), None);
        // A hidden case is never named.
        let hidden = report(vec![
            failing("IsBadPosition/1/return"),
            failing("IsBadPosition/5/return"),
        ]);
        let lead = find(&hidden, &|c| c.name != "IsBadPosition/1/return").expect("a lead");
        assert_eq!(lead.input, 5);
        // A build that failed blames no input.
        let build = report(vec![
            case("IsBadPosition/1/return", Verdict::BuildError, false),
            case("IsBadPosition/2/return", Verdict::BuildError, false),
        ]);
        assert_eq!(find(&build, &|_| true), None);
    }
}
