/*
 * labgrade hostile sample: 09-fork-bomb
 * -------------------------------------
 * Attack:   FindGoodMove(7) forks, up to 200 times.
 * Harmless: bounded and never exponential: each child calls _exit(0) at once
 *           (it forks nothing), the parent reaps exactly the children it made.
 *           If any fork succeeded the answer is wrong (a hole shows as `fail`).
 * Stopped:  the seccomp filter traps clone without CLONE_THREAD (and fork,
 *           vfork) with SIGSYS: forbidden (seccomp).
 * Verdict:  FindGoodMove/7/return and /calls forbidden; the rest as the book.
 */

#define _GNU_SOURCE
#include <sys/types.h>
#include <sys/wait.h>
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

#define MAX_FORKS 200

int Hostile(int answer) {
    pid_t children[MAX_FORKS];
    int i, forked = 0;

    for (i = 0; i < MAX_FORKS; i++) {
        pid_t pid = fork();
        if (pid == 0) _exit(0);
        if (pid < 0) break;
        children[forked++] = pid;
    }
    for (i = 0; i < forked; i++) waitpid(children[i], NULL, 0);
    return forked > 0 ? answer + 1 : answer;
}
