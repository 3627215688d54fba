/*
 * File: chessGraphics.h
 * ---------------------
 * The queens handout's chessboard routines, as labgrade provides them: nothing is drawn on
 * a screen; every call is recorded instead (with its letter, row and column), and a case
 * may compare the record with the handout's, so PlaceQueen must draw its 'Q' and
 * RemoveQueen erase it, in the order the search places and removes queens.
 *
 * YOU WRITE, as the handout does (static is fine; TRUE and FALSE come from genlib.h,
 * included here):
 *
 *   #define NUM_QUEENS 8          the course's value if it changes it
 *   bool Solve(bool board[][NUM_QUEENS], int col);
 *       places queens in columns col.. of board, trying rows top to bottom (row 0
 *       first); TRUE with the first solution left on the board, FALSE with the board
 *       as it was.
 *   bool IsSafe(bool board[][NUM_QUEENS], int row, int col);
 *   void PlaceQueen(bool board[][NUM_QUEENS], int row, int col);
 *       board[row][col] = TRUE; DrawLetterAtPosition('Q', row, col);
 *   void RemoveQueen(bool board[][NUM_QUEENS], int row, int col);
 *       board[row][col] = FALSE; EraseLetterAtPosition('Q', row, col);
 *
 * labgrade calls Solve (usually Solve(board, 0) on an empty board) and counts the calls
 * of Solve, IsSafe, PlaceQueen and RemoveQueen, so keep their names. Helpers such as
 * LeftIsClear are yours to write as you like. Do not define the functions below.
 */

#ifndef LABGRADE_CHESSGRAPHICS_H
#define LABGRADE_CHESSGRAPHICS_H

#include "genlib.h"
#include "lg_world.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Operation codes: their order in specs/queens.toml's [kit.world] ops. */

/* Opens the graphics window. */
LG_WRAPPER void InitGraphics(void) {
    lg_world_call(0, 0, 0, 0, 0);
}

/* Draws an empty size x size chessboard. */
LG_WRAPPER void DrawChessboard(int size) {
    lg_world_call(1, size, 0, 0, 0);
}

/* Draws letter in square (row, col). */
LG_WRAPPER void DrawLetterAtPosition(char letter, int row, int col) {
    lg_world_call(2, letter, row, col, 0);
}

/* Erases letter from square (row, col). */
LG_WRAPPER void EraseLetterAtPosition(char letter, int row, int col) {
    lg_world_call(3, letter, row, col, 0);
}

#ifdef __cplusplus
}
#endif

#endif /* LABGRADE_CHESSGRAPHICS_H */
