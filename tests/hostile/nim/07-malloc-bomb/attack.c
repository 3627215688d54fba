/*
 * labgrade hostile sample: 07-malloc-bomb
 * ---------------------------------------
 * Attack:   FindGoodMove(7) allocates 1 MiB blocks and fills them, without
 *           end, keeping every block (chained, so gcc cannot drop them). When
 *           malloc returns NULL it writes through it anyway, as careless code
 *           does (SIGSEGV at address 0).
 * Harmless: bounded: at most 64 GiB and at most half the machine's physical
 *           memory; past that it stops, frees everything and returns a wrong
 *           answer (a missing memory limit shows as `fail`).
 * Stopped:  RLIMIT_AS (the case's 256 MiB above what the child already maps)
 *           makes malloc fail; the child's peak RSS is at the limit, so the
 *           SIGSEGV is read as memory-limit (rlimits).
 * Verdict:  FindGoodMove/7/return and /calls memory-limit; the rest as the book.
 */

#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
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

#define BLOCK (1 << 20)
#define MAX_BLOCKS (64L * 1024)   /* 64 GiB */

static void *volatile lastBlock;

int Hostile(int answer) {
    long maxBlocks = MAX_BLOCKS;
    long physical = sysconf(_SC_PHYS_PAGES) / (BLOCK / 4096) / 2;
    long i;
    char *chain = NULL;

    if (physical > 0 && physical < maxBlocks) maxBlocks = physical;
    for (i = 0; i < maxBlocks; i++) {
        char *p = malloc(BLOCK);
        memset(p, 1, BLOCK);
        *(char **) p = chain;
        chain = p;
        lastBlock = p;
    }
    while (chain != NULL) {
        char *next = *(char **) chain;
        free(chain);
        chain = next;
    }
    return answer + 1;
}
