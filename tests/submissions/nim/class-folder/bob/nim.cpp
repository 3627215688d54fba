/*
 * labgrade sample: class-folder (bob's file)
 * ------------------------------------------
 * Figure 7-5's three graded functions in C++, spelled in camelCase (labgrade accepts the
 * spelling, and sees that it is the same function as alice's FindGoodMove).
 */

#include "nim.h"

const int MAX_MOVE = 3;
const int NO_GOOD_MOVE = -1;

extern "C" bool isBadPosition(int nCoins);

extern "C" int findGoodMove(int nCoins) {
    for (int nTaken = 1; nTaken <= MAX_MOVE; nTaken++) {
        if (isBadPosition(nCoins - nTaken)) return nTaken;
    }
    return NO_GOOD_MOVE;
}

extern "C" bool isBadPosition(int nCoins) {
    if (nCoins == 1) return true;
    return findGoodMove(nCoins) == NO_GOOD_MOVE;
}

extern "C" int chooseComputerMove(int nCoins) {
    int nTaken = findGoodMove(nCoins);
    return nTaken == NO_GOOD_MOVE ? 1 : nTaken;
}
