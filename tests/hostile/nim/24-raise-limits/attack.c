/*
 * labgrade hostile sample: 24-raise-limits
 * ----------------------------------------
 * Attack:   FindGoodMove(7) raises RLIMIT_CPU and RLIMIT_AS to RLIM_INFINITY
 *           (soft and hard), ignores the result, and spins.
 * Harmless: the spin gives up after 60 s of wall time and returns a WRONG
 *           answer.
 * Stopped:  raising a hard limit needs CAP_SYS_RESOURCE: as nobody (or any
 *           user but root) setrlimit fails with EPERM, and RLIMIT_CPU sends
 *           SIGXCPU at 1 s: timeout (uid drop + rlimits). Were the limits
 *           raised, the worker's wall timer (1.5 s) would still say timeout.
 * Verdict:  FindGoodMove/7/return and /calls timeout; the rest as the book.
 */

#define _GNU_SOURCE
#include <sys/resource.h>
#include <time.h>
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

#define GIVE_UP_SECONDS 60

int Hostile(int answer) {
    struct rlimit unlimited;
    struct timespec start, now;
    volatile unsigned long spins = 0;

    unlimited.rlim_cur = RLIM_INFINITY;
    unlimited.rlim_max = RLIM_INFINITY;
    setrlimit(RLIMIT_CPU, &unlimited);
    setrlimit(RLIMIT_AS, &unlimited);
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        spins++;
        if ((spins & 0xfffff) == 0) {
            clock_gettime(CLOCK_MONOTONIC, &now);
            if (now.tv_sec - start.tv_sec >= GIVE_UP_SECONDS) break;
        }
    }
    return answer + 1;
}
