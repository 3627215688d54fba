//! References computed once per distinct case argument, for problems whose reference is
//! expensive (a search over half a million distances, a 200 x 200 maze).
//!
//! One computation serves the expectation, the judgement of every submission and the
//! explanations. It recurses once per level of the search, so it runs on a thread of its
//! own with a large stack, never on one of the grader's, and a failure there is an error
//! for the case, not a crash of the grader.

use std::collections::HashMap;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use serde_json::Value;

use crate::spec::Case;

/// A process-wide map from a case argument's key to its computed reference.
pub struct Memo<T>(OnceLock<Mutex<HashMap<String, Arc<T>>>>);

impl<T: Send + Sync + 'static> Default for Memo<T> {
    fn default() -> Self {
        Memo::new()
    }
}

impl<T: Send + Sync + 'static> Memo<T> {
    /// An empty memo, for a `static`.
    pub const fn new() -> Memo<T> {
        Memo(OnceLock::new())
    }

    /// The value for `key`; the first time, `compute` runs on a thread with `stack_mb` MiB
    /// of stack, within [`REFERENCE_BUDGET`].
    pub fn get_or_compute(
        &self,
        key: String,
        stack_mb: usize,
        compute: impl FnOnce() -> Result<T, String> + Send + 'static,
    ) -> Result<Arc<T>, String> {
        self.get_or_compute_within(key, stack_mb, REFERENCE_BUDGET, compute)
    }

    /// [`Memo::get_or_compute`] with a time budget of its own. A reference that has not
    /// finished by then is an error for the case (its thread is left to the process's end):
    /// the fixture asks for more than the text's algorithm can compute.
    pub fn get_or_compute_within(
        &self,
        key: String,
        stack_mb: usize,
        budget: Duration,
        compute: impl FnOnce() -> Result<T, String> + Send + 'static,
    ) -> Result<Arc<T>, String> {
        let map = self.0.get_or_init(|| Mutex::new(HashMap::new()));
        if let Some(r) = map.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return Ok(Arc::clone(r));
        }
        let (tx, rx) = mpsc::channel();
        std::thread::Builder::new()
            .name("reference".into())
            .stack_size(stack_mb << 20)
            .spawn(move || {
                let _ = tx.send(compute());
            })
            .map_err(|e| format!("cannot start the reference's thread: {e}"))?;
        let r = match rx.recv_timeout(budget) {
            Ok(r) => r?,
            Err(RecvTimeoutError::Timeout) => {
                return Err(format!(
                    "the reference did not finish this case within {} s (the text's search \
                     grows too fast for this input): make the case smaller",
                    budget.as_secs_f64()
                ))
            }
            Err(RecvTimeoutError::Disconnected) => return Err("the reference panicked".into()),
        };
        let r = Arc::new(r);
        map.lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key, Arc::clone(&r));
        Ok(r)
    }
}

/// Longest a reference may take on one case argument. The largest bundled cases (a 200 x 200
/// maze, 1,000 turnpike points) take well under a second.
pub const REFERENCE_BUDGET: Duration = Duration::from_secs(120);

/// A case's first argument as JSON (the instance, for problems that take one).
pub fn first_arg(case: &Case) -> Option<Value> {
    case.def
        .args
        .first()
        .and_then(|v| serde_json::to_value(v).ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn computes_once_per_key_on_a_large_stack() {
        static MEMO: Memo<usize> = Memo::new();
        static RUNS: AtomicUsize = AtomicUsize::new(0);
        // 20,000 nested frames of 1 KiB: far beyond a test thread's 2 MiB.
        fn deep(n: usize) -> usize {
            let pad = std::hint::black_box([0u8; 1024]);
            if n == 0 {
                pad[0] as usize
            } else {
                deep(n - 1) + 1
            }
        }
        for _ in 0..3 {
            let r = MEMO.get_or_compute("a".into(), 64, || {
                RUNS.fetch_add(1, Ordering::SeqCst);
                Ok(deep(20_000))
            });
            assert_eq!(*r.unwrap(), 20_000);
        }
        assert_eq!(RUNS.load(Ordering::SeqCst), 1);
        let e = MEMO.get_or_compute("b".into(), 1, || Err("bad input".into()));
        assert_eq!(e.unwrap_err(), "bad input");
        let p = MEMO.get_or_compute("c".into(), 1, || panic!("boom"));
        assert_eq!(p.unwrap_err(), "the reference panicked");
    }

    #[test]
    fn a_reference_past_its_budget_is_an_error_for_the_case() {
        static MEMO: Memo<usize> = Memo::new();
        let e = MEMO.get_or_compute_within("slow".into(), 1, Duration::from_millis(50), || {
            std::thread::sleep(Duration::from_secs(2));
            Ok(1)
        });
        assert!(e.unwrap_err().contains("make the case smaller"));
    }
}
