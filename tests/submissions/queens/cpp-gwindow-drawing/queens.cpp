// labgrade sample: cpp-gwindow-drawing. A later Stanford-libraries course's queens: a
// Grid<bool> board, drawn in a GWindow (gwindow.h) as the search places and removes each
// queen, with a pause between steps. The search is the handout's.
#include "gwindow.h"
#include "grid.h"

#define NUM_QUEENS 8

const double SQUARE = 40;

GWindow &window() {
    static GWindow gw(NUM_QUEENS * SQUARE, NUM_QUEENS * SQUARE);
    return gw;
}

void drawSquare(int row, int col, bool queen) {
    window().setColor(queen ? "RED" : ((row + col) % 2 ? "GRAY" : "WHITE"));
    window().fillOval(col * SQUARE + 5, row * SQUARE + 5, SQUARE - 10, SQUARE - 10);
    pause(50);
}

void PlaceQueen(Grid<bool> &board, int row, int col) {
    board[row][col] = true;
    drawSquare(row, col, true);
}

void RemoveQueen(Grid<bool> &board, int row, int col) {
    board[row][col] = false;
    drawSquare(row, col, false);
}

bool IsSafe(Grid<bool> &board, int row, int col) {
    for (int c = 0; c < col; c++) {
        int d = col - c;
        if (board[row][c]) return false;
        if (row - d >= 0 && board[row - d][c]) return false;
        if (row + d < NUM_QUEENS && board[row + d][c]) return false;
    }
    return true;
}

bool Solve(Grid<bool> &board, int col) {
    if (col == NUM_QUEENS) return true;
    for (int row = 0; row < NUM_QUEENS; row++) {
        if (IsSafe(board, row, col)) {
            PlaceQueen(board, row, col);
            if (Solve(board, col + 1)) return true;
            RemoveQueen(board, row, col);
        }
    }
    return false;
}

int main() {
    Grid<bool> board(NUM_QUEENS, NUM_QUEENS);
    window().setWindowTitle("Eight queens");
    return Solve(board, 0) ? 0 : 1;
}
