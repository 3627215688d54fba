/*
 * File: nim3.cpp
 * --------------
 * Exercise 12: nim in three rows (3, 4 and 5 coins); a move takes any number of coins from
 * one row; the player who takes the last coin loses. main, FindBestMove and
 * EvaluatePosition are Figure 7-6's, unchanged.
 */

#include "genlib.h"
#include "simpio.h"
#include "vector.h"
#include <iostream>

const int WINNING_POSITION = 1000;
const int NEUTRAL_POSITION = 0;
const int LOSING_POSITION = -WINNING_POSITION;
const int N_ROWS = 3;
const int START[N_ROWS] = {3, 4, 5};
const int MAX_DEPTH = 10000;

enum playerT { Human, Computer };

struct moveT {
    int row;      /* 0, 1 or 2 */
    int nTaken;
};

struct stateT {
    int coins[N_ROWS];
    playerT whoseTurn;
};

const playerT FIRST_PLAYER = Human;

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

stateT NewGame() {
    stateT state;
    for (int i = 0; i < N_ROWS; i++) state.coins[i] = START[i];
    state.whoseTurn = FIRST_PLAYER;
    return state;
}

void DisplayGame(stateT state) {
    for (int i = 0; i < N_ROWS; i++) {
        cout << "Row " << i + 1 << ":";
        for (int j = 0; j < state.coins[i]; j++) cout << " O";
        cout << endl;
    }
}

void DisplayMove(moveT move) {
    cout << "I take " << move.nTaken << " from row " << move.row + 1 << "." << endl;
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
        cout << "Row? ";
        move.row = GetInteger() - 1;
        cout << "How many? ";
        move.nTaken = GetInteger();
        if (MoveIsLegal(move, state)) break;
        cout << "That move is illegal. Try again." << endl;
    }
    return move;
}

moveT ChooseComputerMove(stateT state) {
    int rating;
    return FindBestMove(state, 0, rating);
}

void GenerateMoveList(stateT state, Vector<moveT> & moveList) {
    for (int row = 0; row < N_ROWS; row++) {
        for (int n = 1; n <= state.coins[row]; n++) {
            moveT move;
            move.row = row;
            move.nTaken = n;
            moveList.add(move);
        }
    }
}

bool MoveIsLegal(moveT move, stateT state) {
    return move.row >= 0 && move.row < N_ROWS && move.nTaken >= 1
           && move.nTaken <= state.coins[move.row];
}

void MakeMove(stateT & state, moveT move) {
    state.coins[move.row] -= move.nTaken;
    state.whoseTurn = Opponent(state.whoseTurn);
}

void RetractMove(stateT & state, moveT move) {
    state.coins[move.row] += move.nTaken;
    state.whoseTurn = Opponent(state.whoseTurn);
}

bool GameIsOver(stateT state) {
    for (int i = 0; i < N_ROWS; i++) {
        if (state.coins[i] > 0) return false;
    }
    return true;
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
    /* Over: the opponent took the last coin, so the player to move has won. */
    return WINNING_POSITION;
}
