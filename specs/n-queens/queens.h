/*
 * File: queens.h
 * --------------
 * The interface labgrade grades in an N-queens submission (exercise 8).
 *
 * YOU WRITE:
 *
 *   bool SolveQueens(int n, int rows[]);
 *       places n queens on an n x n board so that none attacks another:
 *       TRUE when it can, with rows[c] the row (0 to n-1) of the queen in
 *       column c for every column c; FALSE when no placement exists (N = 2
 *       and 3). rows has n elements; what it holds after FALSE is not graded.
 *
 * Any solution is accepted. Some courses also want the first one found by
 * trying rows top to bottom (row 0 first) in each column from left to right:
 * the cases tagged "exact" check that.
 *
 * Write the recursion in helpers of your own; SolveQueens may be static.
 */

#ifndef LABGRADE_QUEENS_H
#define LABGRADE_QUEENS_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* labgrade's build defines LG_NO_STUDENT_PROTOTYPES when your sources define it static,
   where this prototype would be an error. */
#ifndef LG_NO_STUDENT_PROTOTYPES
bool SolveQueens(int n, int rows[]);
#endif

#ifdef __cplusplus
}
#endif

#endif /* LABGRADE_QUEENS_H */
