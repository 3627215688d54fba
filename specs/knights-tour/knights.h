/*
 * File: knights.h
 * ---------------
 * The interface labgrade grades in a knight's-tour submission: Roberts' chapter 7,
 * exercise 7 (an open tour) and the closed tour of Hilfinger's findPath (CS61B,
 * lecture 34).
 *
 * YOU WRITE:
 *
 *   bool FindTour(int n, int board[], pointT start);
 *       finds a knight's tour of the n x n board starting at start: a path of
 *       knight moves through every square exactly once. Writes the move number of
 *       each square in board[y * n + x] (square (x, y) is column x of row y, row 0
 *       at the top): 1 at start, then 2, ..., up to n * n, as the book's diagram
 *       numbers them. Returns true, or false when there is no tour from start;
 *       then board must be as it came: all 0 (undo every mark as you backtrack).
 *   bool FindClosedTour(int n, int board[], pointT start);
 *       the same, but the last square must also be one knight move from start
 *       (findPath's isKnightMove(row, col, endRow, endCol) at the end).
 *
 * board arrives filled with 0. Any valid tour is accepted. A course may also ask
 * for the tour its move order finds first (labgrade's cases tagged move-order,
 * worth no points unless your course says so): then try the knight's moves in
 * this order, as (dx, dy) with y growing
 * downwards, clockwise from two left and one up:
 *
 *   (-2, -1), (-1, -2), (1, -2), (2, -1), (2, 1), (1, 2), (-1, 2), (-2, 1)
 *
 * Plain backtracking is fast or hopeless depending on the order: from some
 * squares of the 8 x 8 board some orders take billions of moves. The order
 * above finds every tour the cases ask for in a few million moves at most.
 *
 * Write the recursion in a helper of your own (it needs the move number, or the
 * path so far); name it as you like.
 */

#ifndef LABGRADE_KNIGHTS_H
#define LABGRADE_KNIGHTS_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int x, y;
} pointT;

/* labgrade's build defines LG_NO_STUDENT_PROTOTYPES when your sources define one of
   these static, where these prototypes would be an error. */
#ifndef LG_NO_STUDENT_PROTOTYPES
bool FindTour(int n, int board[], pointT start);
bool FindClosedTour(int n, int board[], pointT start);
#endif

#ifdef __cplusplus
}
#endif

#endif /* LABGRADE_KNIGHTS_H */
