// The C++ handout's RecursivePermute: a string taken by value (genlib.h's `string` is
// std::string in C++, as Roberts' C++ genlib makes it), both swaps, printed with cout.
#include <iostream>
#include "genlib.h"
#include "permute.h"

static void Swap(char &a, char &b) {
    char tmp = a;
    a = b;
    b = tmp;
}

void RecursivePermute(string s, int k) {
    if (k == (int) s.length()) {
        cout << s << endl;
    } else {
        for (int i = k; i < (int) s.length(); i++) {
            Swap(s[k], s[i]);
            RecursivePermute(s, k + 1);
            Swap(s[k], s[i]);
        }
    }
}
