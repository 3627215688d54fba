/*
 * File: sudoku.h
 * --------------
 * YOU WRITE:
 *
 *   bool SolveSudoku(int grid[9][9]);
 *       Fills every empty square (0) of grid so that each row, column and 3 x 3 box
 *       holds 1 to 9 once, and returns true; or returns false and leaves grid as it
 *       was. Recursively, as in lecture: find the first empty square (row by row, left
 *       to right); try the digits 1 to 9 in order; for each that fits, put it there and
 *       call SolveSudoku; if that fails, empty the square again and try the next digit.
 *       A grid with no empty square is solved.
 *
 * labgrade counts the calls of SolveSudoku and how deep it recurses: keep its name, and
 * recurse through it (helpers that check a digit are fine).
 */

#ifndef SUDOKU_H
#define SUDOKU_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef LG_NO_STUDENT_PROTOTYPES
bool SolveSudoku(int grid[9][9]);
#endif

#ifdef __cplusplus
}
#endif

#endif /* SUDOKU_H */
