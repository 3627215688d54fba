/*
 * labgrade hostile sample: 12-write-outside
 * -----------------------------------------
 * Attack:   FindGoodMove(7) creates /tmp/labgrade-hostile-marker/ (world-writable,
 *           sticky, like /tmp) and writes a file in it, then returns the right
 *           answer: a write outside the run's directory that nothing reports.
 * Harmless: it creates only that directory and one small file in it; nothing
 *           else is written.
 * Stopped:  Landlock allows writes only in the run's own directory: mkdir and
 *           open fail (EACCES), silently. The verdict is pass either way; the
 *           integration test (tests/integration/hostile.rs) checks that no file
 *           appears under /tmp/labgrade-hostile-marker/.
 * Verdict:  everything as the book: pass (robustness: stack-overflow).
 */

#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/stat.h>
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

#define MARKER_DIR "/tmp/labgrade-hostile-marker"

int Hostile(int answer) {
    static const char note[] = "12-write-outside: written from FindGoodMove(7)\n";
    ssize_t written;
    int fd;

    mkdir(MARKER_DIR, 0777);
    chmod(MARKER_DIR, 01777);
    fd = open(MARKER_DIR "/12-write-outside", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        written = write(fd, note, sizeof note - 1);
        (void) written;
        close(fd);
    }
    return answer;
}
