/*
 * File: tictactoe.h
 * -----------------
 * The interface labgrade grades in a Weiss tic-tac-toe submission (Data
 * Structures and Algorithm Analysis in C, Figures 10.66, 10.67 and 10.73).
 *
 * YOU WRITE, as the figures do:
 *
 *   void find_comp_move(board_type board, int *best_move, int *value);
 *   void find_human_move(board_type board, int *best_move, int *value);
 *
 * or, with alpha-beta pruning (Figure 10.73, and its other half):
 *
 *   void find_comp_move(board_type board, int *best_move, int *value,
 *                       int alpha, int beta);
 *   void find_human_move(board_type board, int *best_move, int *value,
 *                        int alpha, int beta);
 *
 * Squares are 1 to 9, row by row from the top left; each side tries them in
 * ascending order and takes a move only when it is strictly better. The
 * supporting routines the text leaves as an exercise are labgrade's (do not
 * define them): the board is labgrade's, and every call is recorded.
 *
 * labgrade calls find_comp_move(board, &best_move, &value, COMP_LOSS,
 * COMP_WIN) on each case's position and counts the positions examined: the
 * calls of find_comp_move and find_human_move. Keep their names; they may be
 * static. Whether your course grades the plain search or the pruned one is
 * its course file's ALPHA_BETA (plain by default).
 */

#ifndef LABGRADE_WEISS_TICTACTOE_H
#define LABGRADE_WEISS_TICTACTOE_H

#include "lg_world.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Values, ordered: the computer maximises, the human minimises. */
#define COMP_LOSS 0
#define DRAW 1
#define COMP_WIN 2

/* Pieces. */
#define EMPTY 0
#define COMP 1
#define HUMAN 2

/* labgrade's board: pass it on to the routines below. */
typedef struct lg_board *board_type;

LG_WRAPPER void place(board_type board, int square, int side) {
    (void)board;
    lg_world_call(0, square, side, 0, 0);
}
LG_WRAPPER void unplace(board_type board, int square) {
    (void)board;
    lg_world_call(1, square, 0, 0, 0);
}
LG_WRAPPER int full_board(board_type board) {
    (void)board;
    return (int)lg_world_call(2, 0, 0, 0, 0);
}
LG_WRAPPER int is_empty(board_type board, int square) {
    (void)board;
    return (int)lg_world_call(3, square, 0, 0, 0);
}
/* True when the computer can complete three in a row right now; *best_move is
   then the first such square. */
LG_WRAPPER int immediate_comp_win(board_type board, int *best_move) {
    long long square = lg_world_call(4, 0, 0, 0, 0);
    (void)board;
    if (square) *best_move = (int)square;
    return square != 0;
}
LG_WRAPPER int immediate_human_win(board_type board, int *best_move) {
    long long square = lg_world_call(5, 0, 0, 0, 0);
    (void)board;
    if (square) *best_move = (int)square;
    return square != 0;
}

#ifdef __cplusplus
}
#endif

#endif /* LABGRADE_WEISS_TICTACTOE_H */
