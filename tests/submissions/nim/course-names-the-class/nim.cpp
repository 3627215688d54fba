/*
 * labgrade sample: course-names-the-class
 * ---------------------------------------
 * Two classes with a findGoodMove(int): Strategy holds the book's mutual
 * recursion, and Coach suggests a move to the human (always one coin, the
 * safest to teach with). Which one is the assignment's is the course's to
 * say: its course file names Strategy.
 */
#include <iostream>
#include "simpio.h"
using namespace std;

const int N_COINS = 13;
const int MAX_MOVE = 3;
const int NO_GOOD_MOVE = -1;

class Strategy {
public:
    int findGoodMove(int nCoins) {
        for (int nTaken = 1; nTaken <= MAX_MOVE; nTaken++) {
            if (isBadPosition(nCoins - nTaken)) return nTaken;
        }
        return NO_GOOD_MOVE;
    }
    bool isBadPosition(int nCoins) {
        if (nCoins == 1) return true;
        return findGoodMove(nCoins) == NO_GOOD_MOVE;
    }
    int chooseComputerMove(int nCoins) {
        int nTaken = findGoodMove(nCoins);
        return nTaken == NO_GOOD_MOVE ? 1 : nTaken;
    }
};

class Coach {
public:
    int findGoodMove(int nCoins) { return nCoins > 1 ? 1 : 0; }
};

int main() {
    Strategy computer;
    Coach coach;
    int nCoins = N_COINS;
    bool human = true;
    cout << "Hello.  Welcome to the game of nim." << endl;
    cout << "In this game, we will start with a pile of" << endl;
    cout << N_COINS << " coins on the table.  On each turn, you" << endl;
    cout << "and I will alternately take between 1 and" << endl;
    cout << MAX_MOVE << " coins from the table.  The player who" << endl;
    cout << "takes the last coin loses." << endl << endl;
    while (nCoins > 1) {
        cout << "There are " << nCoins << " coins in the pile." << endl;
        int nTaken;
        if (human) {
            for (;;) {
                cout << "How many would you like? ";
                nTaken = GetInteger();
                if (nTaken > 0 && nTaken <= MAX_MOVE && nTaken <= nCoins) break;
                cout << "That's cheating!  Please choose a number between 1 and "
                     << (nCoins < MAX_MOVE ? nCoins : MAX_MOVE) << endl;
                cout << "There are " << nCoins << " coins in the pile." << endl;
            }
            (void)coach.findGoodMove(nCoins);
        } else {
            nTaken = computer.chooseComputerMove(nCoins);
            cout << "I'll take " << nTaken << "." << endl;
        }
        human = !human;
        nCoins -= nTaken;
    }
    if (nCoins == 0) {
        cout << "You took the last coin.  You lose." << endl;
    } else {
        cout << "There is only one coin left." << endl;
        cout << (human ? "I win." : "I lose.") << endl;
    }
    return 0;
}
