/*
 * File: queens.c
 * -----
 * This program implements a graphical search for a solution to the N
 * N queens problem, utilizing a recursive backtracking approach. See
 * comments for Solve function for more details on the algorithm.
 *
 * (The queens handout's code as printed; only `main()` is `int main(void)` with a
 * return, since gcc warns about the implicit int of the original.)
 */

#include "chessGraphics.h"          // routines to draw chessboard & queens

#define NUM_QUEENS 8

static bool Solve(bool board[][NUM_QUEENS], int col);
static void PlaceQueen(bool board[][NUM_QUEENS], int row, int col);
static void RemoveQueen(bool board[][NUM_QUEENS], int row, int col);
static bool LeftIsClear(bool board[][NUM_QUEENS], int row, int col);
static bool UpperDiagIsClear(bool board[][NUM_QUEENS], int row, int col);
static bool LowerDiagIsClear(bool board[][NUM_QUEENS], int row, int col);
static bool IsSafe(bool board[][NUM_QUEENS], int row, int col);
static void ClearBoard(bool board[][NUM_QUEENS]);

int main(void)
{
    bool board[NUM_QUEENS][NUM_QUEENS];

    InitGraphics();
    ClearBoard(board);                // Set all board positions to false
    DrawChessboard(NUM_QUEENS);      // Draw empty chessboard of right size
    Solve(board,0);                  // Attempts to solve the puzzle
    return 0;
}

/*
 * Function: Solve
 * -----
 * This function is the main entry in solving the N queens problem. It takes
 * the partially filled board and the column we are trying to place queen in.
 * It will return a boolean value which indicates whether or not we found a
 * successful arrangement starting from this configuration.
 *
 * Base case:  if there are no more queens to place, we have succeeded!
 *
 * Otherwise, we find a safe row in this column, place a queen at (row,col)
 * recursively call Solve starting at the next column using this new board
 * configuration. If that Solve call fails, we remove that queen from (row,col)
 * and try again with the next safe row within the column.  If we have tried all
 * rows in this column and haven't found a solution, we return FALSE from this
 * invocation, which will force backtracking from this unsolvable configuration.
 *
 * The starting call to Solve has an empty board and is placing a queen in col 0:
 *     Solve(board, 0);
 */
static bool Solve(bool board[][NUM_QUEENS], int col)
{
    int rowToTry;

    if (col >= NUM_QUEENS) return TRUE;                // base case

    for (rowToTry = 1; rowToTry < NUM_QUEENS; rowToTry++) {
        if (IsSafe(board,rowToTry,col)) {
            PlaceQueen(board, rowToTry, col);          // try queen
            if (Solve(board, col + 1)) return TRUE;    // recursively try rest
            RemoveQueen(board, rowToTry, col);          // failed, try again
        }
    }
    return FALSE;                // no safe place for queen given this configuration
}

/*
 * Function: PlaceQueen
 * -----
 * Places a queen in (row,col) of the board by setting value in
 * array to TRUE and drawing a 'Q' in that square on the displayed chessboard.
 */
static void PlaceQueen(bool board[][NUM_QUEENS], int row, int col)
{
    board[row][col] = TRUE;
    DrawLetterAtPosition('Q', row, col); // Function lifted from Boggle
}

/*
 * Function: Remove Queen
 * -----
 * Removes a queen from (row,col) of the board by setting value in array to
 * FALSE and erasing the 'Q' from that square on the displayed chessboard.
 */
static void RemoveQueen(bool board[][NUM_QUEENS], int row, int col)
{
    board[row][col] = FALSE;
    EraseLetterAtPosition('Q', row, col);
}

/*
 * Function: IsSafe
 * -----
 * Given a partially filled board and (row,col), returns boolean value
 * which indicates whether that position is safe (i.e. not threatened by
 * another queen already on the board.)
 */
static bool IsSafe(bool board[][NUM_QUEENS], int row, int col)
{
    return (LeftIsClear(board, row, col) &&
            UpperDiagIsClear(board, row, col) &&
            LowerDiagIsClear(board, row, col));
}

/*
 * Function: LeftIsClear
 * -----
 * Given a partially filled board and (row,col), checks that there
 * is no queen in this row in any column to the left.
 */
static bool LeftIsClear(bool board[][NUM_QUEENS], int row, int col)
{
    int colToCheck;

    for (colToCheck = 0; colToCheck < col; colToCheck++)
        if (board[row][colToCheck]) return FALSE;
    return TRUE;
}

/*
 * Function: UpperDiagIsClear
 * -----
 * Given a partially filled board and (row,col), checks that there
 * is no queen along the northwest diagonal that crosses (row,col).
 */
static bool UpperDiagIsClear(bool board[][NUM_QUEENS], int row, int col)
{
    int x, y;

    for (x = col, y = row; x >= 0 && y < NUM_QUEENS; x--, y++)
        if (board[y][x]) return FALSE;
    return TRUE;
}

/*
 * Function: LowerDiagIsClear
 * -----
 * Given a partially filled board and (row,col), checks that there
 * is no queen along the southwest diagonal that crosses (row,col).
 */
static bool LowerDiagIsClear(bool board[][NUM_QUEENS], int row, int col)
{
    int x, y;

    for (x = col, y = row; x >= 0 && y >= 0; x--, y--)
        if (board[y][x]) return FALSE;
    return TRUE;
}

/*
 * Function: ClearBoard
 * -----
 * Simply initializes the board to be empty, i.e. no queens is on any square.
 */
static void ClearBoard(bool board[][NUM_QUEENS])
{
    int row, col;

    for (row = 0; row < NUM_QUEENS; row++)
        for (col = 0; col < NUM_QUEENS; col++)
            board[row][col] = FALSE;
}
