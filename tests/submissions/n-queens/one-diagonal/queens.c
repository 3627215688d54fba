/* Exercise 8 with one diagonal forgotten: IsSafe checks the row and the diagonal on which
 * row + col is constant, not the one on which row - col is. */
#include <stdbool.h>

static bool IsSafe(int rows[], int row, int col)
{
    int c;

    for (c = 0; c < col; c++) {
        if (rows[c] == row) return false;
        if (rows[c] - row == col - c) return false;       /* only this diagonal */
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
        }
    }
    return false;
}

bool SolveQueens(int n, int rows[])
{
    return PlaceQueens(rows, 0, n);
}
