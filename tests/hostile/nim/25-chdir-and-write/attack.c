/*
 * labgrade hostile sample: 25-chdir-and-write
 * -------------------------------------------
 * Attack:   FindGoodMove(7) creates /tmp/labgrade-hostile-marker/ (world-writable,
 *           sticky), changes its working directory there and writes a file by
 *           a relative name, then returns the right answer: a relative path
 *           must not escape the rules made for the run's directory.
 * Harmless: it creates only that directory and one small file in it.
 * Stopped:  Landlock checks the file's real place, not the path's spelling:
 *           outside the run's directory, so open fails (EACCES), silently. The
 *           verdict is pass either way; tests/integration/hostile.rs checks
 *           that no file appears under /tmp/labgrade-hostile-marker/.
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
    static const char note[] = "25-chdir-and-write: written from FindGoodMove(7)\n";
    ssize_t written;
    int fd;

    mkdir(MARKER_DIR, 0777);
    chmod(MARKER_DIR, 01777);
    if (chdir(MARKER_DIR) != 0) return answer;
    fd = open("25-chdir-and-write", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        written = write(fd, note, sizeof note - 1);
        (void) written;
        close(fd);
    }
    return answer;
}
