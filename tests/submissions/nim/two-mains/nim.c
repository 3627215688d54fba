/*
 * labgrade sample: two-mains (nim.c)
 * ----------------------------------
 * Figure 7-5's three graded functions, right. The student also handed in the game
 * (play.c, with its main) and the test driver they wrote while working (test_nim.c, with
 * another main). Every source of a submission is built into one program: labgrade names
 * the two mains, and the files, before building, instead of a linker's "multiple
 * definition of `main'".
 */

#include "nim.h"

#define MAX_MOVE 3
#define NO_GOOD_MOVE (-1)

int FindGoodMove(int nCoins) {
    int nTaken;
    for (nTaken = 1; nTaken <= MAX_MOVE; nTaken++) {
        if (IsBadPosition(nCoins - nTaken)) return nTaken;
    }
    return NO_GOOD_MOVE;
}

bool IsBadPosition(int nCoins) {
    if (nCoins == 1) return true;
    return FindGoodMove(nCoins) == NO_GOOD_MOVE;
}

int ChooseComputerMove(int nCoins) {
    int nTaken = FindGoodMove(nCoins);
    return nTaken == NO_GOOD_MOVE ? 1 : nTaken;
}
