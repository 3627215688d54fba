/*
 * labgrade hostile sample: 32-stdout-symlink
 * ------------------------------------------
 * Attack:   FindGoodMove(7) replaces its stdout file (in the run's directory,
 *           its working directory) with a symbolic link to /etc/hostname, so
 *           that labgrade, reading "the program's output" as root, puts a file
 *           of the grading machine into the report.
 * Harmless: it changes only its own working directory (a symlink named
 *           stdout) and points at a file that is world-readable anyway.
 * Stopped:  the worker opens run files relative to the directory's descriptor
 *           with O_NOFOLLOW and checks they are regular files: the link is
 *           never followed, and the run is a crash saying stdout was replaced
 *           by a symbolic link.
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
    if (unlink("stdout") == 0) {
        if (symlink("/etc/hostname", "stdout") != 0) return -1;
    }
    return answer;
}
