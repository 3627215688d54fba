/*
 * labgrade hostile sample: 04-runaway-recursion
 * ---------------------------------------------
 * Attack:   FindGoodMove(7) starts a recursion that does not stop within any
 *           stack labgrade gives: a helper with a volatile 128-byte local array
 *           calls itself before using the array (not a tail call), up to 2^20
 *           levels (at least 128 MiB of stack).
 * Harmless: bounded: at 2^20 levels it stops and returns a wrong answer (so a
 *           missing stack limit shows as `fail`). With an ordinary 8 MiB stack
 *           it dies of SIGSEGV long before; with `ulimit -s unlimited` it uses
 *           at most a few hundred MiB of stack once.
 * Stopped:  the student thread's stack (the case's 8 MiB) ends in a guard page;
 *           the fault there is recognised: stack-overflow (stack guard).
 * Verdict:  FindGoodMove/7/return and /calls stack-overflow; the rest as the book.
 */

#define _GNU_SOURCE
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

#define RUNAWAY_LEVELS (1 << 20)

static volatile int runawayLevels = RUNAWAY_LEVELS;

static int Runaway(int level) {
    volatile char pad[128];

    pad[0] = (char) level;
    if (level >= runawayLevels) return 1;
    return Runaway(level + 1) + pad[0];
}

int Hostile(int answer) {
    return answer + Runaway(0);
}
