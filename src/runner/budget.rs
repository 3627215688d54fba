//! A submission's timeout budget: once its runs have timed out `max_timeouts` times (the
//! spec's `[limits]`), its later runs are not started and are `skipped`.
//!
//! A submission that never ends would otherwise cost a full time limit per case (a looping
//! turnpike took minutes per `check`). The verdicts must not depend on scheduling, so the
//! rule is stated in case order: a run is skipped when the runs of the same submission
//! before it (by case order) hold `max_timeouts` timeouts. Before a run starts, the pool asks
//! [`TimeoutBudget::skip`], which can only answer from runs already finished; a run it could
//! not yet rule out may still start, and [`TimeoutBudget::settle`] applies the rule exactly
//! once every run of the submission is in. So the time is saved as far as the order of
//! finishing allows, and the verdicts are the same on one core or many.

use std::sync::Mutex;

use crate::sandbox::{Ending, Observation};

fn timed_out(obs: &Observation) -> bool {
    matches!(obs.ending, Ending::WallTimeout | Ending::CpuTimeout)
}

/// The budget of every submission in one grading run.
pub struct TimeoutBudget {
    /// The submission each run belongs to, by run id (ids are in case order per submission).
    owner: Vec<usize>,
    max: u64,
    /// Per run: None while not finished, else whether it timed out.
    done: Mutex<Vec<Option<bool>>>,
}

impl TimeoutBudget {
    /// A budget of `max` timeouts per submission; `owner[i]` is run i's submission.
    pub fn new(owner: Vec<usize>, max: u64) -> TimeoutBudget {
        let n = owner.len();
        TimeoutBudget {
            owner,
            max: max.max(1),
            done: Mutex::new(vec![None; n]),
        }
    }

    /// Before run `i` starts: `skipped` when the finished runs of its submission before it
    /// already hold the budget's timeouts.
    pub fn skip(&self, i: usize) -> Option<Observation> {
        let done = self.done.lock().expect("budget");
        let timeouts = (0..i)
            .filter(|&j| self.owner[j] == self.owner[i] && done[j] == Some(true))
            .count() as u64;
        (timeouts >= self.max).then(|| {
            Observation::not_run(Ending::Skipped {
                timeouts: timeouts as u32,
            })
        })
    }

    /// Run `i` finished (or was skipped) with `obs`.
    pub fn record(&self, i: usize, obs: &Observation) {
        self.done.lock().expect("budget")[i] = Some(timed_out(obs));
    }

    /// Applies the rule exactly to the runs `ids` of one submission (in case order), all
    /// finished: every run after the budget's last timeout becomes `skipped`, whether or not
    /// it was started.
    pub fn settle(&self, ids: &[usize], observations: &mut [Option<Observation>]) {
        let mut timeouts = 0u64;
        for &id in ids {
            if timeouts >= self.max {
                observations[id] = Some(Observation::not_run(Ending::Skipped {
                    timeouts: timeouts as u32,
                }));
                continue;
            }
            if observations[id].as_ref().is_some_and(timed_out) {
                timeouts += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obs(ending: Ending) -> Option<Observation> {
        Some(Observation::not_run(ending))
    }

    #[test]
    fn runs_after_the_budget_are_skipped_whatever_the_order_they_finished_in() {
        // Submission 0 has runs 0..5, submission 1 runs 5..7; a budget of 2.
        let b = TimeoutBudget::new(vec![0, 0, 0, 0, 0, 1, 1], 2);
        assert!(b.skip(3).is_none());
        b.record(0, &Observation::not_run(Ending::CpuTimeout));
        b.record(2, &Observation::not_run(Ending::WallTimeout));
        // Runs 0 and 2 timed out: run 3 is not started; run 1 (before them) is.
        assert!(matches!(
            b.skip(3).map(|o| o.ending),
            Some(Ending::Skipped { timeouts: 2 })
        ));
        assert!(b.skip(1).is_none());
        // Another submission's budget is its own.
        assert!(b.skip(6).is_none());
        // Run 1 had started and timed out too, and run 3 ran before the rule could tell:
        // settling gives the same verdicts as in case order.
        let mut all = vec![
            obs(Ending::CpuTimeout),
            obs(Ending::CpuTimeout),
            obs(Ending::WallTimeout),
            obs(Ending::Returned),
            obs(Ending::Returned),
        ];
        b.settle(&[0, 1, 2, 3, 4], &mut all);
        let endings: Vec<bool> = all
            .iter()
            .map(|o| matches!(o.as_ref().unwrap().ending, Ending::Skipped { .. }))
            .collect();
        assert_eq!(endings, [false, false, true, true, true]);
    }
}
