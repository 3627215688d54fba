/* Looks for the first empty square column by column: the same (only) solution, found
   by another search. */
#include "sudoku.h"

static bool Fits(int grid[9][9], int row, int col, int digit) {
    for (int i = 0; i < 9; i++) {
        if (grid[row][i] == digit || grid[i][col] == digit) return false;
    }
    int top = row / 3 * 3, left = col / 3 * 3;
    for (int r = top; r < top + 3; r++) {
        for (int c = left; c < left + 3; c++) {
            if (grid[r][c] == digit) return false;
        }
    }
    return true;
}

bool SolveSudoku(int grid[9][9]) {
    for (int col = 0; col < 9; col++) {
        for (int row = 0; row < 9; row++) {
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
