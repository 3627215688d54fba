/*
 * File: lg_game_adapter.h
 * -----------------------
 * The part of labgrade's game side (Roberts' Figure 7-6, exercises 10 to 12) that must see
 * your stateT and moveT: labgrade compiles it after your sources, in one translation unit,
 * and it does nothing but call your functions. It makes no judgement and talks to nobody:
 * labgrade's driver (lg_game_driver.cpp) is compiled on its own, shares no macro, overload
 * or header of yours, and reaches your game only through the functions of lg_game_abi.h
 * defined here; what your functions answer is judged by labgrade outside your process.
 * You never include this file.
 *
 * What it does with your code, and nothing else:
 *   - it reaches positions only through your NewGame(), the moves your
 *     GenerateMoveList lists, and your MakeMove: every position labgrade looks
 *     at is one your own game leads to;
 *   - it reads each listed move as integers (an integer or enum moveT; a struct
 *     of up to four ints; a std::pair);
 *   - it asks GameIsOver, EvaluateStaticPosition and WhoseTurn, makes and retracts
 *     moves, and runs your program's own FindBestMove(state, 0, rating).
 *
 * The book's editions are both understood, and the usual course variants:
 * GenerateMoveList filling a Vector<moveT> &, a std::vector<moveT> &, or an
 * array (returning the count), or returning the list; every function taking
 * the state, a reference to it, or its address, or a stateT that is itself a
 * pointer; NewGame() returning the state or a pointer to it, or filling one;
 * FindBestMove with int & rating or int *pRating. A game without WhoseTurn is
 * graded without the turn check.
 */

#ifndef LG_GAME_ADAPTER_H
#define LG_GAME_ADAPTER_H

#include <cstdlib>
#include <type_traits>
#include <utility>
#include <vector>

#include "lg_game_abi.h"
#include "vector.h"

namespace LG_DRIVER_NS {

typedef ::stateT State;
typedef ::moveT Move;

/* Overloads are tried from the highest rank down. */
template <int N> struct rank : rank<N - 1> {};
template <> struct rank<0> {};

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
using abi::NO_TURN;
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

/* ---- Comparing a state before and after MakeMove/RetractMove. */
template <class S> struct Bytes {
    static const bool plain = std::is_trivially_copyable<S>::value && !std::is_pointer<S>::value;
    static const unsigned char *of(const S &s) { return (const unsigned char *)&s; }
    typedef S Pointee;
};
template <class T> struct Bytes<T *> {
    static const bool plain = std::is_trivially_copyable<T>::value;
    static const unsigned char *of(T *const &s) { return (const unsigned char *)s; }
    typedef T Pointee;
};

/* Your own FindBestMove (the general part as your program keeps it), when it has one of
 * the book's two forms: int & rating (C++ edition) or int *pRating (C edition). Not when
 * your game only declares it and leaves it to your course's file (LG_NO_OWN_SEARCH). */
#ifndef LG_NO_OWN_SEARCH
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
#endif
template <class S> bool own_search(S &, Move &, int &, rank<0>) { return false; }


/* ---- The functions of lg_game_abi.h, over your types. */
namespace abi {

struct Game {
    State s;
};
struct List {
    std::vector<Move> moves;
};

Game *new_game() {
    Game *g = new Game();
    LG_DRIVER_NS::new_game(g->s);
    return g;
}
Game *copy(Game *g) { return new Game(*g); }
void drop(Game *g) { delete g; }
bool over(Game *g) { return LG_DRIVER_NS::over(g->s); }
long long rate(Game *g) { return LG_DRIVER_NS::rate(g->s); }
long long turn(Game *g) { return LG_DRIVER_NS::turn(g->s); }
List *moves(Game *g) {
    List *l = new List();
    LG_DRIVER_NS::moves(g->s, l->moves);
    return l;
}
long count(List *l) { return (long)l->moves.size(); }
int raw(List *l, long k, long long out[4]) {
    for (int i = 0; i < 4; i++) out[i] = 0;
    if (k < 0 || k >= (long)l->moves.size()) return -1;
    return LG_DRIVER_NS::raw(l->moves[(size_t)k], out);
}
long move_size() { return (long)sizeof(Move); }
void drop(List *l) { delete l; }
void make(Game *g, List *l, long k) { LG_DRIVER_NS::make(g->s, l->moves[(size_t)k]); }
void retract(Game *g, List *l, long k) { LG_DRIVER_NS::retract(g->s, l->moves[(size_t)k]); }
const unsigned char *bytes(Game *g) { return Bytes<State>::of(g->s); }
long plain_size() { return Bytes<State>::plain ? (long)sizeof(Bytes<State>::Pointee) : -1; }
int own_search(Game *g, List *l, int *rating, long long out[4], int *fields) {
    for (int i = 0; i < 4; i++) out[i] = 0;
    if (l->moves.empty()) return -1;
    Move best = l->moves[0];
    State copy = g->s;
    *rating = 0;
    if (!LG_DRIVER_NS::own_search(copy, best, *rating, rank<4>())) return -1;
    *fields = LG_DRIVER_NS::raw(best, out);
    return 1;
}

} /* namespace abi */
} /* namespace LG_DRIVER_NS */

#endif /* LG_GAME_ADAPTER_H */
