/* labgrade sample: class-with-header (main.cpp) */
#include "nimgame.h"

int main() {
    nimGame game;
    game.play();
    return 0;
}
