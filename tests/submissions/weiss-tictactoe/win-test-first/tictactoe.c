/* Figures 10.66 and 10.67 with each position's two tests the other way round: a win
   first, then a full board (a full board has no win, so the answers are the same). */
#include "tictactoe.h"

void find_human_move(board_type board, int *best_move, int *value);

void find_comp_move(board_type board, int *best_move, int *value)
{
    int dc, i, response; /* dc means don't care */

    if (immediate_comp_win(board, best_move))
        *value = COMP_WIN;
    else if (full_board(board))
        *value = DRAW;
    else {
        *value = COMP_LOSS;
        for (i = 1; i <= 9; i++) { /* try each square */
            if (is_empty(board, i)) {
                place(board, i, COMP);
                find_human_move(board, &dc, &response);
                unplace(board, i); /* Restore board */
                if (response > *value) { /* Update best move */
                    *value = response;
                    *best_move = i;
                }
            }
        }
    }
}

void find_human_move(board_type board, int *best_move, int *value)
{
    int dc, i, response; /* dc means don't care */

    if (immediate_human_win(board, best_move))
        *value = COMP_LOSS;
    else if (full_board(board))
        *value = DRAW;
    else {
        *value = COMP_WIN;
        for (i = 1; i <= 9; i++) { /* try each square */
            if (is_empty(board, i)) {
                place(board, i, HUMAN);
                find_comp_move(board, &dc, &response);
                unplace(board, i); /* Restore board */
                if (response < *value) { /* Update best move */
                    *value = response;
                    *best_move = i;
                }
            }
        }
    }
}
