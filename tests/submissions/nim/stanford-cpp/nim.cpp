/*
 * File: nim.cpp
 * -------------
 * CS106B, Assignment 4 (recursive backtracking), part 1: nim.
 *
 * This program simulates a simple variant of the game of nim.
 * In this version, the game starts with a pile of 13 coins
 * on a table.  Players then take turns removing 1, 2, or 3
 * coins from the pile.  The player who takes the last coin
 * loses.  This simulation allows a human player to compete
 * against the computer.
 *
 * Strategy as in Figure 7-5 of the reader: FindGoodMove and
 * IsBadPosition call each other until a single coin is left.
 */

#include <iostream>
#include <string>
#include "console.h"
#include "simpio.h"
using namespace std;

/* Constants */

const int N_COINS = 13;       /* Initial number of coins                       */
const int MAX_MOVE = 3;       /* The maximum number of coins a player may take */
const int NO_GOOD_MOVE = -1;  /* Sentinel indicating no good move is available */

/* Whose turn it is. */
enum playerT { Human, Computer };

/* Function prototypes */

void GiveInstructions();
void AnnounceWinner(int nCoins, playerT whoseTurn);
int GetUserMove(int nCoins);
bool MoveIsLegal(int nTaken, int nCoins);
int ChooseComputerMove(int nCoins);
int FindGoodMove(int nCoins);
bool IsBadPosition(int nCoins);

/* Main program: the human player always goes first. */

int main() {
    setConsoleSize(600, 400);
    setConsoleFont("Monospaced-14");
    setConsoleEcho(true);
    setConsolePrintExceptions(true);

    GiveInstructions();
    int nCoins = N_COINS;
    playerT whoseTurn = Human;
    while (nCoins > 1) {
        cout << "There are " << nCoins << " coins in the pile." << endl;
        int nTaken = 0;
        if (whoseTurn == Human) {
            nTaken = GetUserMove(nCoins);
            whoseTurn = Computer;
        } else {
            nTaken = ChooseComputerMove(nCoins);
            cout << "I'll take " << nTaken << "." << endl;
            whoseTurn = Human;
        }
        nCoins -= nTaken;
    }
    AnnounceWinner(nCoins, whoseTurn);
    return 0;
}

/* Explains the rules of the game to the user. */
void GiveInstructions() {
    cout << "Hello.  Welcome to the game of nim." << endl;
    cout << "In this game, we will start with a pile of" << endl;
    cout << N_COINS << " coins on the table.  On each turn, you" << endl;
    cout << "and I will alternately take between 1 and" << endl;
    cout << MAX_MOVE << " coins from the table.  The player who" << endl;
    cout << "takes the last coin loses." << endl;
    cout << endl;
}

/* Announces the final result of the game. */
void AnnounceWinner(int nCoins, playerT whoseTurn) {
    if (nCoins == 0) {
        cout << "You took the last coin.  You lose." << endl;
    } else {
        cout << "There is only one coin left." << endl;
        if (whoseTurn == Human) {
            cout << "I win." << endl;
        } else {
            cout << "I lose." << endl;
        }
    }
}

/*
 * The human player's turn: asks with getInteger until the move is legal
 * and returns the number of coins taken.
 */
int GetUserMove(int nCoins) {
    while (true) {
        int nTaken = getInteger("How many would you like? ");
        if (MoveIsLegal(nTaken, nCoins)) return nTaken;
        int limit = (nCoins < MAX_MOVE) ? nCoins : MAX_MOVE;
        cout << "That's cheating!  Please choose a number between 1 and " << limit << endl;
        cout << "There are " << nCoins << " coins in the pile." << endl;
    }
}

/* Is it legal to take nTaken coins from a pile of nCoins? */
bool MoveIsLegal(int nTaken, int nCoins) {
    return nTaken > 0 && nTaken <= MAX_MOVE && nTaken <= nCoins;
}

/*
 * The computer's move: a good move if there is one; otherwise one coin,
 * to give the human more chances to make a mistake.
 */
int ChooseComputerMove(int nCoins) {
    int nTaken = FindGoodMove(nCoins);
    if (nTaken == NO_GOOD_MOVE) nTaken = 1;
    return nTaken;
}

/*
 * A good move leaves the opponent in a bad position; NO_GOOD_MOVE if
 * there is none.
 */
int FindGoodMove(int nCoins) {
    for (int nTaken = 1; nTaken <= MAX_MOVE; nTaken++) {
        if (IsBadPosition(nCoins - nTaken)) return nTaken;
    }
    return NO_GOOD_MOVE;
}

/*
 * A bad position offers no good move; a single coin is the simple case.
 */
bool IsBadPosition(int nCoins) {
    if (nCoins == 1) return true;
    return FindGoodMove(nCoins) == NO_GOOD_MOVE;
}
