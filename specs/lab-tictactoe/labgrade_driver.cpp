/*
 * labgrade_driver.cpp: labgrade's way into a lab 18 tic-tac-toe submission.
 *
 * Everything the handout asks students to write is private. This file is compiled together
 * with the student's tic_tac_toe.cpp (never edited) into the library labgrade loads in its
 * sandbox, and reaches the private members by defining `private` as `public` in this
 * translation unit only. It exports a small C ABI that labgrade's worker calls. It is not
 * instrumented, so only the student's own functions are counted.
 */
#include <cstring>
#include <iostream>
#include <string>

#define private public
#define protected public
#include "tic_tac_toe.h"
#undef protected
#undef private

static tic_tac_toe *game(void *g) { return static_cast<tic_tac_toe *>(g); }

extern "C" {

/* mode < 0: the default constructor; otherwise tic_tac_toe(mode != 0). */
void *lg_ttt_new(int mode) {
    if (mode < 0) return new tic_tac_toe();
    return new tic_tac_toe(mode != 0);
}

void lg_ttt_delete(void *g) { delete game(g); }

/* Copies the board (9 chars) and reports the player to move and the AI mode.
 * Returns 0 when the constructor left no board. */
int lg_ttt_inspect(void *g, char *board, int *player, int *ai_mode) {
    tic_tac_toe *t = game(g);
    *player = t->m_current_player;
    *ai_mode = t->m_ai_mode ? 1 : 0;
    if (!t->m_board) return 0;
    std::memcpy(board, t->m_board, 9);
    return 1;
}

/* game_status on a copy of `board`. */
int lg_ttt_game_status(void *g, const char *board) {
    char copy[9];
    std::memcpy(copy, board, 9);
    return game(g)->game_status(copy);
}

/* minimax_algo on a state {copy of board, player}; `after` gets the board afterwards. */
int lg_ttt_minimax_algo(void *g, const char *board, int player, int depth, char *after) {
    char copy[9];
    std::memcpy(copy, board, 9);
    tic_tac_toe::game_state state;
    state.m_gs_board = copy;
    state.m_gs_player = player;
    int v = game(g)->minimax_algo(&state, depth);
    std::memcpy(after, copy, 9);
    return v;
}

/* The given minimax_move on `board` with the AI (player 2) to move; `after` gets the
 * object's board afterwards. Returns the 0-based square. */
int lg_ttt_minimax_move(void *g, const char *board, char *after) {
    tic_tac_toe *t = game(g);
    t->m_current_player = 1; /* PLAYER_2 */
    std::memcpy(t->m_board, board, 9);
    int m = t->minimax_move();
    std::memcpy(after, t->m_board, 9);
    return m;
}

}
