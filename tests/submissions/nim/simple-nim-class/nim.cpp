/*
 * labgrade sample: simple-nim-class
 * ---------------------------------
 * Nim written the way the 2012 C++ edition of Roberts' book designs it: the
 * whole game is one class, SimpleNim, whose strategy functions are private
 * members with lowercase names and whose state (the coins left, whose turn it
 * is) lives in data members. There is no constructor: play() sets the state up.
 * The file does not include nim.h. labgrade calls each graded function on a
 * default-constructed SimpleNim through its own bridge, and counts the
 * members' calls; the console game is the book's.
 */
#include <iostream>
#include "simpio.h"
using namespace std;

const int N_COINS = 13;
const int MAX_MOVE = 3;
const int NO_GOOD_MOVE = -1;

enum Player { HUMAN, COMPUTER };

class SimpleNim {
public:
    /* Plays one game: the human moves first. */
    void play() {
        coinsLeft = N_COINS;
        turn = HUMAN;
        while (coinsLeft > 1) {
            cout << "There are " << coinsLeft << " coins in the pile." << endl;
            int taken;
            if (turn == HUMAN) {
                taken = getUserMove();
                turn = COMPUTER;
            } else {
                taken = chooseComputerMove(coinsLeft);
                cout << "I'll take " << taken << "." << endl;
                turn = HUMAN;
            }
            coinsLeft -= taken;
        }
        announceWinner();
    }

    void printInstructions() {
        cout << "Hello.  Welcome to the game of nim." << endl;
        cout << "In this game, we will start with a pile of" << endl;
        cout << N_COINS << " coins on the table.  On each turn, you" << endl;
        cout << "and I will alternately take between 1 and" << endl;
        cout << MAX_MOVE << " coins from the table.  The player who" << endl;
        cout << "takes the last coin loses." << endl << endl;
    }

private:
    /* The good move if there is one, else a single coin. */
    int chooseComputerMove(int nCoins) {
        int taken = findGoodMove(nCoins);
        return (taken == NO_GOOD_MOVE) ? 1 : taken;
    }

    /* A move that leaves the opponent in a bad position, or NO_GOOD_MOVE. */
    int findGoodMove(int nCoins) {
        for (int taken = 1; taken <= MAX_MOVE; taken++) {
            if (isBadPosition(nCoins - taken)) return taken;
        }
        return NO_GOOD_MOVE;
    }

    /* One coin left is bad; otherwise a position is bad when it has no good move. */
    bool isBadPosition(int nCoins) {
        if (nCoins == 1) return true;
        return findGoodMove(nCoins) == NO_GOOD_MOVE;
    }

    int getUserMove() {
        while (true) {
            cout << "How many would you like? ";
            int taken = GetInteger();
            if (taken > 0 && taken <= MAX_MOVE && taken <= coinsLeft) return taken;
            int limit = (coinsLeft < MAX_MOVE) ? coinsLeft : MAX_MOVE;
            cout << "That's cheating!  Please choose a number between 1 and " << limit << endl;
            cout << "There are " << coinsLeft << " coins in the pile." << endl;
        }
    }

    void announceWinner() {
        if (coinsLeft == 0) {
            cout << "You took the last coin.  You lose." << endl;
        } else {
            cout << "There is only one coin left." << endl;
            cout << (turn == HUMAN ? "I win." : "I lose.") << endl;
        }
    }

    int coinsLeft;
    Player turn;
};

int main() {
    SimpleNim game;
    game.printInstructions();
    game.play();
    return 0;
}
