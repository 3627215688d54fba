/*
 * labgrade hostile sample: 05-busy-loop
 * -------------------------------------
 * Attack:   FindGoodMove(7) spins in a loop that never returns in time.
 * Harmless: bounded: it gives up after 60 s of wall time and returns a wrong
 *           answer (so a missing time limit shows as `fail`, not as a hang).
 * Stopped:  RLIMIT_CPU (1 s) sends SIGXCPU: timeout (rlimits; the worker's wall
 *           timer would stop it at 1.5 s anyway).
 * Verdict:  FindGoodMove/7/return and /calls timeout; the rest as the book.
 */

#define _GNU_SOURCE
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
    struct timespec start, now;
    volatile unsigned long spins = 0;

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
