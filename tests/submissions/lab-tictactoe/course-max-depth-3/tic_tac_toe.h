#ifndef TIC_TAC_TOE_H
#define TIC_TAC_TOE_H

#include <string>

class tic_tac_toe {
public:
    // Creates a two human player game (AI mode off).
    tic_tac_toe();

    // Creates a game; when ai_mode is true, player 2 is played by the AI.
    tic_tac_toe(bool ai_mode);

    // Frees the board.
    ~tic_tac_toe();

    // Runs the game in the console until someone wins or the board is full.
    void play();

private:
    // A board together with the player who made the last move on it.
    struct game_state {
        char* m_gs_board;
        int m_gs_player;
    };

    int m_current_player;
    char* m_board;
    bool m_ai_mode;

    // -1 (ONGOING), 0 (OVER_TIE) or 1 (OVER_WIN).
    int game_status(char* board);

    // The board as text, ready to print.
    std::string draw_board(char* board);

    // Puts the current player's symbol on square location (0-based).
    // Returns false when the square is out of range or already taken.
    bool make_move(int location);

    // The minimax value of state, searched to MAX_DEPTH.
    int minimax_algo(game_state* state, int depth);

    // The AI's square (0-based).
    int minimax_move();
};

#endif
