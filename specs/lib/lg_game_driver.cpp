/*
 * File: lg_game_driver.cpp
 * ------------------------
 * labgrade's side of Roberts' game side (Figure 7-6, exercises 10 to 12), compiled on its
 * own: no header of yours, no macro of yours, hidden visibility. It reaches your game only
 * through the adapter compiled after your sources (lg_game_adapter.h, by the functions of
 * lg_game_abi.h) and tells labgrade what your functions answered; labgrade, outside your
 * process, judges it. It calls no library function but dladdr, allocates nothing, and
 * never reads the public lg_world pointer after a walk starts.
 *
 *   - it visits the positions labgrade steers it to, from your NewGame along the moves
 *     your GenerateMoveList lists, reporting GameIsOver, EvaluateStaticPosition, WhoseTurn
 *     and the list at each;
 *   - for MakeMove/RetractMove it reports a digest of the state before and after (its
 *     bytes when stateT is plain data, or what your functions answer): labgrade compares;
 *   - for the computer's choice it runs the book's general part (FindBestMove and
 *     EvaluatePosition of Figure 7-6, unchanged) over your game, and, separately, your
 *     program's own FindBestMove(state, 0, rating).
 */

#include <dlfcn.h>
#include <limits.h>

#include "lg_game_abi.h"
/* lg_world is the worker's to set: it keeps the visibility it has everywhere else (one
 * hidden definition would hide it from the worker). */
#pragma GCC visibility push(default)
#include "lg_world.h"
#pragma GCC visibility pop

namespace LG_DRIVER_NS {
namespace {

using abi::Game;
using abi::List;

enum {
    OP_BEGIN, OP_FACTS, OP_LIST, OP_MOVE, OP_STEP, OP_RESTORED, OP_BEST, OP_CHOSEN, OP_LIMIT,
    OP_RULES, OP_NO_MOVES
};

/* The channel to labgrade, taken from lg_world when a walk starts (before any function of
 * yours runs in it) and kept here, in this unit alone. A table whose code lies in the same
 * library as this driver (your code's) is not labgrade's: no report reaches labgrade
 * through it. */
const struct lg_world *kept = 0;

bool same_module(const void *a, const void *b) {
    Dl_info x, y;
    if (!dladdr(a, &x) || !dladdr(b, &y)) return true; /* code nowhere known: not labgrade's */
    return x.dli_fbase == y.dli_fbase;
}
void take_channel() {
    const struct lg_world *w = lg_world;
    kept = (w && !same_module((const void *)w->call, (const void *)&take_channel)) ? w : 0;
}
long long tell(int op, long long a = 0, long long b = 0, long long c = 0, long long d = 0) {
    return kept ? kept->call(kept->self, op, a, b, c, d) : -1;
}

/* A list and the state it belongs to, dropped together. */
struct Held {
    Game *game;
    List *list;
    explicit Held(Game *g) : game(g), list(0) {}
    ~Held() {
        if (list) abi::drop(list);
        abi::drop(game);
    }
    void relist() {
        if (list) abi::drop(list);
        list = abi::moves(game);
    }
};

/* Tells labgrade where the driver stands: the facts, then the list when the game goes on. */
void report(Held &h) {
    bool done = abi::over(h.game);
    tell(OP_FACTS, done, done ? abi::rate(h.game) : 0, abi::turn(h.game));
    if (h.list) abi::drop(h.list);
    h.list = 0;
    if (done) return;
    h.relist();
    long n = abi::count(h.list);
    long long r[4];
    int fields = n == 0 ? 0 : abi::raw(h.list, 0, r);
    if (fields < 0) {
        tell(OP_LIST, -1, abi::move_size());
        return;
    }
    tell(OP_LIST, n, fields);
    for (long k = 0; k < n; k++) {
        abi::raw(h.list, k, r);
        tell(OP_MOVE, r[0], r[1], r[2], r[3]);
    }
}

/* ---- A digest of a state (FNV-1a, 64 bits): labgrade compares two, the driver never. */
struct Digest {
    unsigned long long h;
    Digest() : h(1469598103934665603ULL) {}
    void byte(unsigned char b) { h = (h ^ b) * 1099511628211ULL; }
    void word(long long w) {
        for (int i = 0; i < 8; i++) byte((unsigned char)((unsigned long long)w >> (8 * i)));
    }
};

/* What the game's functions answer about a state: over, rating, turn, the list. */
long long observed(Game *g) {
    Digest d;
    bool done = abi::over(g);
    d.word(done);
    d.word(done ? abi::rate(g) : 0);
    d.word(abi::turn(g));
    if (!done) {
        List *l = abi::moves(g);
        long n = abi::count(l);
        d.word(n);
        for (long k = 0; k < n; k++) {
            long long v[4];
            d.word(abi::raw(l, k, v));
            for (int i = 0; i < 4; i++) d.word(v[i]);
        }
        abi::drop(l);
    }
    return (long long)d.h;
}

/* The state's bytes when stateT is plain data (how = 0), else what the functions answer
 * (how = 1). */
long long digest(Game *g, int how) {
    if (how == 1) return observed(g);
    Digest d;
    const unsigned char *b = abi::bytes(g);
    for (long i = 0; i < abi::plain_size(); i++) d.byte(b[i]);
    return (long long)d.h;
}

/* ---- The book's general part (Figure 7-6), over your game. Ratings come from your
 * EvaluateStaticPosition; the loop stops at a move that leaves the opponent the
 * lowest rating seen (the book's LOSING_POSITION), which changes no choice. stateT is
 * passed by value, as in the book: each call works on a copy. */
long long extreme = 0;
int max_depth = 10000;
/* Set where the search met a position that goes on with no move listed: Figure 7-6 calls
 * Error("No moves available") there, which ends the book's program. */
bool no_moves = false;

int evaluate_position(Game *state, int depth);

/* Chooses among the moves of `state` (a copy the search owns): the book's bestMove, as
 * integers in `chosen` where the caller wants it. */
bool find_best_move(Game *state, int depth, int &rating, long long *chosen) {
    Held h(state);
    h.relist();
    long n = abi::count(h.list);
    if (n == 0) {
        no_moves = true;
        return false;
    }
    int min_rating = INT_MAX;
    bool have = false;
    for (long i = 0; i < n; i++) {
        if (have && extreme > 0 && min_rating <= -extreme) break;
        abi::make(h.game, h.list, i);
        int cur = evaluate_position(abi::copy(h.game), depth + 1);
        if (!have || cur < min_rating) {
            if (chosen) abi::raw(h.list, i, chosen);
            min_rating = cur;
            have = true;
        }
        abi::retract(h.game, h.list, i);
    }
    rating = -min_rating;
    return true;
}

int evaluate_position(Game *state, int depth) {
    if (abi::over(state) || depth >= max_depth) {
        long long v = abi::rate(state);
        abi::drop(state);
        long long magnitude = v < 0 ? -v : v;
        if (magnitude > extreme) extreme = magnitude;
        return (int)v;
    }
    int rating = 0;
    if (!find_best_move(state, depth, rating, 0)) return 0;
    return rating;
}

/* What to do where a walk arrives. */
enum Check { NOTHING, MAKE_RETRACT, BEST_MOVE, OWN_SEARCH };

/* MakeMove then RetractMove of every listed move, the state's digest before and after each
 * pair told to labgrade. */
void make_retract(Held &h) {
    int how = abi::plain_size() >= 0 ? 0 : 1;
    long n = abi::count(h.list);
    for (long k = 0; k < n; k++) {
        long long before = digest(h.game, how);
        abi::make(h.game, h.list, k);
        abi::retract(h.game, h.list, k);
        long long after = digest(h.game, how);
        tell(OP_RESTORED, k, before, after, how);
        if (before != after) return; /* the state is no longer the position */
    }
}

void best_move(Held &h) {
    int rating = 0;
    long long v[4];
    abi::raw(h.list, 0, v); /* bestMove starts as the first move listed */
    no_moves = false;
    bool found = find_best_move(abi::copy(h.game), 0, rating, v);
    if (no_moves) {
        tell(OP_NO_MOVES); /* the book's program has stopped: no choice to report */
        return;
    }
    tell(OP_BEST, found, rating);
    tell(OP_CHOSEN, v[0], v[1], v[2], v[3]);
}

void own_best_move(Held &h) {
    int rating = 0, fields = 0;
    long long v[4];
    if (abi::own_search(h.game, h.list, &rating, v, &fields) < 0) {
        tell(OP_BEST, -1, 0); /* no FindBestMove labgrade can call */
        return;
    }
    tell(OP_BEST, 1, rating);
    tell(OP_CHOSEN, v[0], v[1], v[2], v[3]);
}

/* Visits every position labgrade asks for, from NewGame along the line it steers, and
 * runs the check where it arrives. */
int explore(Check check) {
    take_channel();
    max_depth = (int)tell(OP_LIMIT);
    while (tell(OP_BEGIN) >= 0) {
        Held h(abi::new_game());
        for (;;) {
            report(h);
            long long k = tell(OP_STEP);
            if (k == -1) {
                if (h.list && abi::count(h.list) > 0) {
                    if (check == MAKE_RETRACT) make_retract(h);
                    if (check == BEST_MOVE) best_move(h);
                    if (check == OWN_SEARCH) own_best_move(h);
                }
                break;
            }
            if (!h.list || k < 0 || k >= abi::count(h.list)) break;
            abi::make(h.game, h.list, (long)k);
        }
    }
    return 0;
}

} /* namespace */
} /* namespace LG_DRIVER_NS */

/* The four functions labgrade's worker calls; nothing else leaves this library. */
#define LG_EXPORTED extern "C" __attribute__((visibility("default")))
/* Every reachable position: its moves, and GameIsOver, EvaluateStaticPosition and WhoseTurn
 * there (the spec's lg_game_over cases are judged from this run too). */
LG_EXPORTED int lg_moves(void) { return LG_DRIVER_NS::explore(LG_DRIVER_NS::NOTHING); }
/* MakeMove then RetractMove of every listed move, everywhere. */
LG_EXPORTED int lg_make_retract(void) { return LG_DRIVER_NS::explore(LG_DRIVER_NS::MAKE_RETRACT); }
/* The computer's choice (the book's FindBestMove over your game) everywhere. */
LG_EXPORTED int lg_best_move(void) { return LG_DRIVER_NS::explore(LG_DRIVER_NS::BEST_MOVE); }
/* The choice of your program's own FindBestMove everywhere. */
LG_EXPORTED int lg_own_search(void) { return LG_DRIVER_NS::explore(LG_DRIVER_NS::OWN_SEARCH); }
