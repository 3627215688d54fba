//! The CPU limit derived from the reference charges a run's system time too, except while
//! the kernel is faulting its memory in: a loop of system calls (a game reading on at the end
//! of its input) stops at the limit, not at the kernel's whole-second backstop, and a memory
//! bomb is still a `memory-limit`.

use labgrade::sandbox::{Ending, WorkerPool};

use crate::batch::{build, requests_on, worker};

const LIBRARY: &str = r#"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int FindGoodMove(int n) {
    if (n == 1) { char c; for (;;) { if (read(0, &c, 1) < 0) return -1; } }
    if (n == 2) for (;;) { char *p = malloc(1 << 20); if (!p) abort(); memset(p, 1, 1 << 20); }
    return n;
}
"#;

#[test]
fn a_system_call_loop_is_stopped_at_the_limit_and_a_memory_bomb_is_still_named() {
    let lib = build("syscalls", "gcc", LIBRARY, &[]);
    for shares_child in [false, true] {
        let mut reqs = requests_on(&lib, &[1, 2, 3], shares_child);
        for r in &mut reqs {
            r.limits.cpu_seconds = 4;
        }
        let obs = WorkerPool::new(worker(), 1).run_all(&reqs, &|_, _| {});
        assert_eq!(obs[0].ending, Ending::CpuTimeout, "{:?}", obs[0]);
        // Stopped near its 150 ms (charging user time alone let it run past a second here;
        // the kernel's backstop is 4 s).
        assert!(obs[0].cpu_ms < 600.0, "ran to {} ms of CPU", obs[0].cpu_ms);
        assert_eq!(obs[1].ending, Ending::MemoryLimit, "{:?}", obs[1]);
        assert_eq!(obs[2].value, Some(3.into()));
    }
}
