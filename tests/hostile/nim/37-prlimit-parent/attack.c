/*
 * labgrade hostile sample: 37-prlimit-parent
 * ------------------------------------------
 * Attack:   FindGoodMove(7) sets resource limits of its parent (the worker)
 *           with prlimit(getppid(), ...): a low RLIMIT_NOFILE or RLIMIT_AS there
 *           would break every later run of that slot.
 * Harmless: it reads the parent's RLIMIT_CORE and writes back exactly what it
 *           read, so even where the call is allowed nothing changes; if the
 *           read fails it writes nothing. The answer is right either way.
 * Stopped:  seccomp allows prlimit64 only on the caller itself (pid 0): the
 *           read is already trapped, forbidden. (Run as nobody, the kernel would
 *           also refuse to touch root's worker.)
 * Verdict:  FindGoodMove/7/return and /calls forbidden; the rest as the book.
 */

#define _GNU_SOURCE
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
    struct rlimit old;

    if (prlimit(parent, RLIMIT_CORE, NULL, &old) != 0) return answer;
    prlimit(parent, RLIMIT_CORE, &old, NULL);
    return answer;
}
