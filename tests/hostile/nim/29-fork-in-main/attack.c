/*
 * labgrade hostile sample: 29-fork-in-main
 * ----------------------------------------
 * Attack:   main() forks a child (which exits at once) before playing the game
 *           normally. Global to the program: every game case runs main.
 * Harmless: one fork; the child calls _exit(0) at once and is reaped.
 * Stopped:  the program profile's seccomp filter (inherited across the exec of
 *           the program) traps clone without CLONE_THREAD; the program dies of
 *           SIGSYS: forbidden (seccomp).
 * Verdict:  every game case forbidden; every function case as the book (main is never
 *           called there); build/no-warnings pass.
 */

#define _GNU_SOURCE
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include "genlib.h"
#include "nim.h"

/* The book (Figure 7-5 with its hooks) is book.c: ../../shared/nim_book.c. */
void HostileMain(void);

void HostileMain(void) {
    pid_t helper = fork();
    if (helper == 0) _exit(0);
    if (helper > 0) waitpid(helper, NULL, 0);
}
