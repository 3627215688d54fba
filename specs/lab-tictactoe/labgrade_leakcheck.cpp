/*
 * labgrade_leakcheck.cpp: the program labgrade builds with AddressSanitizer and
 * LeakSanitizer to check the constructors and the destructor. It creates and destroys games
 * the ways a program does (on the stack, on the heap, both constructors); a destructor that
 * does not free the board leaks, one that frees it twice is a double free.
 */
#include "tic_tac_toe.h"

int main() {
    {
        tic_tac_toe human;
    }
    {
        tic_tac_toe ai(true);
    }
    tic_tac_toe *heap = new tic_tac_toe(false);
    delete heap;
    return 0;
}
