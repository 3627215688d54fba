/*
 * labgrade hostile sample: 21-constructor-abort
 * ---------------------------------------------
 * Attack:   a constructor (__attribute__((constructor))) calls abort(): it runs
 *           when the library is loaded and when the program starts, before any
 *           of labgrade's calls and before main. Global: every run is hit.
 * Harmless: abort kills only this process.
 * Stopped:  the child loads the library (dlopen) only after its limits and
 *           isolation are in place, so the constructor dies inside the
 *           sandboxed child, like the program's: crash (process per run; the
 *           worker never loads student code).
 * Verdict:  every case crash (the games and the robustness cases too), except
 *           build/no-warnings: pass.
 */

#define _GNU_SOURCE
#include <stdlib.h>
#include <stdio.h>
#include "genlib.h"
#include "simpio.h"
#include "nim.h"

/*
 * Function: OnLoad
 * ----------------
 * Runs when the library is loaded and when the program starts.
 */

__attribute__((constructor))
static void OnLoad(void) {
    abort();
}

/* The book (Figure 7-5 with the hook) is book.c: ../../shared/nim_book.c. */
int Hostile(int answer);

/*
 * Function: Hostile
 * -----------------
 * Never reached (the constructor ends every run first); the book's answer.
 */

int Hostile(int answer) {
    return answer;
}
