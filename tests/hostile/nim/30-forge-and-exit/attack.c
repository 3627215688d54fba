/*
 * labgrade hostile sample: 30-forge-and-exit
 * ------------------------------------------
 * Attack:   FindGoodMove(7) writes a complete, well-formed report claiming the
 *           right answer (value 2, counts ok) to every descriptor that can be
 *           labgrade's result pipe, then leaves with _exit(0) before the child
 *           can write its own: the pipe holds exactly one report, and the
 *           process exits cleanly.
 * Harmless: it writes only to pipes opened for writing that carry FD_CLOEXEC
 *           (opened in this very process image, never inherited from a shell),
 *           and then exits its own process.
 * Stopped:  the child marks in memory it shares with the worker that it reached
 *           its own end; a report from a child that never did is student code's:
 *           the run ended mid-call, crash.
 * Verdict:  FindGoodMove/7/return and /calls crash; the rest as the book.
 */

#define _GNU_SOURCE
#include <fcntl.h>
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
    static const char forged[] = "{\"value\":2,\"error\":null,\"counts_ok\":true,\"counts_note\":null,\"counted\":[\"FindGoodMove\",\"IsBadPosition\",\"ChooseComputerMove\"]}";
    struct stat st;
    ssize_t written;
    int fd;

    for (fd = 3; fd < 1024; fd++) {
        int fdFlags = fcntl(fd, F_GETFD);
        int statusFlags = fcntl(fd, F_GETFL);

        if (fdFlags < 0 || statusFlags < 0 || !(fdFlags & FD_CLOEXEC)) continue;
        if ((statusFlags & O_ACCMODE) == O_RDONLY) continue;
        if (fstat(fd, &st) != 0 || !S_ISFIFO(st.st_mode)) continue;
        written = write(fd, forged, sizeof forged - 1);
        (void) written;
    }
    _exit(0);
    return answer;
}
