/*
 * labgrade hostile sample: 40-memfd-exec-in-main
 * ----------------------------------------------
 * Attack:   main() copies /bin/true into an anonymous memory file
 *           (memfd_create) and executes it with fexecve: a binary that is
 *           in no directory, so no path rule can name it. Global to the
 *           program.
 * Harmless: the binary is a copy of /bin/true; if anything fails, main plays
 *           normally.
 * Stopped:  seccomp traps memfd_create (no run needs one): forbidden. The
 *           exec would be refused by the worker's exec supervision too.
 * Verdict:  every game case forbidden; every function case as the book;
 *           build/no-warnings pass.
 */

#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>
#include "genlib.h"
#include "nim.h"

/* The book (Figure 7-5 with its hooks) is book.c: ../../shared/nim_book.c. */
void HostileMain(void);

void HostileMain(void) {
    static char *const args[] = { "true", NULL };
    static char *const env[] = { NULL };
    char buf[65536];
    ssize_t n;
    int in = open("/bin/true", O_RDONLY | O_CLOEXEC);
    int mem = (int) syscall(SYS_memfd_create, "t", 0);

    if (in >= 0 && mem >= 0) {
        while ((n = read(in, buf, sizeof buf)) > 0) {
            if (write(mem, buf, (size_t) n) != n) break;
        }
        fexecve(mem, args, env);
    }
    if (in >= 0) close(in);
    if (mem >= 0) close(mem);
}
