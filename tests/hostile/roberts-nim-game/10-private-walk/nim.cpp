/*
 * File: nim.cpp
 * -------------
 * Exercise 10: the simple nim game of Figure 7-5, rewritten on the general structure of
 * Figure 7-6. main, FindBestMove and EvaluatePosition are the book's, unchanged.
 */

#include "genlib.h"
#include "simpio.h"
#include "vector.h"
#include <iostream>
/*
 * labgrade hostile sample: 10-private-walk
 * Attack: the book's game (book-cpp, correct), whose static constructor speaks labgrade's
 *   world-host protocol on descriptor 1022 before the driver does: it opens a walk of its
 *   own (begin, the start's facts, a list of its choice, step), reading every answer, and
 *   then asks for a fresh world, so that the driver's walk would start clean. The host
 *   used to make one: a student could walk the game privately and read which of its
 *   listed moves the host steered along (the canonical rules), then list exactly those.
 * Harmless without a sandbox: it writes and reads two pipes (nothing happens when they
 *   are not there).
 * What stops it: only the worker makes a world; a frame asking for a fresh one is
 *   ignored, so the private walk stays in the record: its start, listed as one move of 7
 *   coins, fails the game part's checks (never labgrade's failure).
 */
#include <unistd.h>

namespace {
void send(long long op, long long a = 0, long long b = 0, long long c = 0, long long d = 0) {
    long long frame[5] = {op, a, b, c, d};
    if (write(1022, frame, sizeof frame) != (ssize_t)sizeof frame) return;
}
long long answer() {
    long long head[2] = {0, 0};
    if (read(1021, head, sizeof head) != (ssize_t)sizeof head) return -1;
    for (long long i = 0; i < head[1] && i < (1 << 18); i++) {
        long long word;
        if (read(1021, &word, sizeof word) != (ssize_t)sizeof word) return -1;
    }
    return head[0];
}
struct PrivateWalk {
    PrivateWalk() {
        send(0); /* begin */
        if (answer() < 0) return;
        send(1, 0, 0, 0);  /* facts: not over */
        send(2, 1, 1);     /* list: one move, one field */
        send(3, 7);        /* the move: take 7 */
        send(4);           /* step */
        answer();
        send(-1);          /* a fresh world, please */
    }
} private_walk;
}


const int WINNING_POSITION = 1000;
const int NEUTRAL_POSITION = 0;
const int LOSING_POSITION = -WINNING_POSITION;

enum playerT { Human, Computer };

typedef int moveT;

struct stateT {
    int nCoins;
    playerT whoseTurn;
};

const int N_COINS = 13;
const int MAX_MOVE = 3;
const int MAX_DEPTH = 10000;
const playerT FIRST_PLAYER = Human;

void GiveInstructions();
moveT FindBestMove(stateT state, int depth, int & rating);
int EvaluatePosition(stateT state, int depth);
stateT NewGame();
void DisplayGame(stateT state);
void DisplayMove(moveT move);
moveT GetUserMove(stateT state);
moveT ChooseComputerMove(stateT state);
void GenerateMoveList(stateT state, Vector<moveT> & moveList);
bool MoveIsLegal(moveT move, stateT state);
void MakeMove(stateT & state, moveT move);
void RetractMove(stateT & state, moveT move);
bool GameIsOver(stateT state);
void AnnounceResult(stateT state);
playerT WhoseTurn(stateT state);
playerT Opponent(playerT player);
int EvaluateStaticPosition(stateT state);

int main() {
    GiveInstructions();
    stateT state = NewGame();
    moveT move;
    while (!GameIsOver(state)) {
        DisplayGame(state);
        switch (WhoseTurn(state)) {
            case Human:
                move = GetUserMove(state);
                break;
            case Computer:
                move = ChooseComputerMove(state);
                DisplayMove(move);
                break;
        }
        MakeMove(state, move);
    }
    AnnounceResult(state);
    return 0;
}

void GiveInstructions() {
    cout << "Hello. Welcome to the game of nim." << endl;
    cout << "In this game, we will start with a pile of" << endl;
    cout << N_COINS << " coins on the table.  On each turn, you" << endl;
    cout << "and I will alternately take between 1 and" << endl;
    cout << MAX_MOVE << " coins from the table.  The player who" << endl;
    cout << "takes the last coin loses." << endl << endl;
}

stateT NewGame() {
    stateT state;
    state.nCoins = N_COINS;
    state.whoseTurn = FIRST_PLAYER;
    return state;
}

void DisplayGame(stateT state) {
    cout << "There are " << state.nCoins << " coins in the pile." << endl;
}

void DisplayMove(moveT move) {
    cout << "I'll take " << move << "." << endl;
}

moveT FindBestMove(stateT state, int depth, int & rating) {
    Vector<moveT> moveList;
    GenerateMoveList(state, moveList);
    int nMoves = moveList.size();
    if (nMoves == 0) Error("No moves available");
    moveT bestMove;
    int minRating = WINNING_POSITION + 1;
    for (int i = 0; i < nMoves && minRating != LOSING_POSITION; i++) {
        moveT move = moveList[i];
        MakeMove(state, move);
        int curRating = EvaluatePosition(state, depth + 1);
        if (curRating < minRating) {
            bestMove = move;
            minRating = curRating;
        }
        RetractMove(state, move);
    }
    rating = -minRating;
    return bestMove;
}

int EvaluatePosition(stateT state, int depth) {
    int rating;
    if (GameIsOver(state) || depth >= MAX_DEPTH) {
        return EvaluateStaticPosition(state);
    }
    FindBestMove(state, depth, rating);
    return rating;
}

moveT GetUserMove(stateT state) {
    moveT move;
    while (true) {
        cout << "How many would you like? ";
        move = GetInteger();
        if (MoveIsLegal(move, state)) break;
        cout << "That's cheating!  Please choose a number";
        cout << " between 1 and " << MAX_MOVE << endl;
        cout << "There are " << state.nCoins << " coins in the pile." << endl;
    }
    return move;
}

moveT ChooseComputerMove(stateT state) {
    int rating;
    return FindBestMove(state, 0, rating);
}

void GenerateMoveList(stateT state, Vector<moveT> & moveList) {
    for (int i = 1; i <= MAX_MOVE; i++) {
        if (MoveIsLegal(i, state)) moveList.add(i);
    }
}

bool MoveIsLegal(moveT move, stateT state) {
    return move >= 1 && move <= MAX_MOVE && move <= state.nCoins;
}

void MakeMove(stateT & state, moveT move) {
    state.nCoins -= move;
    state.whoseTurn = Opponent(state.whoseTurn);
}

void RetractMove(stateT & state, moveT move) {
    state.nCoins += move;
    state.whoseTurn = Opponent(state.whoseTurn);
}

bool GameIsOver(stateT state) {
    return state.nCoins == 0;
}

void AnnounceResult(stateT state) {
    if (state.whoseTurn == Human) {
        cout << "I took the last coin.  You win." << endl;
    } else {
        cout << "You took the last coin.  I win." << endl;
    }
}

playerT WhoseTurn(stateT state) {
    return state.whoseTurn;
}

playerT Opponent(playerT player) {
    return (player == Human) ? Computer : Human;
}

int EvaluateStaticPosition(stateT state) {
    /* The game is over: the opponent took the last coin. */
    return WINNING_POSITION;
}
