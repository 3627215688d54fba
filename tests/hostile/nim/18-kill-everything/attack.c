/*
 * labgrade hostile sample: 18-kill-everything
 * -------------------------------------------
 * Attack:   FindGoodMove(7) sends SIGKILL to every process it may signal
 *           (kill(-1, SIGKILL)): the other runs, the worker, the grader, the
 *           user's session. Then it returns the right answer.
 * Harmless: never as root (getuid() or geteuid() 0: it does nothing). And it
 *           first asks, with signal 0, every process it can see in /proc
 *           whether it could be signalled; if any could, it sends nothing and
 *           returns a WRONG answer (the hole shows as `fail`). It sends
 *           SIGKILL only when every process refused signal 0, so the real
 *           kill is refused too. (kill(-1, 0) cannot be the probe: it reports
 *           success as soon as any process exists.)
 * Stopped:  the uid drop (as nobody it cannot signal root's or the user's
 *           processes) and Landlock's signal scoping (no signals out of the
 *           sandbox's domain, not even to other nobody processes): pass.
 * Verdict:  everything as the book: pass (robustness: stack-overflow).
 */

#define _GNU_SOURCE
#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
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

/* True if some other process visible in /proc accepts signal 0 from us (or /proc is unreadable). */
static bool AnyoneSignallable(void) {
    DIR *proc = opendir("/proc");
    struct dirent *entry;
    bool any = false;
    pid_t self = getpid();

    if (proc == NULL) return true;
    while (!any && (entry = readdir(proc)) != NULL) {
        char *end;
        long pid = strtol(entry->d_name, &end, 10);
        if (*end != '\0' || pid <= 1 || pid == self) continue;
        if (kill((pid_t) pid, 0) == 0) any = true;
    }
    closedir(proc);
    return any;
}

int Hostile(int answer) {
    if (getuid() == 0 || geteuid() == 0) return answer;
    if (AnyoneSignallable()) return answer + 1;
    kill(-1, SIGKILL);
    return answer;
}
