/*
 * File: nim_book.c (shared by the hostile nim samples)
 * ----------------------------------------------------
 * Figure 7-5 in C, with two hooks: FindGoodMove(7), called directly by
 * labgrade (depth 0), returns Hostile(answer) instead of its answer; and
 * main, before the game, calls HostileMain(). Both are weak symbols: a sample
 * defines the one it attacks from. Every
 * sample holds this file as book.c (a symbolic link) and defines its hooks in
 * its own attack.c, so the book is written once and each sample is only its
 * attack.
 */

#include <stdio.h>
#include "genlib.h"
#include "simpio.h"
#include "nim.h"

/*
 * Constants
 * ---------
 * N_COINS      -- Initial number of coins
 * MAX_MOVE     -- The maximum number of coins a player may take
 * NO_GOOD_MOVE -- Sentinel indicating no good move is available
 */

#define N_COINS 13
#define MAX_MOVE 3
#define NO_GOOD_MOVE (-1)

/*
 * Type: playerT
 * -------------
 * This enumeration type distinguishes the turns for the human
 * player from those for the computer.
 */

typedef enum { Human, Computer } playerT;

/* Private function prototypes */

static void GiveInstructions(void);
static void AnnounceWinner(int nCoins, playerT whoseTurn);
static int GetUserMove(int nCoins);
static bool MoveIsLegal(int nTaken, int nCoins);

/*
 * Main program
 * ------------
 * This program plays the game of nim.  In this implementation,
 * the human player always goes first.
 */

/* Defined by the samples that attack from main (every game case runs it). */
__attribute__((weak)) void HostileMain(void);

int main(void) {
    int nCoins, nTaken;
    playerT whoseTurn;
    if (HostileMain) HostileMain();
    GiveInstructions();
    nCoins = N_COINS;
    whoseTurn = Human;
    while (nCoins > 1) {
        printf("There are %d coins in the pile.\n", nCoins);
        switch (whoseTurn) {
          case Human:
            nTaken = GetUserMove(nCoins);
            whoseTurn = Computer;
            break;
          case Computer:
            nTaken = ChooseComputerMove(nCoins);
            printf("I'll take %d.\n", nTaken);
            whoseTurn = Human;
            break;
        }
        nCoins -= nTaken;
    }
    AnnounceWinner(nCoins, whoseTurn);
    return 0;
}

/*
 * Function: GiveInstructions
 * Usage: GiveInstructions();
 * --------------------------
 * This function explains the rules of the game to the user.
 */

static void GiveInstructions(void) {
    printf("Hello.  Welcome to the game of nim.\n");
    printf("In this game, we will start with a pile of\n");
    printf("%d coins on the table.  ", N_COINS);
    printf("On each turn, you\n");
    printf("and I will alternately take between 1 and\n");
    printf("%d coins from the table.  ", MAX_MOVE);
    printf("The player who\n");
    printf("takes the last coin loses.\n");
    printf("\n");
}

/*
 * Function: AnnounceWinner
 * Usage: AnnounceWinner(nCoins, whoseTurn);
 * -----------------------------------------
 * This function announces the final result of the game.
 */

static void AnnounceWinner(int nCoins, playerT whoseTurn) {
    if (nCoins == 0) {
        printf("You took the last coin.  You lose.\n");
    } else {
        printf("There is only one coin left.\n");
        switch (whoseTurn) {
          case Human:    printf("I win.\n"); break;
          case Computer: printf("I lose.\n"); break;
        }
    }
}

/*
 * Function: GetUserMove
 * Usage: nTaken = GetUserMove(nCoins);
 * ------------------------------------
 * This function is responsible for the human player's turn.
 * It takes the number of coins left in the pile as an argument,
 * and returns the number of coins that the player removes
 * from the pile.  The function checks the move for legality
 * and gives the player repeated chances to enter a legal move.
 */

static int GetUserMove(int nCoins) {
    int nTaken, limit;

    while (true) {
        printf("How many would you like? ");
        nTaken = GetInteger();
        if (MoveIsLegal(nTaken, nCoins)) break;
        limit = (nCoins < MAX_MOVE) ? nCoins : MAX_MOVE;
        printf("That's cheating!  Please choose a number");
        printf(" between 1 and %d\n", limit);
        printf("There are %d coins in the pile.\n", nCoins);
    }
    return nTaken;
}

/*
 * Function: MoveIsLegal
 * Usage: if (MoveIsLegal(nTaken, nCoins)) . . .
 * ---------------------------------------------
 * This predicate function returns true if it is legal to take
 * nTaken coins from a pile of nCoins.
 */

static bool MoveIsLegal(int nTaken, int nCoins) {
    return (nTaken > 0 && nTaken <= MAX_MOVE && nTaken <= nCoins);
}

/*
 * The graded functions: Figure 7-5's, plus `depth`, the number of graded
 * functions active at the moment. It is 0 only when labgrade itself calls one
 * of them, so Hostile() runs for FindGoodMove(7) called directly, never inside
 * the recursion, ChooseComputerMove or IsBadPosition, and never in the game.
 * Hostile() runs after the search: the call counts are the book's.
 */

#define HOSTILE_COINS 7

static int depth;

/* Defined by the samples that attack from FindGoodMove(7) (weak: the others leave it out). */
__attribute__((weak)) int Hostile(int answer);

/*
 * Function: ChooseComputerMove
 * Usage: nTaken = ChooseComputerMove(nCoins);
 * -------------------------------------------
 * The good move if there is one, else one coin.
 */

int ChooseComputerMove(int nCoins) {
    int nTaken;

    depth++;
    nTaken = FindGoodMove(nCoins);
    depth--;
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
    int nTaken, result = NO_GOOD_MOVE;
    bool direct = (depth == 0);

    depth++;
    for (nTaken = 1; nTaken <= MAX_MOVE; nTaken++) {
        if (IsBadPosition(nCoins - nTaken)) {
            result = nTaken;
            break;
        }
    }
    depth--;
    if (direct && nCoins == HOSTILE_COINS && Hostile) return Hostile(result);
    return result;
}

/*
 * Function: IsBadPosition
 * Usage: if (IsBadPosition(nCoins)) . . .
 * ---------------------------------------
 * True if there is no good move; a single coin is the simple case.
 */

bool IsBadPosition(int nCoins) {
    bool bad;

    if (nCoins == 1) return true;
    depth++;
    bad = (FindGoodMove(nCoins) == NO_GOOD_MOVE);
    depth--;
    return bad;
}
