/*
 * labgrade hostile sample: 39-execveat-fd-in-main
 * -----------------------------------------------
 * Attack:   main() opens /bin/true and executes the descriptor with
 *           execveat(fd, "", argv, envp, AT_EMPTY_PATH), the call the child
 *           itself uses to start the program (so a filter on the call's
 *           arguments cannot tell them apart). Global to the program.
 * Harmless: the binary is /bin/true; if the exec fails, main plays normally.
 * Stopped:  every exec after the program's own goes to the worker (seccomp
 *           user notification), which refuses it and kills the run: forbidden.
 *           (Landlock would also refuse to execute /bin/true.)
 * Verdict:  every game case forbidden; every function case as the book;
 *           build/no-warnings pass.
 */

#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "genlib.h"
#include "nim.h"

/* The book (Figure 7-5 with its hooks) is book.c: ../../shared/nim_book.c. */
void HostileMain(void);

void HostileMain(void) {
    static char *const args[] = { "true", NULL };
    static char *const env[] = { NULL };
    int fd = open("/bin/true", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) syscall(SYS_execveat, fd, "", args, env, AT_EMPTY_PATH);
}
