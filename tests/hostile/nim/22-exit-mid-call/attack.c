/*
 * labgrade hostile sample: 22-exit-mid-call
 * -----------------------------------------
 * Attack:   FindGoodMove(7) calls exit(0) instead of returning: the whole
 *           process ends with status 0, as if all went well.
 * Harmless: it ends only this process.
 * Stopped:  a function case must return; the child ended without reporting:
 *           crash ("ended the whole process") (process per run).
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
    exit(0);
}
