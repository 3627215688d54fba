// Exercise 12, a course's style: the rows in a Vector<int> (so stateT is not plain data),
// a move stored coins first with rows counted from 1, the computer first, static functions,
// and its own constants.
#include "genlib.h"
#include "simpio.h"
#include "vector.h"
#include <iostream>

static const int WIN = 10, LOSE = -10, DEPTH_LIMIT = 50;

enum playerT { Human, Computer };
struct moveT { int howMany; int pile; };
struct stateT { Vector<int> piles; playerT turn; };

static playerT Other(playerT p) { return p == Human ? Computer : Human; }

static stateT NewGame() {
    stateT s;
    s.piles.add(3);
    s.piles.add(4);
    s.piles.add(5);
    s.turn = Computer;
    return s;
}
static playerT WhoseTurn(stateT s) { return s.turn; }
static bool GameIsOver(stateT s) {
    int total = 0;
    for (int i = 0; i < s.piles.size(); i++) total += s.piles[i];
    return total == 0;
}
static void GenerateMoveList(stateT s, Vector<moveT> &list) {
    for (int p = s.piles.size(); p >= 1; p--)
        for (int k = s.piles[p - 1]; k >= 1; k--) {
            moveT m = {k, p};
            list.add(m);
        }
}
static void MakeMove(stateT &s, moveT m) { s.piles[m.pile - 1] -= m.howMany; s.turn = Other(s.turn); }
static void RetractMove(stateT &s, moveT m) { s.piles[m.pile - 1] += m.howMany; s.turn = Other(s.turn); }
static int EvaluateStaticPosition(stateT s) { return GameIsOver(s) ? WIN : 0; }

static moveT FindBestMove(stateT state, int depth, int &rating);
static int EvaluatePosition(stateT state, int depth) {
    if (GameIsOver(state) || depth >= DEPTH_LIMIT) return EvaluateStaticPosition(state);
    int rating;
    FindBestMove(state, depth, rating);
    return rating;
}
static moveT FindBestMove(stateT state, int depth, int &rating) {
    Vector<moveT> list;
    GenerateMoveList(state, list);
    moveT best = list[0];
    int minRating = WIN + 1;
    for (int i = 0; i < list.size() && minRating != LOSE; i++) {
        MakeMove(state, list[i]);
        int cur = EvaluatePosition(state, depth + 1);
        if (cur < minRating) { best = list[i]; minRating = cur; }
        RetractMove(state, list[i]);
    }
    rating = -minRating;
    return best;
}

int main() {
    stateT s = NewGame();
    while (!GameIsOver(s)) {
        for (int i = 0; i < s.piles.size(); i++) cout << "pile " << i + 1 << ": " << s.piles[i] << endl;
        moveT m;
        if (WhoseTurn(s) == Computer) {
            int r;
            m = FindBestMove(s, 0, r);
            cout << "computer takes " << m.howMany << " from pile " << m.pile << endl;
        } else {
            m.pile = GetInteger();
            m.howMany = GetInteger();
        }
        MakeMove(s, m);
    }
    cout << (WhoseTurn(s) == Computer ? "computer wins" : "you win") << endl;
    return 0;
}
