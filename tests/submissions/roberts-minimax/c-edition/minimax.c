/* The C edition's general part: a move array, *pRating, static functions, #defines. */
#include "minimax.h"

#define WINNING_POSITION 1000
#define LOSING_POSITION (-WINNING_POSITION)
#define MAX_DEPTH 10000
#define MAX_MOVES 9

static int EvaluatePosition(stateT state, int depth);

static moveT FindBestMove(stateT state, int depth, int *pRating)
{
    moveT moveArray[MAX_MOVES], move, bestMove = 0;
    int i, nMoves, rating, minRating;

    nMoves = GenerateMoveList(state, moveArray);
    if (nMoves == 0) Error("No moves available");
    minRating = WINNING_POSITION + 1;
    for (i = 0; i < nMoves && minRating != LOSING_POSITION; i++) {
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
    return bestMove;
}

static int EvaluatePosition(stateT state, int depth)
{
    int rating;

    if (GameIsOver(state) || depth >= MAX_DEPTH) {
        return EvaluateStaticPosition(state);
    }
    FindBestMove(state, depth, &rating);
    return rating;
}
