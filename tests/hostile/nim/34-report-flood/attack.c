/*
 * labgrade hostile sample: 34-report-flood
 * ----------------------------------------
 * Attack:   FindGoodMove(7) writes 64 MiB of garbage into every descriptor
 *           that can be labgrade's result pipe, so that a worker that keeps
 *           whatever the child sends grows without bound.
 * Harmless: it writes only to pipes opened for writing that carry FD_CLOEXEC
 *           (opened in this very process image, never inherited from a shell),
 *           at most 64 MiB in all.
 * Stopped:  the worker reads a report up to 16 MiB; past that the child is
 *           killed and the run is a crash (the channel was flooded).
 * Verdict:  FindGoodMove/7/return and /calls crash; the rest as the book.
 */

#define _GNU_SOURCE
#include <fcntl.h>
#include <string.h>
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
    static char chunk[65536];
    struct stat st;
    long total = 0;
    int fd;

    memset(chunk, 'x', sizeof chunk);
    for (fd = 3; fd < 1024; fd++) {
        int fdFlags = fcntl(fd, F_GETFD);
        int statusFlags = fcntl(fd, F_GETFL);

        if (fdFlags < 0 || statusFlags < 0 || !(fdFlags & FD_CLOEXEC)) continue;
        if ((statusFlags & O_ACCMODE) == O_RDONLY) continue;
        if (fstat(fd, &st) != 0 || !S_ISFIFO(st.st_mode)) continue;
        while (total < 64L << 20) {
            ssize_t n = write(fd, chunk, sizeof chunk);
            if (n <= 0) break;
            total += n;
        }
    }
    return answer;
}
