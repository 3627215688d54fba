/*
 * labgrade sample: member-functions
 * ---------------------------------
 * Figure 7-5's strategy written as public member functions of a class with an
 * inline default constructor, as some object-oriented courses have students
 * do. labgrade calls each graded function on a default-constructed NimPlayer
 * through its own bridge and counts the members' calls. Its main plays one
 * move only, so the console games fail.
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
