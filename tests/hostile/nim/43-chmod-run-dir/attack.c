/*
 * labgrade hostile sample: 43-chmod-run-dir
 * -----------------------------------------
 * Attack:   FindGoodMove(7) makes a directory in its run directory, then takes
 *           every permission away from both (chmod 0), so that a worker running
 *           as the same unprivileged user could neither list nor remove them and
 *           run directories would pile up in the temp dir.
 * Harmless: it only touches its own run directory; the answer is right.
 * Stopped:  nothing refuses chmod of one's own directory: the worker gives the
 *           permissions back before it removes the run directory (the
 *           unprivileged test in tests/integration/hostile.rs checks that no run
 *           directory is left).
 * Verdict:  everything as the book.
 */

#include <sys/stat.h>
#include <unistd.h>
#include "genlib.h"
#include "nim.h"

/* The book (Figure 7-5 with the hook) is book.c: ../../shared/nim_book.c. */
int Hostile(int answer);

int Hostile(int answer) {
    char here[4096];
    if (getcwd(here, sizeof here) != NULL) {
        mkdir("locked", 0700);
        chmod("locked", 0);
        chmod(here, 0);
    }
    return answer;
}
