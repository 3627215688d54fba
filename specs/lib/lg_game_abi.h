/*
 * File: lg_game_abi.h
 * -------------------
 * The only thing labgrade's game driver (lg_game_driver.cpp, its own translation unit)
 * and the adapter compiled after your game (lg_game_adapter.h) share: a handful of
 * functions over opaque handles. The adapter calls your functions; the driver calls the
 * adapter, never your code, never a header of yours. You never include this file.
 *
 * The functions are C++ in a namespace labgrade names anew for each build, with hidden
 * visibility: nothing outside the library can call or replace them, and your code cannot
 * name them.
 */

#ifndef LG_GAME_ABI_H
#define LG_GAME_ABI_H

#ifndef LG_DRIVER_NS
#define LG_DRIVER_NS lg_game_side
#endif

#define LG_HIDDEN __attribute__((visibility("hidden")))

namespace LG_DRIVER_NS {
namespace abi {

/* A state of the game (a stateT held by the adapter), and a list of moves. */
struct Game;
struct List;

/* NewGame(), in whichever form the game has it. */
LG_HIDDEN Game *new_game();
/* A copy of the state, as passing stateT by value makes one. */
LG_HIDDEN Game *copy(Game *g);
LG_HIDDEN void drop(Game *g);

LG_HIDDEN bool over(Game *g);
LG_HIDDEN long long rate(Game *g);
/* WhoseTurn, or NO_TURN where the game has none. */
LG_HIDDEN long long turn(Game *g);

/* GenerateMoveList's moves where the state stands. */
LG_HIDDEN List *moves(Game *g);
LG_HIDDEN long count(List *l);
/* Move k as integers: how many (at most 4), or -1 when a moveT cannot be read so. */
LG_HIDDEN int raw(List *l, long k, long long out[4]);
/* sizeof(moveT), said when a move cannot be read. */
LG_HIDDEN long move_size();
LG_HIDDEN void drop(List *l);

LG_HIDDEN void make(Game *g, List *l, long k);
LG_HIDDEN void retract(Game *g, List *l, long k);

/* Where the state's bytes are and how many (what stateT points to, when it is a pointer);
 * a size of -1 when they are not plain data (compare what the functions answer instead). */
LG_HIDDEN const unsigned char *bytes(Game *g);
LG_HIDDEN long plain_size();

/* The program's own FindBestMove(state, 0, rating) from a copy of the state: 1 with the
 * rating and the chosen move as integers (its field count in *fields), or -1 when the
 * program has no FindBestMove of the book's forms. */
LG_HIDDEN int own_search(Game *g, List *l, int *rating, long long out[4], int *fields);

const long long NO_TURN = -1099511627776LL;

} /* namespace abi */
} /* namespace LG_DRIVER_NS */

#endif /* LG_GAME_ABI_H */
