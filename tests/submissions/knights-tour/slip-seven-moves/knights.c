/* Backtracking in the header's move order: mark the square with its move number, try each
   move, undo the mark when it leads nowhere. The closed tour is Hilfinger's findPath: at
   the last square, succeed only if it is a knight's move from the start. */
#include <stdlib.h>
#include "knights.h"

static const int kMoves[8][2] = {{-2, -1}, {-1, -2}, {1, -2}, {2, -1},
                                 {2, 1},   {1, 2},   {-1, 2}, {-2, 1}};

static bool IsKnightMove(int x1, int y1, int x2, int y2) {
    int dx = abs(x1 - x2), dy = abs(y1 - y2);
    return (dx == 1 && dy == 2) || (dx == 2 && dy == 1);
}

static bool ExtendTour(int n, int board[], int x, int y, int move, bool closed, pointT start) {
    if (move == n * n) {
        return !closed || IsKnightMove(x, y, start.x, start.y);
    }
    for (int i = 0; i < 7; i++) {
        int nx = x + kMoves[i][0], ny = y + kMoves[i][1];
        if (nx < 0 || ny < 0 || nx >= n || ny >= n || board[ny * n + nx] != 0) continue;
        board[ny * n + nx] = move + 1;
        if (ExtendTour(n, board, nx, ny, move + 1, closed, start)) return true;
        board[ny * n + nx] = 0; /* backtrack out of the move */
    }
    return false;
}

static bool Search(int n, int board[], pointT start, bool closed) {
    board[start.y * n + start.x] = 1;
    if (ExtendTour(n, board, start.x, start.y, 1, closed, start)) return true;
    board[start.y * n + start.x] = 0;
    return false;
}

bool FindTour(int n, int board[], pointT start) {
    return Search(n, board, start, false);
}

bool FindClosedTour(int n, int board[], pointT start) {
    return Search(n, board, start, true);
}
