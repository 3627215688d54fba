// A student's correct Escape in C++.
#include <initializer_list>

#include "robot.h"

namespace {
directionT opposite(directionT d) { return static_cast<directionT>((d + 2) % 4); }
}  // namespace

bool Escape() {
    if (AtExit()) return true;
    if (IsMarked()) return false;
    Mark();
    for (directionT d : {NORTH, EAST, SOUTH, WEST}) {
        if (CanMove(d)) {
            Move(d);
            if (Escape()) return true;
            Move(opposite(d));
        }
    }
    Unmark();
    return false;
}
