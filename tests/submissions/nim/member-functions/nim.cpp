/*
 * labgrade sample: member-functions
 * ---------------------------------
 * Figure 7-5's strategy written as member functions of a class, as some
 * object-oriented courses have students do. labgrade calls the graded
 * functions as free functions (the assignment's interface), so it cannot call
 * these; it must say so once, naming the class, and not pretend the functions
 * are missing or misspelled. The console game works and is graded.
 */
#include <iostream>
#include "simpio.h"
using namespace std;

const int N_COINS = 13;
const int MAX_MOVE = 3;
const int NO_GOOD_MOVE = -1;

class NimPlayer {
public:
    NimPlayer() {}
    int FindGoodMove(int nCoins) {
        for (int nTaken = 1; nTaken <= MAX_MOVE; nTaken++) {
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
        if (nTaken == NO_GOOD_MOVE) nTaken = 1;
        return nTaken;
    }
};

int main() {
    NimPlayer player;
    int n = 13;
    int taken = player.ChooseComputerMove(n);
    cout << "I'll take " << taken << "." << endl;
    return 0;
}
