/*
 * labgrade hostile sample: 41-exec-loader
 * ---------------------------------------
 * Attack:   FindGoodMove(7) runs /bin/true through the dynamic loader,
 *           execl("/lib64/ld-linux-x86-64.so.2", "ld.so", "/bin/true"): the
 *           loader is in a directory programs may execute from, and it maps any
 *           readable binary itself.
 * Harmless: the binary is /bin/true; if the exec fails, the answer is right.
 * Stopped:  the library profile's seccomp filter traps execve: forbidden.
 * Verdict:  FindGoodMove/7/return and /calls forbidden; the rest as the book.
 */

#define _GNU_SOURCE
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
    execl("/lib64/ld-linux-x86-64.so.2", "ld.so", "/bin/true", (char *) NULL);
    return answer;
}
