/*
 * labgrade sample: general-part-declared
 * --------------------------------------
 * Exercise 10's game part alone, as a student hands in the file they wrote
 * when the course supplies the general part (main, FindBestMove and
 * EvaluatePosition) in a file of its own. The file keeps the general part's
 * prototypes, as the book's listing declares them, but defines only the game:
 * FindBestMove is declared and never defined here.
 */
#include "genlib.h"
#include "vector.h"

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

/* The general part's functions (the course's file defines them). */
moveT FindBestMove(stateT state, int depth, int & rating);
int EvaluatePosition(stateT state, int depth);

stateT NewGame() {
    stateT state;
    state.nCoins = N_COINS;
    state.whoseTurn = Human;
    return state;
}

bool MoveIsLegal(moveT move, stateT state) {
    return move > 0 && move <= MAX_MOVE && move <= state.nCoins;
}

void GenerateMoveList(stateT state, Vector<moveT> & moveList) {
    for (int take = 1; take <= MAX_MOVE; take++) {
        if (MoveIsLegal(take, state)) moveList.add(take);
    }
}

playerT Opponent(playerT player) {
    return (player == Human) ? Computer : Human;
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
    return state.nCoins <= 1;
}

playerT WhoseTurn(stateT state) {
    return state.whoseTurn;
}

int EvaluateStaticPosition(stateT state) {
    if (state.nCoins == 1) return LOSING_POSITION;
    if (state.nCoins == 0) return WINNING_POSITION;
    return NEUTRAL_POSITION;
}
