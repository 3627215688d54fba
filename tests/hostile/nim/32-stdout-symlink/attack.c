/*
 * labgrade hostile sample: 32-stdout-symlink
 * ------------------------------------------
 * Attack:   FindGoodMove(7) puts a symbolic link named stdout (and one named
 *           stdin) to /etc/hostname in its working directory, so that a
 *           worker reading "the program's output" from the run directory, as
 *           root, puts a file of the grading machine into the report, or feeds
 *           it to the next run.
 * Harmless: it changes only its own working directory and points at a file
 *           that is world-readable anyway.
 * Stopped:  a run's streams are anonymous files (memfd) the worker created and
 *           reads back by descriptor: nothing in the run directory is ever
 *           opened by the worker. What the run leaves there is unlinked, never
 *           followed, before the next run.
 * Verdict:  every case as the book (the answer is right).
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
    unlink("stdout");
    unlink("stdin");
    if (symlink("/etc/hostname", "stdout") != 0) return -1;
    if (symlink("/etc/hostname", "stdin") != 0) return -1;
    return answer;
}
