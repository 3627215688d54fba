// Exercise 8 in C++ with another order: rows tried bottom to top, a vector of used rows
// and diagonals. Every placement it finds is valid; it is not the handout's first one.
#include <vector>
#include "queens.h"

namespace {

struct Board {
    int n;
    std::vector<bool> rowUsed, up, down;
    explicit Board(int size)
        : n(size), rowUsed(size, false), up(2 * size, false), down(2 * size, false) {}
    bool free(int row, int col) const {
        return !rowUsed[row] && !up[row + col] && !down[row - col + n];
    }
    void mark(int row, int col, bool on) {
        rowUsed[row] = on;
        up[row + col] = on;
        down[row - col + n] = on;
    }
};

bool place(Board &b, int col, int rows[]) {
    if (col == b.n) return true;
    for (int row = b.n - 1; row >= 0; --row) {
        if (!b.free(row, col)) continue;
        b.mark(row, col, true);
        rows[col] = row;
        if (place(b, col + 1, rows)) return true;
        b.mark(row, col, false);
    }
    return false;
}

}  // namespace

bool SolveQueens(int n, int rows[]) {
    Board b(n);
    return place(b, 0, rows);
}
