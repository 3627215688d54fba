/*
 * labgrade sample: class-folder (alice's file)
 * --------------------------------------------
 * Figure 7-5's three graded functions in C. The sample is a folder holding two students'
 * work, alice/ and bob/, as a teacher's class folder does, handed to `check` as if it were
 * one submission: labgrade must say so before building anything.
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
