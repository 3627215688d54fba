/*
 * labgrade hostile sample: 16-close-all-fds
 * -----------------------------------------
 * Attack:   FindGoodMove(7) closes every file descriptor from 3 to 1023,
 *           labgrade's result channel among them, and returns the right
 *           answer: the child can no longer report anything.
 * Harmless: it closes only this process's own descriptors.
 * Stopped:  the worker finds no report from a child that reached its own end:
 *           the run is not trusted, crash (worker: missing report).
 * Verdict:  FindGoodMove/7/return and /calls crash; the rest as the book.
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
    int fd;

    for (fd = 3; fd < 1024; fd++) close(fd);
    return answer;
}
