/*
 * labgrade hostile sample: 28-read-stdin-forever
 * ----------------------------------------------
 * Attack:   main() reads standard input forever: at end of input it clears the
 *           EOF flag and reads again, never exiting (a game that waits for
 *           input that never comes). Global to the program: every game case
 *           runs main.
 * Harmless: it gives up after 60 s of wall time and exits with status 1.
 * Stopped:  reading at end of file returns at once, so it spins: RLIMIT_CPU
 *           (1 s) sends SIGXCPU, or the worker's wall timer (1.5 s) ends it:
 *           timeout (rlimits / worker wall timeout).
 * Verdict:  every game case timeout; every function case as the book.
 */

#define _GNU_SOURCE
#include <time.h>
#include <stdio.h>
#include "genlib.h"
#include "simpio.h"
#include "nim.h"

#define N_COINS 13
#define MAX_MOVE 3
#define NO_GOOD_MOVE (-1)

#define GIVE_UP_SECONDS 60

int main(void) {
    struct timespec start, now;
    unsigned long reads = 0;

    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        if (getchar() == EOF) clearerr(stdin);
        if ((++reads & 0xffff) == 0) {
            clock_gettime(CLOCK_MONOTONIC, &now);
            if (now.tv_sec - start.tv_sec >= GIVE_UP_SECONDS) break;
        }
    }
    return 1;
}

/*
 * Function: ChooseComputerMove
 * Usage: nTaken = ChooseComputerMove(nCoins);
 * -------------------------------------------
 * The good move if there is one, else one coin.
 */

int ChooseComputerMove(int nCoins) {
    int nTaken = FindGoodMove(nCoins);
    if (nTaken == NO_GOOD_MOVE) nTaken = 1;
    return nTaken;
}

/*
 * Function: FindGoodMove
 * Usage: nTaken = FindGoodMove(nCoins);
 * -------------------------------------
 * A move that leaves the opponent in a bad position, or NO_GOOD_MOVE.
 */

int FindGoodMove(int nCoins) {
    int nTaken;

    for (nTaken = 1; nTaken <= MAX_MOVE; nTaken++) {
        if (IsBadPosition(nCoins - nTaken)) return nTaken;
    }
    return NO_GOOD_MOVE;
}

/*
 * Function: IsBadPosition
 * Usage: if (IsBadPosition(nCoins)) . . .
 * ---------------------------------------
 * True if there is no good move; a single coin is the simple case.
 */

bool IsBadPosition(int nCoins) {
    if (nCoins == 1) return true;
    return FindGoodMove(nCoins) == NO_GOOD_MOVE;
}
