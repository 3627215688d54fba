// Exercise 10 in a course's own style: its own names and constants, a struct move, the
// computer first, a std::vector move list in descending order, MakeMove through a pointer.
#include <iostream>
#include <vector>
using namespace std;

static const int WIN = 1, LOSE = -1;
static const int MAX_DEPTH = 100;
static const int START = 13, MOST = 3;

enum playerT { Computer, Human };
struct moveT { int nTaken; };
struct stateT { int pile; playerT turn; };

static moveT FindBestMove(stateT state, int depth, int &rating);
static int EvaluatePosition(stateT state, int depth);

static stateT NewGame() {
    stateT s = {START, Computer};
    return s;
}
static playerT Opponent(playerT p) { return p == Human ? Computer : Human; }
static playerT WhoseTurn(stateT s) { return s.turn; }
static bool GameIsOver(stateT s) { return s.pile == 0; }
static void GenerateMoveList(stateT s, vector<moveT> &list) {
    for (int k = MOST; k >= 1; k--)
        if (k <= s.pile) { moveT m = {k}; list.push_back(m); }
}
static void MakeMove(stateT *s, moveT m) { s->pile -= m.nTaken; s->turn = Opponent(s->turn); }
static void RetractMove(stateT *s, moveT m) { s->pile += m.nTaken; s->turn = Opponent(s->turn); }
static int EvaluateStaticPosition(stateT s) { return s.pile == 0 ? WIN : 0; }

static moveT FindBestMove(stateT state, int depth, int &rating) {
    vector<moveT> moves;
    GenerateMoveList(state, moves);
    moveT best = moves[0];
    int minRating = WIN + 1;
    for (size_t i = 0; i < moves.size() && minRating != LOSE; i++) {
        MakeMove(&state, moves[i]);
        int cur = EvaluatePosition(state, depth + 1);
        if (cur < minRating) { best = moves[i]; minRating = cur; }
        RetractMove(&state, moves[i]);
    }
    rating = -minRating;
    return best;
}

static int EvaluatePosition(stateT state, int depth) {
    if (GameIsOver(state) || depth >= MAX_DEPTH) return EvaluateStaticPosition(state);
    int rating;
    FindBestMove(state, depth, rating);
    return rating;
}

int main() {
    stateT state = NewGame();
    while (!GameIsOver(state)) {
        cout << state.pile << " coins." << endl;
        moveT m;
        if (WhoseTurn(state) == Computer) {
            int r;
            m = FindBestMove(state, 0, r);
            cout << "I take " << m.nTaken << endl;
        } else {
            cout << "Take? ";
            if (!(cin >> m.nTaken)) return 1;
            if (m.nTaken < 1 || m.nTaken > MOST || m.nTaken > state.pile) continue;
        }
        MakeMove(&state, m);
    }
    cout << (WhoseTurn(state) == Computer ? "I win." : "You win.") << endl;
    return 0;
}
