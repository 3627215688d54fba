/*
 * labgrade hostile sample: 45-decoy-debug-entry
 * ---------------------------------------------
 * The functions of 26-wrong-types (double FindGoodMove(double), ...), with
 * decoy.c compiled first: it defines functions under the graded names whose
 * symbols an asm label renames, so the first debug entries named FindGoodMove,
 * IsBadPosition and ChooseComputerMove say int f(int). Before, labgrade took
 * the first entry by name and called the real double functions as int(int).
 * Now the entry read is the one at the address of the symbol labgrade calls:
 * every function case is missing-symbol, naming the double parameter.
 */

#define _GNU_SOURCE
#include <stdio.h>
#include "genlib.h"
#include "simpio.h"

#define N_COINS 13
#define MAX_MOVE 3
#define NO_GOOD_MOVE (-1)

/*
 * The graded functions with the wrong types: double instead of int (and
 * bool). Declared here; nim.h is not included, so the compiler cannot object.
 */

double FindGoodMove(double nCoins);
double IsBadPosition(double nCoins);
double ChooseComputerMove(double nCoins);

/* The game's own, correct, int versions. */

static int GoodMove(int nCoins);
static bool BadPosition(int nCoins);
static int ComputerMove(int nCoins);

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

int main(void) {
    int nCoins, nTaken;
    playerT whoseTurn;
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
            nTaken = ComputerMove(nCoins);
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
 * Functions: ComputerMove, GoodMove, BadPosition
 * ----------------------------------------------
 * Figure 7-5's functions under other names, with the right types: the game
 * plays exactly as the book's.
 */

static int ComputerMove(int nCoins) {
    int nTaken = GoodMove(nCoins);
    if (nTaken == NO_GOOD_MOVE) nTaken = 1;
    return nTaken;
}

static int GoodMove(int nCoins) {
    int nTaken;

    for (nTaken = 1; nTaken <= MAX_MOVE; nTaken++) {
        if (BadPosition(nCoins - nTaken)) return nTaken;
    }
    return NO_GOOD_MOVE;
}

static bool BadPosition(int nCoins) {
    if (nCoins == 1) return true;
    return GoodMove(nCoins) == NO_GOOD_MOVE;
}

/*
 * Functions: FindGoodMove, IsBadPosition, ChooseComputerMove
 * ----------------------------------------------------------
 * Figure 7-5's logic, line for line, in double.
 */

double ChooseComputerMove(double nCoins) {
    double nTaken = FindGoodMove(nCoins);
    if (nTaken == NO_GOOD_MOVE) nTaken = 1;
    return nTaken;
}

double FindGoodMove(double nCoins) {
    double nTaken;

    for (nTaken = 1; nTaken <= MAX_MOVE; nTaken++) {
        if (IsBadPosition(nCoins - nTaken) != 0) return nTaken;
    }
    return NO_GOOD_MOVE;
}

double IsBadPosition(double nCoins) {
    if (nCoins == 1) return 1;
    return FindGoodMove(nCoins) == NO_GOOD_MOVE ? 1 : 0;
}
