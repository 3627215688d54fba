/*
 * labgrade hostile sample: 35-write-inherited-fds
 * -----------------------------------------------
 * Attack:   FindGoodMove(7) writes a line into every descriptor from 3 to 64
 *           that it did not open itself (no FD_CLOEXEC: inherited from
 *           whoever started labgrade: a CI runner's log pipe, a terminal, a
 *           gradebook file), then answers right.
 * Harmless: the line is "labgrade-hostile-35", written only to descriptors the
 *           process already holds; its own result pipe (FD_CLOEXEC) is left
 *           alone, so its report stays intact.
 * Stopped:  the child closes every descriptor but stdio, its result pipe, the
 *           marker and the artifact before any student code runs (close_range):
 *           there is nothing to write to. tests/integration/hostile.rs starts
 *           labgrade with an extra pipe on fd 7 and checks it receives nothing.
 * Verdict:  every case as the book (pass, robustness stack-overflow).
 */

#define _GNU_SOURCE
#include <fcntl.h>
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
    static const char line[] = "labgrade-hostile-35\n";
    ssize_t written;
    int fd;

    for (fd = 3; fd <= 64; fd++) {
        int fdFlags = fcntl(fd, F_GETFD);

        if (fdFlags < 0 || (fdFlags & FD_CLOEXEC)) continue;
        written = write(fd, line, sizeof line - 1);
        (void) written;
    }
    return answer;
}
