/*
 * labgrade hostile sample: 01-segfault
 * ------------------------------------
 * Attack:   FindGoodMove(7) reads through a null pointer (SIGSEGV). The pointer
 *           is volatile, so gcc cannot turn the read into a trap instruction.
 * Harmless: the fault kills only this process.
 * Stopped:  the worker sees the child die of SIGSEGV outside the stack guard:
 *           crash (process per run; the stack guard tells it from an overflow).
 * Verdict:  FindGoodMove/7/return and /calls crash; the rest as the book.
 */

#define _GNU_SOURCE
#include <stddef.h>
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
    int *volatile p = NULL;

    return *p + answer;
}
