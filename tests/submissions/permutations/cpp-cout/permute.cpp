// A C++ course's version: cout, std::swap, strlen, a loop variable of its own name.
#include <cstring>
#include <iostream>
#include <utility>
#include "permute.h"

void RecursivePermute(char *s, int k) {
    const int n = static_cast<int>(std::strlen(s));
    if (k == n) {
        std::cout << s << '\n';
        return;
    }
    for (int choice = k; choice < n; ++choice) {
        std::swap(s[k], s[choice]);
        RecursivePermute(s, k + 1);
        std::swap(s[k], s[choice]);
    }
}
