/* Written differently (helpers to find the square and test a digit): the same search. */
#include "sudoku.h"

static bool FindEmpty(int grid[9][9], int *row, int *col) {
    for (*row = 0; *row < 9; (*row)++)
        for (*col = 0; *col < 9; (*col)++)
            if (grid[*row][*col] == 0) return true;
    return false;
}

static bool UsedInRow(int grid[9][9], int row, int d) {
    for (int c = 0; c < 9; c++) if (grid[row][c] == d) return true;
    return false;
}

static bool UsedInCol(int grid[9][9], int col, int d) {
    for (int r = 0; r < 9; r++) if (grid[r][col] == d) return true;
    return false;
}

static bool UsedInBox(int grid[9][9], int top, int left, int d) {
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            if (grid[top + r][left + c] == d) return true;
    return false;
}

bool SolveSudoku(int grid[9][9]) {
    int row, col;
    if (!FindEmpty(grid, &row, &col)) return true;
    for (int d = 1; d <= 9; d++) {
        if (!UsedInRow(grid, row, d) && !UsedInCol(grid, col, d) &&
            !UsedInBox(grid, row - row % 3, col - col % 3, d)) {
            grid[row][col] = d;
            if (SolveSudoku(grid)) return true;
            grid[row][col] = 0;
        }
    }
    return false;
}
