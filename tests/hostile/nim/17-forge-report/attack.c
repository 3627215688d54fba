/*
 * labgrade hostile sample: 17-forge-report
 * ----------------------------------------
 * Attack:   FindGoodMove(7) forges labgrade's report: it writes a complete,
 *           well-formed report claiming the right answer (value 2, counts ok)
 *           to every descriptor that can be labgrade's result pipe, then
 *           dup2()s /dev/null over descriptors 3..1023 (opened read-only if
 *           writing is refused: then the child's writes fail), so that the
 *           child's own report (the real, WRONG answer 3) is lost.
 *           A worker that believes the pipe grades the forgery: pass.
 * Harmless: it writes the forgery only to pipes opened for writing that carry
 *           FD_CLOEXEC (so they were opened in this very process image, never
 *           inherited through exec from a shell, make or cargo: a program run
 *           without labgrade has none), and replaces only its own descriptors.
 * Stopped:  the worker must reject a report the child cannot vouch for (the
 *           real report vanished and the pipe holds one written by student
 *           code): crash (worker: forged report).
 * Verdict:  FindGoodMove/7/return and /calls crash (declared; with a worker
 *           that believes the forgery they would pass); the rest as the book.
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
    int fd, devnull;

    for (fd = 3; fd < 1024; fd++) {
        int fdFlags = fcntl(fd, F_GETFD);
        int statusFlags = fcntl(fd, F_GETFL);

        if (fdFlags < 0 || statusFlags < 0 || !(fdFlags & FD_CLOEXEC)) continue;
        if ((statusFlags & O_ACCMODE) == O_RDONLY) continue;
        if (fstat(fd, &st) != 0 || !S_ISFIFO(st.st_mode)) continue;
        written = write(fd, forged, sizeof forged - 1);
        (void) written;
    }
    devnull = open("/dev/null", O_WRONLY);
    if (devnull < 0) devnull = open("/dev/null", O_RDONLY);   /* a sandbox may refuse writing */
    if (devnull >= 0) {
        for (fd = 3; fd < 1024; fd++) {
            if (fd != devnull) dup2(devnull, fd);
        }
    }
    return answer + 1;
}
