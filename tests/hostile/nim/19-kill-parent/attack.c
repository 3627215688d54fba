/*
 * labgrade hostile sample: 19-kill-parent
 * ---------------------------------------
 * Attack:   FindGoodMove(7) sends SIGKILL to its parent (labgrade's worker),
 *           then returns the right answer.
 * Harmless: never as root (getuid() or geteuid() 0: it does nothing), never to
 *           pid 1. It first checks with signal 0 whether the parent can be
 *           signalled; if it can, it sends nothing and returns a WRONG answer
 *           (the hole shows as `fail`). SIGKILL goes only to a parent that
 *           already refused signal 0.
 * Stopped:  the uid drop (nobody cannot signal root's worker) and Landlock's
 *           signal scoping (the worker is outside the sandbox's domain): pass.
 * Verdict:  everything as the book: pass (robustness: stack-overflow).
 */

#define _GNU_SOURCE
#include <signal.h>
#include <sys/types.h>
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
    pid_t parent = getppid();

    if (getuid() == 0 || geteuid() == 0 || parent <= 1) return answer;
    if (kill(parent, 0) == 0) return answer + 1;
    kill(parent, SIGKILL);
    return answer;
}
