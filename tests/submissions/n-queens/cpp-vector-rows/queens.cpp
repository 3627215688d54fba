// Exercise 8 with the answer in a std::vector<int> the function fills by push_back, where
// the assignment's SolveQueens fills labgrade's int rows[n]. The search is the handout's.
#include <vector>
#include "queens.h"

static bool Safe(const std::vector<int> &rows, int row) {
    int col = static_cast<int>(rows.size());
    for (int c = 0; c < col; c++) {
        int d = col - c;
        if (rows[c] == row || rows[c] == row - d || rows[c] == row + d) return false;
    }
    return true;
}

static bool Place(int n, std::vector<int> &rows) {
    if (static_cast<int>(rows.size()) == n) return true;
    for (int row = 0; row < n; row++) {
        if (!Safe(rows, row)) continue;
        rows.push_back(row);
        if (Place(n, rows)) return true;
        rows.pop_back();
    }
    return false;
}

bool SolveQueens(int n, std::vector<int> &rows) {
    rows.clear();
    return Place(n, rows);
}
