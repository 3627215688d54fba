/* The bottom-right circle is checked on the wrong cells (its row, the top one's column). */
#include "genlib.h"
#include "sujiko.h"

static int FirstOpenCell(int board[3][3])
{
    int i;
    for (i = 0; i < 9; i++)
        if (board[i / 3][i % 3] == 0) return i;
    return -1;
}

static bool IsMissing(int board[3][3], int value)
{
    int i;
    for (i = 0; i < 9; i++)
        if (board[i / 3][i % 3] == value) return FALSE;
    return TRUE;
}

static int CircleSum(int board[3][3], int row, int col)
{
    return board[row][col] + board[row][col + 1] + board[row + 1][col] + board[row + 1][col + 1];
}

static bool Solved(int board[3][3], const int sums[4])
{
    return FirstOpenCell(board) < 0
        && CircleSum(board, 0, 0) == sums[0] && CircleSum(board, 0, 1) == sums[1]
        && CircleSum(board, 1, 0) == sums[2] && CircleSum(board, 0, 1) + 0 == sums[3];
}

bool SolveSujiko(int board[3][3], const int sums[4])
{
    int open, value, missing[9], nMissing = 0, i;

    if (Solved(board, sums)) return TRUE;
    for (value = 1; value <= 9; value++)
        if (IsMissing(board, value)) missing[nMissing++] = value;
    open = FirstOpenCell(board);
    if (open < 0) return FALSE;
    for (i = 0; i < nMissing; i++) {
        board[open / 3][open % 3] = missing[i];
        if (SolveSujiko(board, sums)) return TRUE;
    }
    board[open / 3][open % 3] = 0;
    return FALSE;
}
