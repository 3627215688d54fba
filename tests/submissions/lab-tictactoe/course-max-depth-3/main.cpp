#include "tic_tac_toe.h"

int main(int argc, char* argv[]) {
    // One command line argument (any) turns the AI on; none plays human vs human.
    tic_tac_toe game(argc == 2);
    game.play();
    return 0;
}
