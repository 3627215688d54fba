/*
 * labgrade sample: class-no-default-constructor
 * ---------------------------------------------
 * The strategy as members of a class whose only constructor takes the size of
 * the pile. labgrade calls a member on an object made by the default
 * constructor, and this class has none: each graded function is
 * missing-symbol, and the message says what to add. The game is right.
 */
#include <iostream>
#include "simpio.h"
using namespace std;

class Nim {
public:
    explicit Nim(int coins) : pile(coins) {}
    int FindGoodMove(int n) {
        for (int take = 1; take <= 3; take++) {
            if (IsBadPosition(n - take)) return take;
        }
        return -1;
    }
    bool IsBadPosition(int n) {
        if (n == 1) return true;
        return FindGoodMove(n) == -1;
    }
    int ChooseComputerMove(int n) {
        int take = FindGoodMove(n);
        return take == -1 ? 1 : take;
    }
    void play() {
        bool human = true;
        cout << "Hello.  Welcome to the game of nim." << endl;
        cout << "In this game, we will start with a pile of" << endl;
        cout << pile << " coins on the table.  On each turn, you" << endl;
        cout << "and I will alternately take between 1 and" << endl;
        cout << 3 << " coins from the table.  The player who" << endl;
        cout << "takes the last coin loses." << endl << endl;
        while (pile > 1) {
            cout << "There are " << pile << " coins in the pile." << endl;
            int take;
            if (human) {
                for (;;) {
                    cout << "How many would you like? ";
                    take = GetInteger();
                    if (take >= 1 && take <= 3 && take <= pile) break;
                    cout << "That's cheating!  Please choose a number between 1 and "
                         << (pile < 3 ? pile : 3) << endl;
                    cout << "There are " << pile << " coins in the pile." << endl;
                }
            } else {
                take = ChooseComputerMove(pile);
                cout << "I'll take " << take << "." << endl;
            }
            human = !human;
            pile -= take;
        }
        if (pile == 0) {
            cout << "You took the last coin.  You lose." << endl;
        } else {
            cout << "There is only one coin left." << endl;
            cout << (human ? "I win." : "I lose.") << endl;
        }
    }
private:
    int pile;
};

int main() {
    Nim game(13);
    game.play();
    return 0;
}
