/* Exercise 8 in C: the queens handout's search on an n x n board, rows tried top to
 * bottom, the board kept as rows[] (rows[c] = the row of column c's queen). */
#include "queens.h"

static bool IsSafe(int rows[], int row, int col)
{
    int c;

    for (c = 0; c < col; c++) {
        if (rows[c] == row) return false;                 /* same row */
        if (rows[c] - row == col - c) return false;       /* one diagonal */
        if (row - rows[c] == col - c) return false;       /* the other */
    }
    return true;
}

static bool PlaceQueens(int rows[], int col, int n)
{
    int row;

    if (col >= n) return true;
    for (row = 0; row < n; row++) {
        if (IsSafe(rows, row, col)) {
            rows[col] = row;
            if (PlaceQueens(rows, col + 1, n)) return true;
            rows[col] = -1;
        }
    }
    return false;
}

static bool SolveQueens(int n, int rows[])
{
    return PlaceQueens(rows, 0, n);
}
