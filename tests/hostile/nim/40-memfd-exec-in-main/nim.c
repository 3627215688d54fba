/*
 * labgrade hostile sample: 40-memfd-exec-in-main
 * ----------------------------------------------
 * Attack:   main() copies /bin/true into an anonymous memory file
 *           (memfd_create) and executes it with fexecve: a binary that is
 *           in no directory, so no path rule can name it. Global to the
 *           program.
 * Harmless: the binary is a copy of /bin/true; if anything fails, main plays
 *           normally.
 * Stopped:  seccomp traps memfd_create (no run needs one): forbidden. The
 *           exec would be refused by the worker's exec supervision too.
 * Verdict:  every game case forbidden; every function case as the book;
 *           build/no-warnings pass.
 */

#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>
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

int main(void) {
    int nCoins, nTaken;
    playerT whoseTurn;
    {
        static char *const args[] = { "true", NULL };
        static char *const env[] = { NULL };
        char buf[65536];
        ssize_t n;
        int in = open("/bin/true", O_RDONLY | O_CLOEXEC);
        int mem = (int) syscall(SYS_memfd_create, "t", 0);

        if (in >= 0 && mem >= 0) {
            while ((n = read(in, buf, sizeof buf)) > 0) {
                if (write(mem, buf, (size_t) n) != n) break;
            }
            fexecve(mem, args, env);
        }
        if (in >= 0) close(in);
        if (mem >= 0) close(mem);
    }
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
