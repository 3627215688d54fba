/* labgrade sample: class-with-header (nimgame.cpp): nimGame's members. */
#include <iostream>
#include "nimgame.h"
#include "simpio.h"
using namespace std;

static const int START = 13;
static const int MOST = 3;
static const int NONE = -1;

nimGame::nimGame() : pile(START), humanToMove(true) {}

int nimGame::findGoodMove(int coins) {
    for (int take = 1; take <= MOST; take++) {
        if (isBadPosition(coins - take)) return take;
    }
    return NONE;
}

bool nimGame::isBadPosition(int coins) {
    if (coins == 1) return true;
    return findGoodMove(coins) == NONE;
}

int nimGame::chooseComputerMove(int coins) {
    int take = findGoodMove(coins);
    if (take == NONE) take = 1;
    return take;
}

int nimGame::askUser() {
    for (;;) {
        cout << "How many would you like? ";
        int take = GetInteger();
        if (take >= 1 && take <= MOST && take <= pile) return take;
        cout << "That's cheating!  Please choose a number between 1 and "
             << (pile < MOST ? pile : MOST) << endl;
        cout << "There are " << pile << " coins in the pile." << endl;
    }
}

void nimGame::play() {
    cout << "Hello.  Welcome to the game of nim." << endl;
    cout << "In this game, we will start with a pile of" << endl;
    cout << START << " coins on the table.  On each turn, you" << endl;
    cout << "and I will alternately take between 1 and" << endl;
    cout << MOST << " coins from the table.  The player who" << endl;
    cout << "takes the last coin loses." << endl << endl;
    while (pile > 1) {
        cout << "There are " << pile << " coins in the pile." << endl;
        int take;
        if (humanToMove) {
            take = askUser();
        } else {
            take = chooseComputerMove(pile);
            cout << "I'll take " << take << "." << endl;
        }
        humanToMove = !humanToMove;
        pile -= take;
    }
    if (pile == 0) {
        cout << "You took the last coin.  You lose." << endl;
    } else {
        cout << "There is only one coin left." << endl;
        cout << (humanToMove ? "I win." : "I lose.") << endl;
    }
}
