/*
 * labgrade hostile sample: 20-thread-left-running
 * -----------------------------------------------
 * Attack:   FindGoodMove(7) starts a detached thread that spins, and returns
 *           the right answer while the thread still runs (to outlive the call,
 *           eat CPU, or disturb the report).
 * Harmless: the thread computes nothing and dies with the process; even so it
 *           gives up after 60 s of wall time.
 * Stopped:  nothing needs stopping: threads are allowed (clone with
 *           CLONE_THREAD; clone3 answers ENOSYS so glibc falls back to clone),
 *           the child reports and _exit()s at once, which ends every thread,
 *           and the worker kills the process group after the run: pass.
 * Verdict:  everything as the book: pass (robustness: stack-overflow).
 * Build:    pthread_create is in libc.so.6 since glibc 2.34, so the recipe
 *           (no -pthread) links; with an older glibc the library would not
 *           link (-Wl,-z,defs): build-error.
 */

#define _GNU_SOURCE
#include <pthread.h>
#include <time.h>
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

#define GIVE_UP_SECONDS 60

static void *Spin(void *unused) {
    struct timespec start, now;
    volatile unsigned long spins = 0;

    (void) unused;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        spins++;
        if ((spins & 0xfffff) == 0) {
            clock_gettime(CLOCK_MONOTONIC, &now);
            if (now.tv_sec - start.tv_sec >= GIVE_UP_SECONDS) break;
        }
    }
    return NULL;
}

int Hostile(int answer) {
    pthread_t thread;

    if (pthread_create(&thread, NULL, Spin, NULL) == 0) pthread_detach(thread);
    return answer;
}
