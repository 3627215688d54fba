/* labgrade sample: two-mains (play.c): the game of Figure 7-5, its main. */

#include <stdio.h>
#include "genlib.h"
#include "simpio.h"
#include "nim.h"

#define N_COINS 13
#define MAX_MOVE 3

int main(void) {
    int nCoins = N_COINS, nTaken;
    bool human = true;
    printf("Hello.  Welcome to the game of nim.\n");
    while (nCoins > 1) {
        printf("There are %d coins in the pile.\n", nCoins);
        if (human) {
            printf("How many would you like? ");
            nTaken = GetInteger();
            if (nTaken < 1 || nTaken > MAX_MOVE || nTaken > nCoins) {
                printf("That's cheating!\n");
                continue;
            }
        } else {
            nTaken = ChooseComputerMove(nCoins);
            printf("I'll take %d.\n", nTaken);
        }
        human = !human;
        nCoins -= nTaken;
    }
    if (nCoins == 0) {
        printf("You took the last coin.  You lose.\n");
    } else {
        printf("There is only one coin left.\n");
        printf(human ? "I win.\n" : "I lose.\n");
    }
    return 0;
}
