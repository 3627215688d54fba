/*
 * labgrade hostile sample: 03-divide-by-zero
 * ------------------------------------------
 * Attack:   FindGoodMove(7) divides an int by a volatile zero (SIGFPE on
 *           x86-64; volatile so that gcc cannot fold or drop the division).
 * Harmless: the signal kills only this process.
 * Stopped:  the worker sees SIGFPE: crash (process per run).
 * Verdict:  FindGoodMove/7/return and /calls crash; the rest as the book.
 * Note:     on aarch64 an integer division by zero gives 0 and no signal: there
 *           the return case would be `fail` (0 instead of 2).
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

int Hostile(int answer) {
    volatile int zero = 0;

    return answer / zero;
}
