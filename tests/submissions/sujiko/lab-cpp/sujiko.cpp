// The lab's algorithm in C++: a vector of missing values, a helper for the win condition.
#include <vector>
#include "sujiko.h"

static bool won(int board[3][3], const int sums[4]) {
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

bool SolveSujiko(int board[3][3], const int sums[4]) {
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
