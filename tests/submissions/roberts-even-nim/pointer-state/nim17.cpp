// Exercise 11 with the state on the heap: NewGame returns a stateT *, every function takes
// the pointer, the move list is returned as a std::vector, and there is no WhoseTurn (the
// turn is a flag in the state). The general part follows suit.
#include <iostream>
#include <vector>
using namespace std;

const int WINNING_POSITION = 1000;
const int LOSING_POSITION = -WINNING_POSITION;
const int MAX_DEPTH = 10000;

typedef int moveT;
struct stateT {
    int coins;
    int pile[2];     // pile[0]: the human's, pile[1]: the computer's
    bool computerToMove;
};

stateT *NewGame() {
    stateT *s = new stateT;
    s->coins = 17;
    s->pile[0] = s->pile[1] = 0;
    s->computerToMove = false;
    return s;
}

vector<moveT> GenerateMoveList(stateT *s) {
    vector<moveT> moves;
    for (int k = 1; k <= 4 && k <= s->coins; k++) moves.push_back(k);
    return moves;
}

void MakeMove(stateT *s, moveT m) {
    s->coins -= m;
    s->pile[s->computerToMove] += m;
    s->computerToMove = !s->computerToMove;
}

void RetractMove(stateT *s, moveT m) {
    s->computerToMove = !s->computerToMove;
    s->pile[s->computerToMove] -= m;
    s->coins += m;
}

bool GameIsOver(stateT *s) { return s->coins == 0; }

int EvaluateStaticPosition(stateT *s) {
    return s->pile[s->computerToMove] % 2 == 0 ? WINNING_POSITION : LOSING_POSITION;
}

int EvaluatePosition(stateT *s, int depth);

moveT FindBestMove(stateT *s, int depth, int &rating) {
    vector<moveT> moves = GenerateMoveList(s);
    moveT best = moves[0];
    int minRating = WINNING_POSITION + 1;
    for (size_t i = 0; i < moves.size() && minRating != LOSING_POSITION; i++) {
        MakeMove(s, moves[i]);
        int cur = EvaluatePosition(s, depth + 1);
        if (cur < minRating) {
            best = moves[i];
            minRating = cur;
        }
        RetractMove(s, moves[i]);
    }
    rating = -minRating;
    return best;
}

int EvaluatePosition(stateT *s, int depth) {
    if (GameIsOver(s) || depth >= MAX_DEPTH) return EvaluateStaticPosition(s);
    int rating;
    FindBestMove(s, depth, rating);
    return rating;
}

int main() {
    stateT *s = NewGame();
    while (!GameIsOver(s)) {
        cout << s->coins << " coins left." << endl;
        moveT m;
        if (s->computerToMove) {
            int rating;
            m = FindBestMove(s, 0, rating);
            cout << "I take " << m << "." << endl;
        } else {
            if (!(cin >> m)) return 1;
            if (m < 1 || m > 4 || m > s->coins) continue;
        }
        MakeMove(s, m);
    }
    cout << (s->pile[0] % 2 == 0 ? "You win." : "I win.") << endl;
    delete s;
    return 0;
}
