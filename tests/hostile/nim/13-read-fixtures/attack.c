/*
 * labgrade hostile sample: 13-read-fixtures
 * -----------------------------------------
 * Attack:   FindGoodMove(7) looks for the expected answers: it tries to open
 *           fixtures/nim/10-find-good-move.toml relative to its working
 *           directory (., .., ../.., ../../..), at /work/main, under $PWD and
 *           $CARGO_MANIFEST_DIR (inherited from the grader), and through the
 *           working directories of its parent and grandparent
 *           (/proc/<pid>/cwd/...). If ANY open succeeds it returns a WRONG
 *           answer, so a leak shows as `fail`; otherwise the right one.
 * Harmless: it only opens files for reading and reads nothing from them.
 * Stopped:  Landlock: only the system directories, the artifact's directory
 *           and the run's own directory are readable (magic links under /proc
 *           resolve to the real files, which Landlock checks); as nobody the
 *           uid drop also hides root's /proc/<pid>/cwd.
 * Verdict:  everything as the book: pass (robustness: stack-overflow).
 */

#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
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

#define FIXTURE "fixtures/nim/10-find-good-move.toml"

static bool CanOpen(const char *path) {
    int fd = open(path, O_RDONLY);

    if (fd < 0) return false;
    close(fd);
    return true;
}

static bool CanOpenUnder(const char *dir) {
    char path[4096];

    if (dir == NULL || dir[0] == '\0') return false;
    if (snprintf(path, sizeof path, "%s/%s", dir, FIXTURE) >= (int) sizeof path) return false;
    return CanOpen(path);
}

/* The parent's parent, from /proc/<pid>/stat (0 if unknown). */
static pid_t ParentOf(pid_t pid) {
    char path[64], buf[512];
    char *close_paren;
    int ppid = 0;
    FILE *f;

    snprintf(path, sizeof path, "/proc/%d/stat", (int) pid);
    f = fopen(path, "r");
    if (f == NULL) return 0;
    if (fgets(buf, sizeof buf, f) != NULL) {
        close_paren = strrchr(buf, ')');
        if (close_paren == NULL || sscanf(close_paren + 1, " %*c %d", &ppid) != 1) ppid = 0;
    }
    fclose(f);
    return (pid_t) ppid;
}

int Hostile(int answer) {
    static const char *const relative[] = { ".", "..", "../..", "../../..", "/work/main" };
    pid_t ancestors[2];
    char dir[64];
    bool leaked = false;
    size_t i;

    for (i = 0; i < sizeof relative / sizeof relative[0]; i++) {
        leaked |= CanOpenUnder(relative[i]);
    }
    leaked |= CanOpenUnder(getenv("PWD"));
    leaked |= CanOpenUnder(getenv("CARGO_MANIFEST_DIR"));
    ancestors[0] = getppid();
    ancestors[1] = ancestors[0] > 1 ? ParentOf(ancestors[0]) : 0;
    for (i = 0; i < 2; i++) {
        if (ancestors[i] <= 1) continue;
        snprintf(dir, sizeof dir, "/proc/%d/cwd", (int) ancestors[i]);
        leaked |= CanOpenUnder(dir);
    }
    return leaked ? answer + 1 : answer;
}
