/*
 * labgrade hostile sample: 38-exec-loader-in-main
 * -----------------------------------------------
 * Attack:   main() runs /bin/true through the dynamic loader:
 *           execl("/lib64/ld-linux-x86-64.so.2", "ld.so", "/bin/true"). The
 *           loader must be executable for any program to start, so Landlock's
 *           Execute rule lets it run, and it maps any readable binary itself.
 *           Global to the program: every game case runs main.
 * Harmless: the binary is /bin/true; if the exec fails, main plays normally.
 * Stopped:  every exec after the program's own goes to the worker (seccomp
 *           user notification), which refuses it and kills the run: forbidden.
 * Verdict:  every game case forbidden; every function case as the book (main is
 *           never called there); build/no-warnings pass.
 */

#define _GNU_SOURCE
#include <unistd.h>
#include "genlib.h"
#include "nim.h"

/* The book (Figure 7-5 with its hooks) is book.c: ../../shared/nim_book.c. */
void HostileMain(void);

void HostileMain(void) {
    execl("/lib64/ld-linux-x86-64.so.2", "ld.so", "/bin/true", (char *) NULL);
}
