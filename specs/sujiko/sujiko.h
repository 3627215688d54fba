/*
 * File: sujiko.h
 * --------------
 * The interface labgrade grades in a Sujiko submission (the backtracking lab's
 * worked example).
 *
 * YOU WRITE:
 *
 *   bool SolveSujiko(int board[3][3], const int sums[4]);
 *
 * board[row][col] holds 1 to 9, or 0 for an open cell. sums are the four
 * circles, each the sum of the four cells around it: sums[0] top-left
 * (rows 0-1, cols 0-1), sums[1] top-right (rows 0-1, cols 1-2), sums[2]
 * bottom-left (rows 1-2, cols 0-1), sums[3] bottom-right (rows 1-2, cols 1-2).
 *
 * The handout's algorithm, which labgrade follows exactly:
 *   0. If the board is complete and every circle's sum holds, return true.
 *   1. Record the missing values (1 to 9 not on the board, smallest first).
 *   2. Place the first missing value into the first open cell (row by row),
 *      and call SolveSujiko on the new board; if it returns true, so do you.
 *      Otherwise replace the number with the next missing value.
 *   3. If every missing value failed there, open the cell again (0) and
 *      return false.
 * On success the board holds the solution; on failure it is as it was.
 *
 * labgrade counts the calls of SolveSujiko and how deep it goes, so keep its
 * name; it may be static. Helpers are yours.
 */

#ifndef LABGRADE_SUJIKO_H
#define LABGRADE_SUJIKO_H

#ifndef __cplusplus
#include <stdbool.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

#ifndef LG_NO_STUDENT_PROTOTYPES
bool SolveSujiko(int board[3][3], const int sums[4]);
#endif

#ifdef __cplusplus
}
#endif

#endif /* LABGRADE_SUJIKO_H */
