/*
 * compat-stds: gnu89 c99 c11 c17
 *
 * Roberts' Error (genlib.h) from C: printf-style, handed to lg_error_hook
 * when labgrade has set it (here a hook that longjmps back, as labgrade's
 * unwinds back to labgrade), and without a hook "Error: msg" on standard
 * error and exit status 1. strlib's and GetBlock's errors go the same way.
 */

#include <setjmp.h>
#include <string.h>
#include "genlib.h"
#include "strlib.h"

static jmp_buf back;
static char seen[200];

static void Hook(const char *msg)
{
    strncpy(seen, msg, sizeof seen - 1);
    longjmp(back, 1);
}

int main(void)
{
    lg_error_hook = Hook;
    if (setjmp(back) == 0) {
        Error("bad map: %d starts on line %s", 2, "7");
    } else {
        printf("hook got \"%s\"\n", seen);
    }
    if (setjmp(back) == 0) {
        printf("%d\n", StringToInteger("12x"));
    } else {
        printf("hook got \"%s\"\n", seen);
    }
    if (setjmp(back) == 0) {
        printf("%c\n", IthChar("abc", 7));
    } else {
        printf("hook got \"%s\"\n", seen);
    }
    lg_error_hook = NULL;
    printf("and now without a hook\n");
    Error("no %s here", "hook");
    printf("not reached\n");
    return 0;
}
