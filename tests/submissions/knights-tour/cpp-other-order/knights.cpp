// A C++ course's version: the path kept in a vector (as findPath keeps its List), the
// moves tried in another order (one right and two down first, counter-clockwise), and the
// board written from the path once the search succeeds.
#include <cstdlib>
#include <vector>
#include "knights.h"

namespace {

struct Square {
    int x, y;
};

const Square kMoves[] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};

bool IsKnightMove(Square a, Square b) {
    int dx = std::abs(a.x - b.x), dy = std::abs(a.y - b.y);
    return (dx == 1 && dy == 2) || (dx == 2 && dy == 1);
}

class Tour {
  public:
    Tour(int n, bool closed) : n_(n), closed_(closed), seen_(n * n, false) {}

    bool Find(Square start) {
        path_.push_back(start);
        seen_[start.y * n_ + start.x] = true;
        if (Extend()) return true;
        path_.clear();
        return false;
    }

    const std::vector<Square> &path() const { return path_; }

  private:
    bool Extend() {
        Square here = path_.back();
        if (static_cast<int>(path_.size()) == n_ * n_) {
            return !closed_ || IsKnightMove(here, path_.front());
        }
        for (const Square &m : kMoves) {
            Square next = {here.x + m.x, here.y + m.y};
            if (next.x < 0 || next.y < 0 || next.x >= n_ || next.y >= n_) continue;
            if (seen_[next.y * n_ + next.x]) continue;
            seen_[next.y * n_ + next.x] = true;
            path_.push_back(next);
            if (Extend()) return true;
            path_.pop_back();
            seen_[next.y * n_ + next.x] = false;
        }
        return false;
    }

    int n_;
    bool closed_;
    std::vector<bool> seen_;
    std::vector<Square> path_;
};

bool Solve(int n, int board[], pointT start, bool closed) {
    Tour tour(n, closed);
    if (!tour.Find(Square{start.x, start.y})) return false;
    int move = 1;
    for (const Square &s : tour.path()) board[s.y * n + s.x] = move++;
    return true;
}

}  // namespace

bool FindTour(int n, int board[], pointT start) { return Solve(n, board, start, false); }

bool FindClosedTour(int n, int board[], pointT start) { return Solve(n, board, start, true); }
