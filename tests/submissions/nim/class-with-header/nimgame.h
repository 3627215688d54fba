/*
 * labgrade sample: class-with-header (nimgame.h)
 * A course's object-oriented nim: the game is class nimGame, declared here with
 * its strategy as members; nimgame.cpp defines them, main.cpp plays.
 */
#ifndef NIMGAME_H
#define NIMGAME_H

class nimGame {
public:
    nimGame();
    void play();
    int findGoodMove(int coins);
    int chooseComputerMove(int coins);
private:
    bool isBadPosition(int coins);
    int askUser();
    int pile;
    bool humanToMove;
};

#endif
