/*
 * labgrade hostile sample: 23-huge-output
 * ---------------------------------------
 * Attack:   FindGoodMove(7) writes 64 MiB to standard output, in 64 KiB
 *           chunks, to fill the grader's disk or memory.
 * Harmless: bounded: at most 64 MiB; it returns a WRONG answer if all of it
 *           was written (a missing output limit shows as `fail`), the right
 *           one when a write was refused.
 * Stopped:  RLIMIT_FSIZE (the case's 64 KiB): a graded function's printing is
 *           never what fails its case, so the call ignores SIGXFSZ and the first
 *           write past the limit fails (EFBIG); the worker reads at most 64 KiB
 *           of the file, and the report says the rest was discarded.
 * Verdict:  everything as the book (FindGoodMove/7 passes, with a note).
 */

#define _GNU_SOURCE
#include <string.h>
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

#define CHUNK (64 * 1024)
#define TOTAL (64L << 20)

int Hostile(int answer) {
    static char chunk[CHUNK];
    long written = 0;

    memset(chunk, 'x', sizeof chunk);
    chunk[CHUNK - 1] = '\n';
    while (written < TOTAL) {
        ssize_t n = write(STDOUT_FILENO, chunk, sizeof chunk);
        if (n <= 0) break;
        written += n;
    }
    return written < TOTAL ? answer : answer + 1;
}
