/*
 * File: lg_game_driver.h
 * ----------------------
 * labgrade's side of Roberts' game side (Figure 7-6, exercises 10 to 12). You never
 * include this file: labgrade compiles it into the same translation unit as your
 * game, after your sources, so that it can use your stateT and moveT as they are.
 *
 * What it does with your code, and nothing else:
 *   - it reaches positions only through your NewGame(), the moves your
 *     GenerateMoveList lists, and your MakeMove: every position labgrade looks
 *     at is one your own game leads to;
 *   - it reads each listed move as integers (an integer or enum moveT; a struct
 *     of up to four ints; a std::pair), which labgrade matches with the game's
 *     moves once, at the start;
 *   - it asks GameIsOver, EvaluateStaticPosition (on finished games) and
 *     WhoseTurn where it stands;
 *   - for a MakeMove/RetractMove check, it compares the state before and after
 *     (its bytes when stateT is plain data, or what your functions answer);
 *   - for the computer's choice, it runs the book's general part
 *     (FindBestMove/EvaluatePosition of Figure 7-6, unchanged) over your game,
 *     and, separately, your program's own FindBestMove(state, 0, rating).
 *
 * The book's editions are both understood, and the usual course variants:
 * GenerateMoveList filling a Vector<moveT> &, a std::vector<moveT> &, or an
 * array (returning the count), or returning the list; every function taking
 * the state, a reference to it, or its address, or a stateT that is itself a
 * pointer; NewGame() returning the state or a pointer to it, or filling one;
 * FindBestMove with int & rating or int *pRating. A game without WhoseTurn is
 * graded without the turn check.
 */

#ifndef LG_GAME_DRIVER_H
#define LG_GAME_DRIVER_H

#include <climits>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#include <dlfcn.h>

#include "lg_world.h"
#include "vector.h"

/* The driver's namespace: labgrade names it anew for each build (a name your code cannot
 * know, so it cannot add to it), defined after your code. */
#ifndef LG_DRIVER_NS
#define LG_DRIVER_NS lg_game_side
#endif

namespace LG_DRIVER_NS {

typedef ::stateT State;
typedef ::moveT Move;

enum {
    OP_BEGIN, OP_FACTS, OP_LIST, OP_MOVE, OP_STEP, OP_RESTORED, OP_BEST, OP_CHOSEN, OP_LIMIT,
    OP_RULES, OP_NO_MOVES
};

/* Overloads are tried from the highest rank down. */
template <int N> struct rank : rank<N - 1> {};
template <> struct rank<0> {};

/* The channel to labgrade, taken from lg_world when a walk starts (before any function of
 * yours runs in it) and kept here. A table whose code lies in the same library as this
 * driver (your code's) is not labgrade's: no report reaches labgrade through it. */
inline const struct lg_world *&channel() {
    static const struct lg_world *kept = 0;
    return kept;
}
inline bool same_module(const void *a, const void *b) {
    Dl_info x, y;
    if (!dladdr(a, &x) || !dladdr(b, &y)) return true; /* code nowhere known: not labgrade's */
    return x.dli_fbase == y.dli_fbase;
}
inline void take_channel() {
    const struct lg_world *w = lg_world;
    channel() = (w && !same_module((const void *)w->call, (const void *)&take_channel)) ? w : 0;
}
inline long long tell(int op, long long a = 0, long long b = 0, long long c = 0, long long d = 0) {
    const struct lg_world *w = channel();
    return w ? w->call(w->self, op, a, b, c, d) : -1;
}

/* Comparisons of the driver's own, never a library function your code could overload. */
inline bool same_bytes(const unsigned char *a, const unsigned char *b, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i]) return false;
    return true;
}
inline bool same_words(const std::vector<long long> &a, const std::vector<long long> &b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); i++)
        if (a[i] != b[i]) return false;
    return true;
}

/* ---- NewGame */
template <class S> auto new_game(S &s, rank<3>) -> decltype(s = NewGame(), void()) { s = NewGame(); }
/* (dep<S>::id makes the test depend on S, so that a NewGame returning a state rather than a
 * pointer drops this overload instead of failing the compile.) */
template <class S> struct dep {
    template <class T> static T id(T t) { return t; }
};
template <class S> auto new_game(S &s, rank<2>) -> decltype(s = *dep<S>::id(NewGame()), void()) {
    s = *dep<S>::id(NewGame());
}
template <class S> auto new_game(S &s, rank<1>) -> decltype(NewGame(s), void()) { NewGame(s); }
template <class S> auto new_game(S &s, rank<0>) -> decltype(NewGame(&s), void()) { NewGame(&s); }

/* ---- GenerateMoveList: for the state A (the state itself, or its address), filling a
 * std::vector or a Vector, filling an array and returning the count, or returning the list. */
template <class A> auto generate_with(A &&a, std::vector<Move> &out, rank<3>)
    -> decltype(GenerateMoveList(a, out), void()) {
    GenerateMoveList(a, out);
}
template <class A> auto generate_with(A &&a, std::vector<Move> &out, rank<2>)
    -> decltype(GenerateMoveList(a, std::declval<Vector<Move> &>()), void()) {
    Vector<Move> list;
    GenerateMoveList(a, list);
    for (int i = 0; i < list.size(); i++) out.push_back(list[i]);
}
template <class A> auto generate_with(A &&a, std::vector<Move> &out, rank<1>)
    -> decltype((long)GenerateMoveList(a, (Move *)0), void()) {
    std::vector<Move> array(1024);
    long n = (long)GenerateMoveList(a, &array[0]);
    if (n < 0) n = 0;
    if (n > 1024) n = 1024;
    out.assign(array.begin(), array.begin() + n);
}
template <class A> auto generate_with(A &&a, std::vector<Move> &out, rank<0>)
    -> decltype(GenerateMoveList(a).size(), void()) {
    auto list = GenerateMoveList(a);
    for (int i = 0; i < (int)list.size(); i++) out.push_back(list[i]);
}
template <class S> auto generate(S &s, std::vector<Move> &out, rank<1>)
    -> decltype(generate_with(s, out, rank<3>())) {
    generate_with(s, out, rank<3>());
}
template <class S> auto generate(S &s, std::vector<Move> &out, rank<0>)
    -> decltype(generate_with(&s, out, rank<3>())) {
    generate_with(&s, out, rank<3>());
}

/* ---- MakeMove, RetractMove, GameIsOver, EvaluateStaticPosition, WhoseTurn */
template <class S> auto make(S &s, Move &m, rank<1>) -> decltype(MakeMove(s, m), void()) { MakeMove(s, m); }
template <class S> auto make(S &s, Move &m, rank<0>) -> decltype(MakeMove(&s, m), void()) { MakeMove(&s, m); }
template <class S> auto retract(S &s, Move &m, rank<1>) -> decltype(RetractMove(s, m), void()) { RetractMove(s, m); }
template <class S> auto retract(S &s, Move &m, rank<0>) -> decltype(RetractMove(&s, m), void()) { RetractMove(&s, m); }
template <class S> auto over(S &s, rank<1>) -> decltype((bool)GameIsOver(s)) { return GameIsOver(s); }
template <class S> auto over(S &s, rank<0>) -> decltype((bool)GameIsOver(&s)) { return GameIsOver(&s); }
template <class S> auto rate(S &s, rank<1>) -> decltype((long long)EvaluateStaticPosition(s)) { return EvaluateStaticPosition(s); }
template <class S> auto rate(S &s, rank<0>) -> decltype((long long)EvaluateStaticPosition(&s)) { return EvaluateStaticPosition(&s); }
template <class S> auto turn(S &s, rank<2>) -> decltype((long long)WhoseTurn(s)) { return (long long)WhoseTurn(s); }
template <class S> auto turn(S &s, rank<1>) -> decltype((long long)WhoseTurn(&s)) { return (long long)WhoseTurn(&s); }
/* No WhoseTurn at all: labgrade does not check whose turn it is. */
const long long NO_TURN = -1099511627776LL;
template <class S> long long turn(S &, rank<0>) { return NO_TURN; }

inline void new_game(State &s) { new_game(s, rank<3>()); }
inline void moves(State &s, std::vector<Move> &out) { out.clear(); generate(s, out, rank<1>()); }
inline void make(State &s, Move m) { make(s, m, rank<1>()); }
inline void retract(State &s, Move m) { retract(s, m, rank<1>()); }
inline bool over(State &s) { return over(s, rank<1>()); }
inline long long rate(State &s) { return rate(s, rank<1>()); }
inline long long turn(State &s) { return turn(s, rank<2>()); }

/* ---- A move as integers: how many (-1: it cannot be read so). */
template <class M> int raw_plain(const M &m, long long *out, std::true_type) {
    const int n = (int)(sizeof(M) / sizeof(int));
    if (sizeof(M) % sizeof(int) != 0 || n > 4) return -1;
    int ints[4] = {0, 0, 0, 0};
    __builtin_memcpy(ints, (const void *)&m, sizeof(M));
    for (int i = 0; i < n; i++) out[i] = ints[i];
    return n;
}
template <class M> int raw_plain(const M &, long long *, std::false_type) { return -1; }
template <class M>
typename std::enable_if<std::is_arithmetic<M>::value || std::is_enum<M>::value, int>::type
raw(const M &m, long long *out) {
    out[0] = (long long)m;
    return 1;
}
template <class A, class B> int raw(const std::pair<A, B> &m, long long *out) {
    out[0] = (long long)m.first;
    out[1] = (long long)m.second;
    return 2;
}
template <class M>
typename std::enable_if<!std::is_arithmetic<M>::value && !std::is_enum<M>::value, int>::type
raw(const M &m, long long *out) {
    return raw_plain(m, out, std::integral_constant<bool, std::is_trivially_copyable<M>::value>());
}

/* Tells labgrade where the driver stands: the facts, then the list when the game goes on. */
inline void report(State &s, std::vector<Move> &list) {
    bool done = over(s);
    tell(OP_FACTS, done, done ? rate(s) : 0, turn(s));
    list.clear();
    if (done) return;
    moves(s, list);
    long long r[4] = {0, 0, 0, 0};
    int fields = list.empty() ? 0 : raw(list[0], r);
    if (fields < 0) {
        tell(OP_LIST, -1, (long long)sizeof(Move));
        return;
    }
    tell(OP_LIST, (long long)list.size(), fields);
    for (size_t i = 0; i < list.size(); i++) {
        long long v[4] = {0, 0, 0, 0};
        raw(list[i], v);
        tell(OP_MOVE, v[0], v[1], v[2], v[3]);
    }
}

/* ---- Comparing a state before and after MakeMove/RetractMove. */
template <class S> struct Bytes {
    static const bool plain = std::is_trivially_copyable<S>::value && !std::is_pointer<S>::value;
    static const unsigned char *of(const S &s) { return (const unsigned char *)&s; }
    static size_t size(const S &) { return sizeof(S); }
};
template <class T> struct Bytes<T *> {
    static const bool plain = std::is_trivially_copyable<T>::value;
    static const unsigned char *of(T *const &s) { return (const unsigned char *)s; }
    static size_t size(T *const &) { return sizeof(T); }
};

/* What the game's functions answer about a state: over, rating, turn, the list. */
inline std::vector<long long> observe(State &s) {
    std::vector<long long> seen;
    bool done = over(s);
    seen.push_back(done);
    seen.push_back(done ? rate(s) : 0);
    seen.push_back(turn(s));
    std::vector<Move> list;
    if (!done) moves(s, list);
    for (size_t i = 0; i < list.size(); i++) {
        long long v[4] = {0, 0, 0, 0};
        seen.push_back(raw(list[i], v));
        seen.insert(seen.end(), v, v + 4);
    }
    return seen;
}

/* ---- The book's general part (Figure 7-6), over your game. Ratings come from your
 * EvaluateStaticPosition; the loop stops at a move that leaves the opponent the
 * lowest rating seen (the book's LOSING_POSITION), which changes no choice. */
static long long extreme = 0;
static int max_depth = 10000;
/* Set where the search met a position that goes on with no move listed: Figure 7-6 calls
 * Error("No moves available") there, which ends the book's program. */
static bool no_moves = false;

inline int evaluate_position(State state, int depth);

inline bool find_best_move(State state, int depth, int &rating, Move &best) {
    std::vector<Move> list;
    moves(state, list);
    if (list.empty()) {
        no_moves = true;
        return false;
    }
    int min_rating = INT_MAX;
    bool have = false;
    for (size_t i = 0; i < list.size(); i++) {
        if (have && extreme > 0 && min_rating <= -extreme) break;
        Move move = list[i];
        make(state, move);
        int cur = evaluate_position(state, depth + 1);
        if (!have || cur < min_rating) {
            best = move;
            min_rating = cur;
            have = true;
        }
        retract(state, move);
    }
    rating = -min_rating;
    return true;
}

inline int evaluate_position(State state, int depth) {
    if (over(state) || depth >= max_depth) {
        long long v = rate(state);
        long long magnitude = v < 0 ? -v : v;
        if (magnitude > extreme) extreme = magnitude;
        return (int)v;
    }
    int rating = 0;
    Move best;
    if (!find_best_move(state, depth, rating, best)) return 0;
    return rating;
}

/* Visits every position labgrade asks for, from NewGame along the line it steers, and
 * runs `at` where it arrives. */
template <class At> int explore(At at) {
    take_channel();
    max_depth = (int)tell(OP_LIMIT);
    while (tell(OP_BEGIN) >= 0) {
        State s;
        new_game(s);
        std::vector<Move> list;
        for (;;) {
            report(s, list);
            long long k = tell(OP_STEP);
            if (k == -1) {
                at(s, list);
                break;
            }
            if (k < 0 || k >= (long long)list.size()) break;
            make(s, list[(size_t)k]);
        }
    }
    return 0;
}

struct Nothing {
    void operator()(State &, std::vector<Move> &) const {}
};

struct MakeRetract {
    void operator()(State &s, std::vector<Move> &list) const {
        for (size_t k = 0; k < list.size(); k++) {
            bool same;
            int how;
            if (Bytes<State>::plain) {
                size_t n = Bytes<State>::size(s);
                std::vector<unsigned char> before(Bytes<State>::of(s), Bytes<State>::of(s) + n);
                make(s, list[k]);
                retract(s, list[k]);
                same = same_bytes(&before[0], Bytes<State>::of(s), n);
                how = 0;
            } else {
                std::vector<long long> before = observe(s);
                make(s, list[k]);
                retract(s, list[k]);
                same = same_words(observe(s), before);
                how = 1;
            }
            tell(OP_RESTORED, (long long)k, same, how);
            if (!same) return; /* the state is no longer the position */
        }
    }
};

struct BestMove {
    void operator()(State &s, std::vector<Move> &list) const {
        if (list.empty()) return;
        int rating = 0;
        Move best = list[0];
        no_moves = false;
        bool found = find_best_move(s, 0, rating, best);
        if (no_moves) {
            tell(OP_NO_MOVES); /* the book's program has stopped: no choice to report */
            return;
        }
        tell(OP_BEST, found, rating);
        long long v[4] = {0, 0, 0, 0};
        raw(best, v);
        tell(OP_CHOSEN, v[0], v[1], v[2], v[3]);
    }
};

/* Your own FindBestMove (the general part as your program keeps it), when it has one of
 * the book's two forms: int & rating (C++ edition) or int *pRating (C edition). */
template <class S> auto own_search(S &s, Move &best, int &rating, rank<4>)
    -> decltype(best = FindBestMove(s, 0, rating), bool()) {
    best = FindBestMove(s, 0, rating);
    return true;
}
template <class S> auto own_search(S &s, Move &best, int &rating, rank<3>)
    -> decltype(best = FindBestMove(s, 0, &rating), bool()) {
    best = FindBestMove(s, 0, &rating);
    return true;
}
template <class S> auto own_search(S &s, Move &best, int &rating, rank<2>)
    -> decltype(best = FindBestMove(&s, 0, rating), bool()) {
    best = FindBestMove(&s, 0, rating);
    return true;
}
template <class S> auto own_search(S &s, Move &best, int &rating, rank<1>)
    -> decltype(best = FindBestMove(&s, 0, &rating), bool()) {
    best = FindBestMove(&s, 0, &rating);
    return true;
}
template <class S> bool own_search(S &, Move &, int &, rank<0>) { return false; }

struct OwnBestMove {
    void operator()(State &s, std::vector<Move> &list) const {
        if (list.empty()) return;
        int rating = 0;
        Move best = list[0];
        State copy = s;
        if (!own_search(copy, best, rating, rank<4>())) {
            tell(OP_BEST, -1, 0); /* no FindBestMove labgrade can call */
            return;
        }
        tell(OP_BEST, 1, rating);
        long long v[4] = {0, 0, 0, 0};
        raw(best, v);
        tell(OP_CHOSEN, v[0], v[1], v[2], v[3]);
    }
};

} /* namespace LG_DRIVER_NS */

extern "C" {
/* Every reachable position: its moves, and GameIsOver, EvaluateStaticPosition and WhoseTurn
 * there (the spec's lg_game_over cases are judged from this run too). */
int lg_moves(void) { return LG_DRIVER_NS::explore(LG_DRIVER_NS::Nothing()); }
/* MakeMove then RetractMove of every listed move, everywhere. */
int lg_make_retract(void) { return LG_DRIVER_NS::explore(LG_DRIVER_NS::MakeRetract()); }
/* The computer's choice (the book's FindBestMove over your game) everywhere. */
int lg_best_move(void) { return LG_DRIVER_NS::explore(LG_DRIVER_NS::BestMove()); }
/* The choice of your program's own FindBestMove everywhere. */
int lg_own_search(void) { return LG_DRIVER_NS::explore(LG_DRIVER_NS::OwnBestMove()); }
}

#endif /* LG_GAME_DRIVER_H */
