/*
 * File: nim.c
 * Exercise 10 in the C edition's style (Programming Abstractions in C): stateT is a
 * pointer to a record, GenerateMoveList fills an array and returns the count, pRating is
 * a pointer, and the booleans are genlib's TRUE and FALSE.
 */

#include <stdio.h>
#include "genlib.h"
#include "simpio.h"

#define WinningPosition 1000
#define NeutralPosition 0
#define LosingPosition (-WinningPosition)
#define MaxMoves 3
#define MaxDepth 10000
#define InitialCoins 13

typedef enum { Human, Computer } playerT;

typedef struct {
    int nTaken;
} moveT;

typedef struct {
    int nCoins;
    playerT whoseTurn;
} *stateT;

static moveT FindBestMove(stateT state, int depth, int *pRating);
static int EvaluatePosition(stateT state, int depth);

static stateT NewGame(void)
{
    stateT state;

    state = New(stateT);
    state->nCoins = InitialCoins;
    state->whoseTurn = Human;
    return (state);
}

static playerT Opponent(playerT player)
{
    return (player == Human) ? Computer : Human;
}

static playerT WhoseTurn(stateT state)
{
    return (state->whoseTurn);
}

static bool GameIsOver(stateT state)
{
    return (state->nCoins == 0) ? TRUE : FALSE;
}

static int GenerateMoveList(stateT state, moveT moveArray[])
{
    int i, n = 0;

    for (i = 1; i <= MaxMoves && i <= state->nCoins; i++) {
        moveArray[n].nTaken = i;
        n++;
    }
    return (n);
}

static void MakeMove(stateT state, moveT move)
{
    state->nCoins -= move.nTaken;
    state->whoseTurn = Opponent(state->whoseTurn);
}

static void RetractMove(stateT state, moveT move)
{
    state->nCoins += move.nTaken;
    state->whoseTurn = Opponent(state->whoseTurn);
}

static int EvaluateStaticPosition(stateT state)
{
    return (WinningPosition);
}

static moveT FindBestMove(stateT state, int depth, int *pRating)
{
    moveT moveArray[MaxMoves];
    moveT move, bestMove;
    int i, nMoves, rating, minRating;

    nMoves = GenerateMoveList(state, moveArray);
    if (nMoves == 0) Error("No moves available");
    bestMove = moveArray[0];
    minRating = WinningPosition + 1;
    for (i = 0; i < nMoves && minRating != LosingPosition; i++) {
        move = moveArray[i];
        MakeMove(state, move);
        rating = EvaluatePosition(state, depth + 1);
        if (rating < minRating) {
            bestMove = move;
            minRating = rating;
        }
        RetractMove(state, move);
    }
    *pRating = -minRating;
    return (bestMove);
}

static int EvaluatePosition(stateT state, int depth)
{
    int rating;

    if (GameIsOver(state) || depth >= MaxDepth) {
        return (EvaluateStaticPosition(state));
    }
    (void) FindBestMove(state, depth, &rating);
    return (rating);
}

int main(void)
{
    stateT state;
    moveT move;
    int rating;

    state = NewGame();
    while (!GameIsOver(state)) {
        printf("There are %d coins in the pile.\n", state->nCoins);
        if (WhoseTurn(state) == Human) {
            printf("How many would you like? ");
            move.nTaken = GetInteger();
            if (move.nTaken < 1 || move.nTaken > MaxMoves || move.nTaken > state->nCoins) {
                printf("That's cheating!\n");
                continue;
            }
        } else {
            move = FindBestMove(state, 0, &rating);
            printf("I'll take %d.\n", move.nTaken);
        }
        MakeMove(state, move);
    }
    printf(WhoseTurn(state) == Human ? "You win.\n" : "I win.\n");
    return (0);
}
