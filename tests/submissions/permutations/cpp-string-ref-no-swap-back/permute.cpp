// A C++ course's RecursivePermute on a std::string taken by reference, without the swap back:
// the string the caller passed is left rearranged, as the C handout's char * would be.
#include <iostream>
#include <string>
#include <utility>
#include "permute.h"

void RecursivePermute(std::string &s, int k) {
    if (k == static_cast<int>(s.size())) {
        std::cout << s << '\n';
        return;
    }
    for (int i = k; i < static_cast<int>(s.size()); ++i) {
        std::swap(s[k], s[i]);
        RecursivePermute(s, k + 1);
    }
}
