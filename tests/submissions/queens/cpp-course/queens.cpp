// A C++ course's version: no static, true and false, one loop in IsSafe instead of the
// three *IsClear helpers, a while loop in Solve. Same search, same order of rows.
#include <cstdlib>
#include "chessGraphics.h"

#define NUM_QUEENS 8

void PlaceQueen(bool board[][NUM_QUEENS], int row, int col) {
    board[row][col] = true;
    DrawLetterAtPosition('Q', row, col);
}

void RemoveQueen(bool board[][NUM_QUEENS], int row, int col) {
    board[row][col] = false;
    EraseLetterAtPosition('Q', row, col);
}

// No queen to the left in this row or on either diagonal through (row, col).
bool IsSafe(bool board[][NUM_QUEENS], int row, int col) {
    for (int c = 0; c < col; c++) {
        int d = col - c;
        if (board[row][c]) return false;
        if (row - d >= 0 && board[row - d][c]) return false;
        if (row + d < NUM_QUEENS && board[row + d][c]) return false;
    }
    return true;
}

bool Solve(bool board[][NUM_QUEENS], int col) {
    if (col == NUM_QUEENS) return true;
    int row = 0;
    while (row < NUM_QUEENS) {
        if (IsSafe(board, row, col)) {
            PlaceQueen(board, row, col);
            if (Solve(board, col + 1)) return true;
            RemoveQueen(board, row, col);
        }
        ++row;
    }
    return false;
}
