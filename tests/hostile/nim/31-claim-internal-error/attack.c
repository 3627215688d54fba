/*
 * labgrade hostile sample: 31-claim-internal-error
 * ------------------------------------------------
 * Attack:   FindGoodMove(7) answers wrong and tries to have the case dropped
 *           from the points available instead: it writes a well-formed report
 *           claiming labgrade itself failed ({"error": internal-error}) to every
 *           descriptor that can be labgrade's result pipe, finds the memory the
 *           child shares with the worker (a MAP_SHARED mapping of /dev/zero in
 *           /proc/self/maps) and sets the "child reached its own end" flag
 *           there, then leaves with _exit(0) before the real report. A memoised
 *           nim did this once and went from 72/139 to 75/75.
 * Harmless: it writes only to pipes opened for writing that carry FD_CLOEXEC
 *           (opened in this very process image, never inherited from a shell),
 *           and to memory of its own process; then it exits its own process.
 * Stopped:  a child cannot express an internal error: after its ready mark its
 *           report has no such variant, so this one does not parse, and the run
 *           is judged by how it ended: crash. An internal error the worker does
 *           give never leaves max_score either (the case is unresolved).
 * Verdict:  FindGoodMove/7/return and /calls crash, max score unchanged; the
 *           rest as the book.
 */

#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "genlib.h"
#include "simpio.h"
#include "nim.h"

/* The book (Figure 7-5 with the hook) is book.c: ../../shared/nim_book.c. */
int Hostile(int answer);

/*
 * Constants
 * ---------
 * STATUS_OFFSET -- where labgrade's status block follows its counters
 *                  (struct Counters: 2 + 4 * 32 + 4 words, then 4096 u32)
 * FINISHED      -- word index of `finished` in the status block
 * CHANNEL_LOST  -- word index of `channel_lost`
 */

#define STATUS_OFFSET (8 * (2 + 4 * 32 + 4) + 4 * 4096)
#define FINISHED 6
#define CHANNEL_LOST 7

/* Sets the "finished, channel intact" flags in every shared zero mapping. */
static void ForgeFinished(void) {
    char line[512];
    FILE *maps = fopen("/proc/self/maps", "r");

    if (maps == NULL) return;
    while (fgets(line, sizeof line, maps) != NULL) {
        unsigned long lo, hi;
        char perms[8];

        if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) != 3) continue;
        if (perms[3] != 's' || perms[1] != 'w') continue;
        if (strstr(line, "/dev/zero") == NULL) continue;
        if (hi - lo < STATUS_OFFSET + 8 * (CHANNEL_LOST + 1)) continue;
        ((volatile uint64_t *) (lo + STATUS_OFFSET))[FINISHED] = 1;
        ((volatile uint64_t *) (lo + STATUS_OFFSET))[CHANNEL_LOST] = 0;
    }
    fclose(maps);
}

/*
 * Function: Hostile
 * Usage: return Hostile(answer);
 * ------------------------------
 * Called with the right answer (2 for 7 coins); what it returns is what
 * labgrade sees.
 */

int Hostile(int answer) {
    static const char forged[] = "{\"value\":null,\"error\":{\"ending\":\"internal-error\",\"message\":\"labgrade failed\"},\"counts_ok\":false,\"counts_note\":null,\"counted\":[]}";
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
    ForgeFinished();
    _exit(0);
    return answer;
}
