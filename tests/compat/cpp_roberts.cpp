/*
 * compat-stds: c++98 c++11 c++14 c++17
 *
 * Roberts' C++ edition ("Programming Abstractions in C++"): genlib.h
 * (using namespace std, Error, TRUE/FALSE), simpio.h (GetInteger, GetReal,
 * GetLine), strlib.h (Roberts' names), random.h, graphics.h, extgraph.h,
 * vector.h and grid.h with Roberts' method names. Ends with Roberts'
 * Error without a hook: "Error: ..." on standard error, exit status 1.
 */

#include "genlib.h"
#include "simpio.h"
#include "strlib.h"
#include "random.h"
#include "graphics.h"
#include "extgraph.h"
#include "vector.h"
#include "grid.h"
#include <iostream>

struct HookFired {
    string message;
};

static void Hook(const char *msg) {
    HookFired fired;
    fired.message = msg;
    throw fired;
}

const int MAX_MOVE = 3;
const int NO_GOOD_MOVE = -1;

bool IsBadPosition(int nCoins);

int FindGoodMove(int nCoins) {
    for (int nTaken = 1; nTaken <= MAX_MOVE; nTaken++) {
        if (IsBadPosition(nCoins - nTaken)) return nTaken;
    }
    return NO_GOOD_MOVE;
}

bool IsBadPosition(int nCoins) {
    if (nCoins == 1) return TRUE;
    return FindGoodMove(nCoins) == NO_GOOD_MOVE;
}

int main() {
    /* genlib, simpio */
    string line = GetLine();
    cout << "GetLine \"" << line << "\"" << endl;
    int n = GetInteger();
    cout << "GetInteger " << n << endl;
    double d = GetReal();
    cout << "GetReal " << d << endl;
    bool flag = FALSE;
    cout << "TRUE " << TRUE << ", flag " << flag << endl;

    /* strlib */
    cout << "IntegerToString " << IntegerToString(-12) << ", StringToInteger "
         << StringToInteger("+34") << ", RealToString " << RealToString(0.5)
         << ", StringToReal " << StringToReal("1e3") << endl;
    cout << ConvertToLowerCase("MiXeD") << " " << ConvertToUpperCase("MiXeD") << endl;

    /* Error through the hook, as under labgrade */
    lg_error_hook = Hook;
    try {
        Error("bad map: " + IntegerToString(2) + " starts");
    } catch (HookFired &fired) {
        cout << "hook got \"" << fired.message << "\"" << endl;
    }
    try {
        StringToInteger("twelve");
    } catch (HookFired &fired) {
        cout << "hook got \"" << fired.message << "\"" << endl;
    }
    lg_error_hook = 0;

    /* random */
    Randomize();
    int a = RandomInteger(1, 100);
    Randomize();
    int b = RandomInteger(1, 100);
    double r = RandomReal(5, 6);
    cout << "Randomize reproducible " << (a == b ? "yes" : "no") << ", RandomReal in range "
         << (r >= 5 && r < 6 ? "yes" : "no") << ", RandomChance(1) " << RandomChance(1.0)
         << endl;

    /* graphics, extgraph */
    InitGraphics();
    MovePen(GetWindowWidth() / 2, GetWindowHeight() / 2);
    DrawLine(1, -1);
    SetPenColor("Blue");
    SetFont("Courier");
    DrawTextString("hi");
    cout << "pen (" << GetCurrentX() << ", " << GetCurrentY() << "), " << GetPenColor() << ", "
         << GetFont() << ", width " << TextStringWidth(string("abcde")) << endl;

    /* Vector: Roberts' names */
    Vector<int> v;
    for (int i = 0; i < 5; i++) v.add(i * 10);
    v.setAt(0, 5);
    v.insertAt(1, 7);
    v.removeAt(3);
    cout << "Vector size " << v.size() << ", getAt(1) " << v.getAt(1) << ", isEmpty "
         << v.isEmpty() << ":";
    Vector<int>::Iterator it = v.iterator();
    while (it.hasNext()) cout << " " << it.next();
    cout << endl;

    /* Grid: Roberts' names */
    Grid<char> board(3, 3);
    for (int row = 0; row < board.numRows(); row++) {
        for (int col = 0; col < board.numCols(); col++) board.setAt(row, col, '.');
    }
    board[1][1] = 'X';
    board.setAt(0, 2, 'O');
    for (int row = 0; row < board.numRows(); row++) {
        for (int col = 0; col < board.numCols(); col++) cout << board.getAt(row, col);
        cout << endl;
    }

    /* nim, Figure 7-5's strategy */
    cout << "FindGoodMove:";
    for (int coins = 2; coins <= 9; coins++) cout << " " << FindGoodMove(coins);
    cout << endl;

    Error("stopped on purpose");
    return 0;
}
