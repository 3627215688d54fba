/*
 * labgrade sample: throws-past-its-table
 * --------------------------------------
 * Figure 7-5's strategy, but FindGoodMove reads how many coins it may take
 * from a table sized for the game's 13 coins, and throws std::out_of_range
 * for a pile the table does not hold. Asked about 14 or 15 coins (or, in the
 * robustness cases, a pile that goes below 0), nothing in FindGoodMove or
 * IsBadPosition catches it: those cases crash, and the message names the
 * exception and its what(). ChooseComputerMove catches it and falls back to
 * one coin, so its cases never crash (14 coins: the right move; 15: wrong).
 */
#include <iostream>
#include <stdexcept>
#include <vector>
#include "nim.h"

static const int N_COINS = 13;
static const int MAX_MOVE = 3;
static const int NO_GOOD_MOVE = -1;

/* The most coins a player may take from each pile size the game can reach. */
static std::vector<int> mostToTake() {
    std::vector<int> most(N_COINS + 1);
    for (int n = 0; n <= N_COINS; n++) most[n] = n < MAX_MOVE ? n : MAX_MOVE;
    return most;
}

static const std::vector<int> MOST = mostToTake();

/* The entry for a pile of n coins. */
static int most(int n) {
    if (n < 0 || n >= (int)MOST.size()) throw std::out_of_range("no table entry for that pile");
    return MOST[n];
}

int FindGoodMove(int nCoins) {
    int limit = most(nCoins);
    for (int nTaken = 1; nTaken <= limit || nTaken <= 1; nTaken++) {
        if (IsBadPosition(nCoins - nTaken)) return nTaken;
    }
    return NO_GOOD_MOVE;
}

bool IsBadPosition(int nCoins) {
    if (nCoins == 1) return true;
    return FindGoodMove(nCoins) == NO_GOOD_MOVE;
}

int ChooseComputerMove(int nCoins) {
    try {
        int nTaken = FindGoodMove(nCoins);
        return nTaken == NO_GOOD_MOVE ? 1 : nTaken;
    } catch (const std::out_of_range &) {
        return 1;
    }
}

int main() {
    std::cout << "I'll take " << ChooseComputerMove(N_COINS) << "." << std::endl;
    return 0;
}
