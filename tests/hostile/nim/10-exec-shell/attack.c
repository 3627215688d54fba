/*
 * labgrade hostile sample: 10-exec-shell
 * --------------------------------------
 * Attack:   FindGoodMove(7) replaces the process with /bin/sh -c true.
 * Harmless: the command is `true`. Without a sandbox the process becomes
 *           `sh -c true` and exits 0 (the grader then gets no report: crash).
 *           If exec fails with an error the answer is right (it was refused).
 * Stopped:  the library profile's seccomp filter traps execve: forbidden
 *           (seccomp; Landlock would also refuse to execute /bin/sh).
 * Verdict:  FindGoodMove/7/return and /calls forbidden; the rest as the book.
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
    execl("/bin/sh", "sh", "-c", "true", (char *) NULL);
    return answer;
}
