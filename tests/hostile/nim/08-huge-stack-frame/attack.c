/*
 * labgrade hostile sample: 08-huge-stack-frame
 * --------------------------------------------
 * Attack:   FindGoodMove(7) calls a function with a 64 MiB local array and
 *           writes its far end (element 0, 64 MiB below the frame): one frame
 *           jumps clean over the 8 MiB stack and its guard page.
 * Harmless: the write faults (or, with an unlimited stack, lands in the
 *           process's own stack); if it does not fault the function returns a
 *           wrong answer, so a missing guard shows as `fail`.
 * Stopped:  the SIGSEGV handler sees the stack pointer itself below the
 *           student thread's stack: stack-overflow (stack guard, the
 *           "frame larger than the guard" rule).
 * Verdict:  FindGoodMove/7/return and /calls stack-overflow; the rest as the book.
 * Unsure:   if some writable mapping happened to lie 56 MiB below the thread's
 *           stack the write would land there instead of faulting (not seen).
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

#define BIG_FRAME (64 << 20)

__attribute__((noinline))
static int BigFrame(int answer) {
    volatile char big[BIG_FRAME];

    big[0] = 1;
    big[BIG_FRAME - 1] = 1;
    return answer + big[0];
}

int Hostile(int answer) {
    return BigFrame(answer);
}
