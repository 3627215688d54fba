/*
 * labgrade hostile sample: 02-abort
 * ---------------------------------
 * Attack:   FindGoodMove(7) calls abort() (SIGABRT).
 * Harmless: abort kills only this process (core dumps are off in the sandbox;
 *           without it, at most a core file in the working directory).
 * Stopped:  the worker sees SIGABRT with nothing on standard error that looks
 *           like an allocation failure: crash (process per run).
 * Verdict:  FindGoodMove/7/return and /calls crash; the rest as the book.
 */

#define _GNU_SOURCE
#include <stdlib.h>
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
    (void) answer;
    abort();
}
