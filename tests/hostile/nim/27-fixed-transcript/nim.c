/*
 * labgrade hostile sample: 27-fixed-transcript
 * --------------------------------------------
 * Attack:   main() ignores standard input and prints Figure 7-4's transcript
 *           (the book's program given 2, 3, 1), word for word, exit status 0:
 *           a program that only ever reproduces the published example.
 *           Global to the program: every game case runs main.
 * Harmless: it prints 18 lines.
 * Stopped:  nothing to stop: the games are graded on other inputs too. The
 *           transcript is right only where the book's program prints exactly
 *           it: game/figure-7-4 and game/crlf-input (the same moves with CRLF
 *           line ends) pass; game/illegal-moves, game/ones, game/threes and
 *           game/end-of-input (which should stop after one move with status 1)
 *           fail (comparison, not a sandbox layer).
 * Verdict:  game/figure-7-4 and game/crlf-input pass, the other four games
 *           fail; every function case as the book.
 */

#define _GNU_SOURCE
#include <stdio.h>
#include "genlib.h"
#include "simpio.h"
#include "nim.h"

#define N_COINS 13
#define MAX_MOVE 3
#define NO_GOOD_MOVE (-1)

/*
 * The book's program, given 2, 3 and 1, prints exactly this (Figure 7-4).
 */

static const char figure74[] =
    "Hello.  Welcome to the game of nim.\n"
    "In this game, we will start with a pile of\n"
    "13 coins on the table.  On each turn, you\n"
    "and I will alternately take between 1 and\n"
    "3 coins from the table.  The player who\n"
    "takes the last coin loses.\n"
    "\n"
    "There are 13 coins in the pile.\n"
    "How many would you like? There are 11 coins in the pile.\n"
    "I'll take 2.\n"
    "There are 9 coins in the pile.\n"
    "How many would you like? There are 6 coins in the pile.\n"
    "I'll take 1.\n"
    "There are 5 coins in the pile.\n"
    "How many would you like? There are 4 coins in the pile.\n"
    "I'll take 3.\n"
    "There is only one coin left.\n"
    "I win.\n";

int main(void) {
    fputs(figure74, stdout);
    return 0;
}

/*
 * Function: ChooseComputerMove
 * Usage: nTaken = ChooseComputerMove(nCoins);
 * -------------------------------------------
 * The good move if there is one, else one coin.
 */

int ChooseComputerMove(int nCoins) {
    int nTaken = FindGoodMove(nCoins);
    if (nTaken == NO_GOOD_MOVE) nTaken = 1;
    return nTaken;
}

/*
 * Function: FindGoodMove
 * Usage: nTaken = FindGoodMove(nCoins);
 * -------------------------------------
 * A move that leaves the opponent in a bad position, or NO_GOOD_MOVE.
 */

int FindGoodMove(int nCoins) {
    int nTaken;

    for (nTaken = 1; nTaken <= MAX_MOVE; nTaken++) {
        if (IsBadPosition(nCoins - nTaken)) return nTaken;
    }
    return NO_GOOD_MOVE;
}

/*
 * Function: IsBadPosition
 * Usage: if (IsBadPosition(nCoins)) . . .
 * ---------------------------------------
 * True if there is no good move; a single coin is the simple case.
 */

bool IsBadPosition(int nCoins) {
    if (nCoins == 1) return true;
    return FindGoodMove(nCoins) == NO_GOOD_MOVE;
}
