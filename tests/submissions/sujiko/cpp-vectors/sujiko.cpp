// A C++ course's sujiko on the standard library's containers: the board a
// std::vector<std::vector<int>> by reference, the circle sums a const std::vector<int> &.
// The search is the lab's.
#include <vector>
#include "sujiko.h"

typedef std::vector<std::vector<int> > Board;

static bool won(const Board &board, const std::vector<int> &sums) {
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            if (board[r][c] == 0) return false;
    for (int circle = 0; circle < 4; circle++) {
        int r = circle / 2, c = circle % 2;
        int total = board[r][c] + board[r][c + 1] + board[r + 1][c] + board[r + 1][c + 1];
        if (total != sums[circle]) return false;
    }
    return true;
}

bool SolveSujiko(Board &board, const std::vector<int> &sums) {
    if (won(board, sums)) return true;
    std::vector<int> missing;
    for (int v = 1; v <= 9; v++) {
        bool used = false;
        for (int i = 0; i < 9; i++) used = used || board[i / 3][i % 3] == v;
        if (!used) missing.push_back(v);
    }
    for (int i = 0; i < 9; i++) {
        int &cell = board[i / 3][i % 3];
        if (cell != 0) continue;
        for (int v : missing) {
            cell = v;
            if (SolveSujiko(board, sums)) return true;
        }
        cell = 0;
        return false;
    }
    return false;
}
