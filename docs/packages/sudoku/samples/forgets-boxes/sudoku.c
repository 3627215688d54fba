/* Checks rows and columns but never the 3 x 3 boxes: every grid it fills breaks a box,
   and on "no digit fits" it finds a "solution" where none exists. The checker says which
   box holds a digit twice. */
#include "sudoku.h"

static bool Fits(int grid[9][9], int row, int col, int digit) {
    for (int i = 0; i < 9; i++) {
        if (grid[row][i] == digit || grid[i][col] == digit) return false;
    }
    return true;
}

bool SolveSudoku(int grid[9][9]) {
    for (int row = 0; row < 9; row++) {
        for (int col = 0; col < 9; col++) {
            if (grid[row][col] != 0) continue;
            for (int digit = 1; digit <= 9; digit++) {
                if (Fits(grid, row, col, digit)) {
                    grid[row][col] = digit;
                    if (SolveSudoku(grid)) return true;
                    grid[row][col] = 0;
                }
            }
            return false;
        }
    }
    return true;
}
