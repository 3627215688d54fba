/* A student's correct Escape, with the way back in a helper of its own. */
#include "robot.h"

static void StepBack(directionT d) {
    switch (d) {
    case NORTH: Move(SOUTH); break;
    case EAST: Move(WEST); break;
    case SOUTH: Move(NORTH); break;
    case WEST: Move(EAST); break;
    }
}

bool Escape(void) {
    if (AtExit()) return true;
    if (IsMarked()) return false;
    Mark();
    directionT order[] = {NORTH, EAST, SOUTH, WEST};
    for (int i = 0; i < 4; i++) {
        if (!CanMove(order[i])) continue;
        Move(order[i]);
        if (Escape()) return true;
        StepBack(order[i]);
    }
    Unmark();
    return false;
}
