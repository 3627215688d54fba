/*
 * labgrade hostile sample: 33-stdout-fifo
 * ---------------------------------------
 * Attack:   FindGoodMove(7) puts a FIFO named stdout in its working directory:
 *           a worker that opens it to read the output blocks forever (no
 *           writer ever comes), and every later run of that slot with it.
 * Harmless: it changes only its own working directory (a FIFO named stdout).
 * Stopped:  a run's streams are anonymous files (memfd) the worker created and
 *           reads back by descriptor: nothing in the run directory is ever
 *           opened by the worker. The FIFO is unlinked, never opened, before
 *           the next run.
 * Verdict:  every case as the book (the answer is right).
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
    unlink("stdout");
    if (mkfifo("stdout", 0666) != 0) return -1;
    return answer;
}
