/*
 * labgrade hostile sample: 36-renice-parent
 * -----------------------------------------
 * Attack:   FindGoodMove(7) changes the scheduling priority of its parent (the
 *           worker that times and judges it) with setpriority(PRIO_PROCESS,
 *           getppid(), ...), as a program that wants the grader slowed would.
 * Harmless: it sets the parent's priority to the value getpriority() reads for
 *           it, so even where the call is allowed nothing changes; if the read
 *           fails it does nothing. The answer is right either way.
 * Stopped:  seccomp allows setpriority only for the caller itself (which 0, who
 *           0): the call is trapped, forbidden. (Run as nobody, the kernel would
 *           also refuse to renice root's worker.)
 * Verdict:  FindGoodMove/7/return and /calls forbidden; the rest as the book.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <sys/resource.h>
#include <unistd.h>
#include <stdio.h>
#include "genlib.h"
#include "simpio.h"
#include "nim.h"

/* The book (Figure 7-5 with the hook) is book.c: ../../shared/nim_book.c. */
int Hostile(int answer);

/*
 * Function: Hostile
 * Usage: return Hostile(answer);
 * ------------------------------
 * Called with the right answer (2 for 7 coins); what it returns is what
 * labgrade sees.
 */

int Hostile(int answer) {
    pid_t parent = getppid();
    int prio;

    errno = 0;
    prio = getpriority(PRIO_PROCESS, (id_t) parent);
    if (prio == -1 && errno != 0) return answer;
    setpriority(PRIO_PROCESS, (id_t) parent, prio);
    return answer;
}
