/*
 * labgrade hostile sample: 06-sleep
 * ---------------------------------
 * Attack:   FindGoodMove(7) sleeps 30 s (no CPU used, so the CPU limit never
 *           fires), then returns a wrong answer.
 * Harmless: a sleep.
 * Stopped:  the worker's wall-clock timer (1.5 s) kills the process group:
 *           timeout (worker wall timeout).
 * Verdict:  FindGoodMove/7/return and /calls timeout; the rest as the book.
 */

#define _GNU_SOURCE
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
    sleep(30);
    return answer + 1;
}
