#include <iostream>
#include <string>
#include "tic_tac_toe.h"

#define BOARD_SIZE 9
#define ONGOING -1
#define OVER_TIE 0
#define OVER_WIN 1
#define P1_SYMBOL 'X'
#define P2_SYMBOL 'O'
#define PLAYER_1 0
#define PLAYER_2 1
#define MAX_VAL 1
#define TIE_VAL 0
#define MIN_VAL -1
// SAMPLE max-depth-4: MAX_DEPTH changed to 4 (the handout says 5): the moves
// are the lab's, the calls and depth of each decision are not.
#define MAX_DEPTH 4

// ---------------------------------------------------------------------------
// TODO: implement the two constructors and the destructor.
// ---------------------------------------------------------------------------

tic_tac_toe::tic_tac_toe() {
    m_board = new char[BOARD_SIZE];
    for (int i = 0; i < BOARD_SIZE; i++) {
        m_board[i] = '1' + i;
    }
    m_current_player = PLAYER_1;
    m_ai_mode = false;
}

tic_tac_toe::tic_tac_toe(bool ai_mode) {
    m_board = new char[BOARD_SIZE];
    for (int i = 0; i < BOARD_SIZE; i++) {
        m_board[i] = '1' + i;
    }
    m_current_player = PLAYER_1;
    m_ai_mode = ai_mode;
}

tic_tac_toe::~tic_tac_toe() {
    delete[] m_board;
}

// ---------------------------------------------------------------------------
// TODO: implement game_status.
// Returns ONGOING if the game is not over, OVER_WIN if someone has three in a
// row, OVER_TIE if the board is full and nobody won.
// ---------------------------------------------------------------------------

int tic_tac_toe::game_status(char* board) {
    // rows, columns, diagonals
    const int lines[8][3] = {
        {0, 1, 2}, {3, 4, 5}, {6, 7, 8},
        {0, 3, 6}, {1, 4, 7}, {2, 5, 8},
        {0, 4, 8}, {2, 4, 6}
    };
    for (int i = 0; i < 8; i++) {
        // empty squares hold their own (different) digits, so three equal
        // squares can only be three X's or three O's
        if (board[lines[i][0]] == board[lines[i][1]] &&
            board[lines[i][1]] == board[lines[i][2]]) {
            return OVER_WIN;
        }
    }
    for (int i = 0; i < BOARD_SIZE; i++) {
        if (board[i] != P1_SYMBOL && board[i] != P2_SYMBOL) {
            return ONGOING;
        }
    }
    return OVER_TIE;
}

// ---------------------------------------------------------------------------
// Given: do not modify.
// ---------------------------------------------------------------------------

std::string tic_tac_toe::draw_board(char* board) {
    std::string drawing = "\n";
    for (int row = 0; row < 3; row++) {
        drawing += "     |     |     \n";
        drawing += "  ";
        drawing += board[3 * row];
        drawing += "  |  ";
        drawing += board[3 * row + 1];
        drawing += "  |  ";
        drawing += board[3 * row + 2];
        drawing += "\n";
        if (row < 2) {
            drawing += "_____|_____|_____\n";
        } else {
            drawing += "     |     |     \n";
        }
    }
    drawing += "\n";
    return drawing;
}

// ---------------------------------------------------------------------------
// Given: do not modify.
// ---------------------------------------------------------------------------

bool tic_tac_toe::make_move(int location) {
    if (location < 0 || location >= BOARD_SIZE) {
        return false;
    }
    if (m_board[location] == P1_SYMBOL || m_board[location] == P2_SYMBOL) {
        return false;
    }
    m_board[location] = (m_current_player == PLAYER_1) ? P1_SYMBOL : P2_SYMBOL;
    return true;
}

// ---------------------------------------------------------------------------
// TODO: implement minimax_algo, the recursive backtracking minimax described
// in the handout. Player 1 is MAX, player 2 is MIN; use MAX_DEPTH.
// ---------------------------------------------------------------------------

int tic_tac_toe::minimax_algo(game_state* state, int depth) {
    char* board = state->m_gs_board;

    // the board is terminal: its value
    int status = game_status(board);
    if (status != ONGOING) {
        if (status == OVER_WIN) {
            // the player of the state made the last (winning) move
            if (state->m_gs_player == PLAYER_1) {
                return MAX_VAL;
            }
            return MIN_VAL;
        }
        return TIE_VAL;
    }

    // switch players for the game state: this player moves now
    if (state->m_gs_player == PLAYER_1) {
        state->m_gs_player = PLAYER_2;
    } else {
        state->m_gs_player = PLAYER_1;
    }

    // assume the best minimax value is a tie
    int best = TIE_VAL;

    if (depth < MAX_DEPTH) {
        for (int i = 0; i < BOARD_SIZE; i++) {
            if (board[i] != P1_SYMBOL && board[i] != P2_SYMBOL) {
                // make the move with the moving player's piece
                board[i] = (state->m_gs_player == PLAYER_1) ? P1_SYMBOL : P2_SYMBOL;

                // recur on the updated board
                game_state next;
                next.m_gs_board = board;
                next.m_gs_player = state->m_gs_player;
                int value = minimax_algo(&next, depth + 1);

                // undo the move
                board[i] = '1' + i;

                if (state->m_gs_player == PLAYER_1) {
                    // MAX
                    if (value > best) {
                        best = value;
                    }
                } else {
                    // MIN
                    if (value < best) {
                        best = value;
                    }
                }
            }
        }
    }

    return best;
}

// ---------------------------------------------------------------------------
// Given: do not modify.
// ---------------------------------------------------------------------------

int tic_tac_toe::minimax_move() {
    // start with the first empty square
    int move = 0;
    for (int i = 0; i < BOARD_SIZE; i++) {
        if (m_board[i] != P1_SYMBOL && m_board[i] != P2_SYMBOL) {
            move = i;
            break;
        }
    }

    int best = MAX_VAL;
    for (int i = 0; i < BOARD_SIZE; i++) {
        if (m_board[i] != P1_SYMBOL && m_board[i] != P2_SYMBOL) {
            m_board[i] = P2_SYMBOL;

            game_state state;
            state.m_gs_board = m_board;
            state.m_gs_player = m_current_player;
            int value = minimax_algo(&state, 0);
            if (value < best) {
                move = i;
            }

            m_board[i] = '1' + i;
        }
    }
    return move;
}

// ---------------------------------------------------------------------------
// Given: do not modify.
// ---------------------------------------------------------------------------

void tic_tac_toe::play() {
    char choice = 0;

    std::cout << std::endl << "WELCOME! Player 1 = " << P1_SYMBOL << ", "
              << (m_ai_mode ? "AI" : "Player 2") << " = " << P2_SYMBOL
              << std::endl << std::endl;

    while (true) {
        std::cout << draw_board(m_board);

        if (m_ai_mode && m_current_player == PLAYER_2) {
            int move = minimax_move();
            std::cout << "AI's move: " << move + 1 << std::endl;
            if (!make_move(move)) {
                std::cout << std::endl << "INVALID AI MOVE TO POSITION " << move + 1
                          << ", minimax_move() HAS A BUG." << std::endl;
                return;
            }
        } else {
            std::cout << "Player " << m_current_player + 1 << " make your move: ";
            std::cin.get(choice);
            std::cin.ignore();
            while (!make_move(choice - '1')) {
                std::cout << std::endl << "Invalid move! Try again: ";
                std::cin.get(choice);
                std::cin.ignore();
            }
        }

        if (game_status(m_board) != ONGOING) {
            break;
        }
        m_current_player = (m_current_player == PLAYER_1) ? PLAYER_2 : PLAYER_1;
    }

    std::cout << draw_board(m_board);
    if (game_status(m_board) == OVER_WIN) {
        std::cout << "Player " << m_current_player + 1 << " wins!" << std::endl;
    } else {
        std::cout << "It's a draw!" << std::endl;
    }
}
