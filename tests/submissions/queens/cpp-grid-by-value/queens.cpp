// The Stanford-libraries queens with the board taken by value everywhere: each call works on
// a copy, so no queen placed is ever seen by the caller (nor by the next column's IsSafe).
#include "chessGraphics.h"
#include "grid.h"

#define NUM_QUEENS 8

void PlaceQueen(Grid<bool> board, int row, int col) {
    board[row][col] = true;
    DrawLetterAtPosition('Q', row, col);
}

void RemoveQueen(Grid<bool> board, int row, int col) {
    board[row][col] = false;
    EraseLetterAtPosition('Q', row, col);
}

bool IsSafe(Grid<bool> board, int row, int col) {
    for (int c = 0; c < col; c++) {
        int d = col - c;
        if (board[row][c]) return false;
        if (row - d >= 0 && board[row - d][c]) return false;
        if (row + d < NUM_QUEENS && board[row + d][c]) return false;
    }
    return true;
}

bool Solve(Grid<bool> board, int col) {
    if (col == NUM_QUEENS) return true;
    for (int row = 0; row < NUM_QUEENS; row++) {
        if (IsSafe(board, row, col)) {
            PlaceQueen(board, row, col);
            if (Solve(board, col + 1)) return true;
            RemoveQueen(board, row, col);
        }
    }
    return false;
}
