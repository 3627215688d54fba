/*
 * File: minimax.h
 * ---------------
 * The interface labgrade grades in Roberts' general minimax (Programming
 * Abstractions in C++, section 7.5 and Figure 7-6), the algorithm side.
 *
 * YOU WRITE the general part, as Figure 7-6 does:
 *
 *   moveT FindBestMove(stateT state, int depth, int & rating);
 *   int EvaluatePosition(stateT state, int depth);
 *
 * (in C: int *pRating), with the book's constants in your file, as Figure
 * 7-6 has them: WINNING_POSITION = 1000, NEUTRAL_POSITION = 0,
 * LOSING_POSITION = -WINNING_POSITION, and MAX_DEPTH (the book's is 10000; a
 * course may set another, and says so in its course file).
 *
 * labgrade is the game: Figure 7-6's tic-tac-toe (squares 1 to 9, X moves
 * first), or exercise 10's nim (take 1 to 3 coins, whoever takes the last
 * coin loses; a move is the number of coins taken), as each case says. Its
 * functions below are answered by labgrade and every call is recorded (do not define them): the positions examined, that every MakeMove
 * is retracted, and the move where your search parts from the reference's.
 * stateT is labgrade's handle: pass it on; labgrade keeps the board.
 *
 * labgrade calls FindBestMove(state, 0, rating) and EvaluatePosition(state,
 * 0) on each case's position and counts their calls; keep their names.
 */

#ifndef LABGRADE_ROBERTS_MINIMAX_H
#define LABGRADE_ROBERTS_MINIMAX_H

#include "genlib.h"
#include "lg_world.h"
#ifdef __cplusplus
#include "vector.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

enum playerT_lg { Human, Computer };
typedef enum playerT_lg playerT;
typedef int moveT;
typedef struct lg_state *stateT;

/* The legal moves, in ascending order, as a bit set (labgrade's answer). */
LG_WRAPPER int lg_legal_moves(void) {
    return (int)lg_world_call(0, 0, 0, 0, 0);
}

#ifdef __cplusplus
}
LG_WRAPPER void GenerateMoveList(stateT state, Vector<moveT> &moveList) {
    (void)state;
    int legal = lg_legal_moves();
    for (int i = 1; i <= 9; i++)
        if (legal & (1 << i)) moveList.add(i);
}
LG_WRAPPER void MakeMove(stateT &state, moveT move) {
    (void)state;
    lg_world_call(1, move, 0, 0, 0);
}
LG_WRAPPER void RetractMove(stateT &state, moveT move) {
    (void)state;
    lg_world_call(2, move, 0, 0, 0);
}
extern "C" {
#else
/* The C edition: fills moveArray, returns how many moves there are. */
LG_WRAPPER int GenerateMoveList(stateT state, moveT moveArray[]) {
    int legal = lg_legal_moves(), n = 0, i;
    (void)state;
    for (i = 1; i <= 9; i++)
        if (legal & (1 << i)) moveArray[n++] = i;
    return n;
}
LG_WRAPPER void MakeMove(stateT state, moveT move) {
    (void)state;
    lg_world_call(1, move, 0, 0, 0);
}
LG_WRAPPER void RetractMove(stateT state, moveT move) {
    (void)state;
    lg_world_call(2, move, 0, 0, 0);
}
#endif

LG_WRAPPER bool GameIsOver(stateT state) {
    (void)state;
    return lg_world_call(3, 0, 0, 0, 0) != 0;
}
LG_WRAPPER int EvaluateStaticPosition(stateT state) {
    (void)state;
    return (int)lg_world_call(4, 0, 0, 0, 0);
}
LG_WRAPPER playerT WhoseTurn(stateT state) {
    (void)state;
    return (playerT)lg_world_call(5, 0, 0, 0, 0);
}
LG_WRAPPER playerT Opponent(playerT player) {
    return player == Human ? Computer : Human;
}
LG_WRAPPER bool MoveIsLegal(moveT move, stateT state) {
    (void)state;
    return lg_world_call(6, move, 0, 0, 0) != 0;
}

#ifdef __cplusplus
}
#endif

#endif /* LABGRADE_ROBERTS_MINIMAX_H */
