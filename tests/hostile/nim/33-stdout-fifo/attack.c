/*
 * labgrade hostile sample: 33-stdout-fifo
 * ---------------------------------------
 * Attack:   FindGoodMove(7) replaces its stdout file with a FIFO: a worker that
 *           opens it to read the output blocks forever (no writer ever comes),
 *           and every later run of that slot with it.
 * Harmless: it changes only its own working directory (a FIFO named stdout).
 * Stopped:  the worker opens run files with O_NONBLOCK (a FIFO opens at once)
 *           and checks they are regular files: the FIFO is never read, and the
 *           run is a crash saying stdout was replaced by a FIFO.
 * Verdict:  FindGoodMove/7/return and /calls crash; the rest as the book.
 */

#define _GNU_SOURCE
#include <sys/stat.h>
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
        if (mkfifo("stdout", 0666) != 0) return -1;
    }
    return answer;
}
