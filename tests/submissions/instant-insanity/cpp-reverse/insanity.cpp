// C++: the cubes as std::strings, every orientation listed first, tried last to first.
#include <string>
#include <vector>
#include "insanity.h"

namespace {

std::string turn(const std::string &c, const int (&how)[6]) {
    std::string t(6, ' ');
    for (int i = 0; i < 6; i++) t[i] = c[how[i]];
    return t;
}

std::vector<std::string> orientations(const std::string &cube) {
    static const int ROLL[6] = {3, 0, 1, 2, 4, 5};
    static const int YAW[6] = {4, 1, 5, 3, 2, 0};
    std::vector<std::string> seen{cube};
    for (size_t i = 0; i < seen.size(); i++) {
        for (const auto *how : {&ROLL, &YAW}) {
            std::string t = turn(seen[i], *how);
            bool fresh = true;
            for (const auto &s : seen) fresh = fresh && s != t;
            if (fresh) seen.push_back(t);
        }
    }
    return seen;  // with repeated colors, fewer than 24 distinct strings
}

bool fits(char cubes[4][6], int n) {
    for (int side = 0; side < 4; side++)
        for (int a = 0; a < n; a++)
            for (int b = a + 1; b < n; b++)
                if (cubes[a][side] == cubes[b][side]) return false;
    return true;
}

bool place(char cubes[4][6], int n) {
    if (n == 4) return true;
    std::string original(cubes[n], 6);
    std::vector<std::string> ways = orientations(original);
    for (auto it = ways.rbegin(); it != ways.rend(); ++it) {
        it->copy(cubes[n], 6);
        if (fits(cubes, n + 1) && place(cubes, n + 1)) return true;
    }
    original.copy(cubes[n], 6);
    return false;
}

}  // namespace

bool SolveInsanity(char cubes[4][6]) { return place(cubes, 0); }
