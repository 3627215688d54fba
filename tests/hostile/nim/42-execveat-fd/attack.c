/*
 * labgrade hostile sample: 42-execveat-fd
 * ---------------------------------------
 * Attack:   FindGoodMove(7) opens /bin/true and executes the descriptor,
 *           execveat(fd, "", argv, envp, AT_EMPTY_PATH) (what fexecve does),
 *           in case only execve were filtered.
 * Harmless: the binary is /bin/true; if the exec fails, the answer is right.
 * Stopped:  the library profile's seccomp filter traps execveat: forbidden.
 * Verdict:  FindGoodMove/7/return and /calls forbidden; the rest as the book.
 */

#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/syscall.h>
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

int Hostile(int answer) {
    static char *const args[] = { "true", NULL };
    static char *const env[] = { NULL };
    int fd = open("/bin/true", O_RDONLY | O_CLOEXEC);

    if (fd >= 0) {
        syscall(SYS_execveat, fd, "", args, env, AT_EMPTY_PATH);
        close(fd);
    }
    return answer;
}
