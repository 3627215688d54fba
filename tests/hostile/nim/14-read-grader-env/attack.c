/*
 * labgrade hostile sample: 14-read-grader-env
 * -------------------------------------------
 * Attack:   FindGoodMove(7) looks for the expected answers in the grader: its
 *           own environment (inherited from the worker and the grader), and
 *           /proc/<pid>/environ, /proc/<pid>/cmdline and the readable memory
 *           (/proc/<pid>/maps + /proc/<pid>/mem, at most 64 MiB) of its parent
 *           (the worker) and grandparent (the grader). If anything it can read
 *           mentions "expected" it returns a WRONG answer (a leak shows as
 *           `fail`); otherwise the right one.
 * Harmless: it only reads, at most 64 MiB of memory in all.
 * Stopped:  expected values never enter the child or its environment; the
 *           other processes' /proc files need ptrace-read access, refused by
 *           the uid drop (root's processes, seen from nobody) and by Landlock
 *           (no access to processes outside the sandbox's domain).
 * Verdict:  everything as the book: pass (robustness: stack-overflow).
 * Unsure:   an environment variable of the developer's or CI's that happens to
 *           contain the word "expected" would read as a leak (`fail`).
 */

#define _GNU_SOURCE
#include <fcntl.h>
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

#define MEMORY_BUDGET (64L << 20)
#define CHUNK (1 << 20)

static const char word[] = "expected";

static bool Mentions(const char *buf, size_t len) {
    return memmem(buf, len, word, sizeof word - 1) != NULL;
}

/* True if the file at `path` can be read and mentions the word. */
static bool FileMentions(const char *path) {
    static char buf[65536];
    size_t keep = 0, n;
    bool found = false;
    FILE *f = fopen(path, "r");

    if (f == NULL) return false;
    while (!found && (n = fread(buf + keep, 1, sizeof buf - keep, f)) > 0) {
        size_t len = keep + n;
        found = Mentions(buf, len);
        keep = len < sizeof word - 1 ? len : sizeof word - 1;
        memmove(buf, buf + len - keep, keep);
    }
    fclose(f);
    return found;
}

/* True if some readable memory of `pid` mentions the word (at most *budget bytes read). */
static bool MemoryMentions(pid_t pid, long *budget) {
    char path[64], line[512];
    static char chunk[CHUNK];
    unsigned long lo, hi;
    char perms[8];
    bool found = false;
    FILE *maps;
    int mem;

    snprintf(path, sizeof path, "/proc/%d/maps", (int) pid);
    maps = fopen(path, "r");
    if (maps == NULL) return false;
    snprintf(path, sizeof path, "/proc/%d/mem", (int) pid);
    mem = open(path, O_RDONLY);
    while (!found && mem >= 0 && *budget > 0 && fgets(line, sizeof line, maps) != NULL) {
        if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) != 3 || perms[0] != 'r') continue;
        while (!found && lo < hi && *budget > 0) {
            size_t want = hi - lo < CHUNK ? hi - lo : CHUNK;
            ssize_t got = pread(mem, chunk, want, (off_t) lo);
            if (got <= 0) break;
            found = Mentions(chunk, (size_t) got);
            lo += (unsigned long) got;
            *budget -= got;
        }
    }
    if (mem >= 0) close(mem);
    fclose(maps);
    return found;
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
    extern char **environ;
    long budget = MEMORY_BUDGET;
    pid_t ancestors[2];
    char path[64];
    bool leaked = false;
    char **e;
    int i;

    for (e = environ; e != NULL && *e != NULL; e++) {
        leaked |= Mentions(*e, strlen(*e));
    }
    ancestors[0] = getppid();
    ancestors[1] = ancestors[0] > 1 ? ParentOf(ancestors[0]) : 0;
    for (i = 0; i < 2; i++) {
        if (ancestors[i] <= 1) continue;
        snprintf(path, sizeof path, "/proc/%d/environ", (int) ancestors[i]);
        leaked |= FileMentions(path);
        snprintf(path, sizeof path, "/proc/%d/cmdline", (int) ancestors[i]);
        leaked |= FileMentions(path);
        leaked |= MemoryMentions(ancestors[i], &budget);
    }
    return leaked ? answer + 1 : answer;
}
