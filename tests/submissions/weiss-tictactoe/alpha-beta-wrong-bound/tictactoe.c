/* The human's half starts from the wrong bound: *value = alpha, so its loop, which runs
   while *value > alpha, never tries a square. */
#include "tictactoe.h"

void find_human_move(board_type board, int *best_move, int *value, int alpha, int beta);

void find_comp_move(board_type board, int *best_move, int *value, int alpha, int beta)
{
    int dc, i, response; /* dc means don't care */

    if (full_board(board))
        *value = DRAW;
    else if (immediate_comp_win(board, best_move))
        *value = COMP_WIN;
    else {
        *value = alpha;
        for (i = 1; (i <= 9) && (*value < beta); i++) { /* try each square */
            if (is_empty(board, i)) {
                place(board, i, COMP);
                find_human_move(board, &dc, &response, *value, beta);
                unplace(board, i); /* Restore board */
                if (response > *value) { /* Update best move */
                    *value = response;
                    *best_move = i;
                }
            }
        }
    }
}

void find_human_move(board_type board, int *best_move, int *value, int alpha, int beta)
{
    int dc, i, response; /* dc means don't care */

    if (full_board(board))
        *value = DRAW;
    else if (immediate_human_win(board, best_move))
        *value = COMP_LOSS;
    else {
        *value = alpha;
        for (i = 1; (i <= 9) && (*value > alpha); i++) { /* try each square */
            if (is_empty(board, i)) {
                place(board, i, HUMAN);
                find_comp_move(board, &dc, &response, alpha, *value);
                unplace(board, i); /* Restore board */
                if (response < *value) { /* Update best move */
                    *value = response;
                    *best_move = i;
                }
            }
        }
    }
}
