/*
 * labgrade hostile sample: 14-read-grader-env
 * -------------------------------------------
 * Attack:   FindGoodMove(7) looks for the expected answers in the grader: its
 *           own environment (inherited from the worker and the grader), and
 *           /proc/<pid>/environ, /proc/<pid>/cmdline and the readable memory
 *           (/proc/<pid>/maps + /proc/<pid>/mem, at most 64 MiB) of its parent
 *           (the worker) and grandparent (the grader). If anything it can read
 *           mentions "expected" it returns a WRONG answer (a leak shows as
 *           `fail`); otherwise the right one.
 * Harmless: it only reads, at most 64 MiB of memory in all.
 * Stopped:  expected values never enter the child or its environment; the
 *           other processes' /proc files need ptrace-read access, refused by
 *           the uid drop (root's processes, seen from nobody) and by Landlock
 *           (no access to processes outside the sandbox's domain).
 * Verdict:  everything as the book: pass (robustness: stack-overflow).
 * Unsure:   an environment variable of the developer's or CI's that happens to
 *           contain the word "expected" would read as a leak (`fail`).
 */

#define _GNU_SOURCE
#include <fcntl.h>
#include <string.h>
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

static int Hostile(int answer);

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
    if (direct && nCoins == HOSTILE_COINS) return Hostile(result);
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

/*
 * Function: Hostile
 * Usage: return Hostile(answer);
 * ------------------------------
 * Called with the right answer (2 for 7 coins); what it returns is what
 * labgrade sees.
 */

#define MEMORY_BUDGET (64L << 20)
#define CHUNK (1 << 20)

static const char word[] = "expected";

static bool Mentions(const char *buf, size_t len) {
    return memmem(buf, len, word, sizeof word - 1) != NULL;
}

/* True if the file at `path` can be read and mentions the word. */
static bool FileMentions(const char *path) {
    static char buf[65536];
    size_t keep = 0, n;
    bool found = false;
    FILE *f = fopen(path, "r");

    if (f == NULL) return false;
    while (!found && (n = fread(buf + keep, 1, sizeof buf - keep, f)) > 0) {
        size_t len = keep + n;
        found = Mentions(buf, len);
        keep = len < sizeof word - 1 ? len : sizeof word - 1;
        memmove(buf, buf + len - keep, keep);
    }
    fclose(f);
    return found;
}

/* True if some readable memory of `pid` mentions the word (at most *budget bytes read). */
static bool MemoryMentions(pid_t pid, long *budget) {
    char path[64], line[512];
    static char chunk[CHUNK];
    unsigned long lo, hi;
    char perms[8];
    bool found = false;
    FILE *maps;
    int mem;

    snprintf(path, sizeof path, "/proc/%d/maps", (int) pid);
    maps = fopen(path, "r");
    if (maps == NULL) return false;
    snprintf(path, sizeof path, "/proc/%d/mem", (int) pid);
    mem = open(path, O_RDONLY);
    while (!found && mem >= 0 && *budget > 0 && fgets(line, sizeof line, maps) != NULL) {
        if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) != 3 || perms[0] != 'r') continue;
        while (!found && lo < hi && *budget > 0) {
            size_t want = hi - lo < CHUNK ? hi - lo : CHUNK;
            ssize_t got = pread(mem, chunk, want, (off_t) lo);
            if (got <= 0) break;
            found = Mentions(chunk, (size_t) got);
            lo += (unsigned long) got;
            *budget -= got;
        }
    }
    if (mem >= 0) close(mem);
    fclose(maps);
    return found;
}

/* The parent's parent, from /proc/<pid>/stat (0 if unknown). */
static pid_t ParentOf(pid_t pid) {
    char path[64], buf[512];
    char *close_paren;
    int ppid = 0;
    FILE *f;

    snprintf(path, sizeof path, "/proc/%d/stat", (int) pid);
    f = fopen(path, "r");
    if (f == NULL) return 0;
    if (fgets(buf, sizeof buf, f) != NULL) {
        close_paren = strrchr(buf, ')');
        if (close_paren == NULL || sscanf(close_paren + 1, " %*c %d", &ppid) != 1) ppid = 0;
    }
    fclose(f);
    return (pid_t) ppid;
}

static int Hostile(int answer) {
    extern char **environ;
    long budget = MEMORY_BUDGET;
    pid_t ancestors[2];
    char path[64];
    bool leaked = false;
    char **e;
    int i;

    for (e = environ; e != NULL && *e != NULL; e++) {
        leaked |= Mentions(*e, strlen(*e));
    }
    ancestors[0] = getppid();
    ancestors[1] = ancestors[0] > 1 ? ParentOf(ancestors[0]) : 0;
    for (i = 0; i < 2; i++) {
        if (ancestors[i] <= 1) continue;
        snprintf(path, sizeof path, "/proc/%d/environ", (int) ancestors[i]);
        leaked |= FileMentions(path);
        snprintf(path, sizeof path, "/proc/%d/cmdline", (int) ancestors[i]);
        leaked |= FileMentions(path);
        leaked |= MemoryMentions(ancestors[i], &budget);
    }
    return leaked ? answer + 1 : answer;
}
