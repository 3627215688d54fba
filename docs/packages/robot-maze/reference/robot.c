/* The instructor's solution: labgrade runs it on every case, and what it does is what
   every submission is compared with. */
#include "robot.h"

static directionT Opposite(directionT d) { return (directionT)((d + 2) % 4); }

bool Escape(void) {
    if (AtExit()) return true;
    if (IsMarked()) return false;
    Mark();
    for (int d = NORTH; d <= WEST; d++) {
        if (CanMove((directionT)d)) {
            Move((directionT)d);
            if (Escape()) return true;
            Move(Opposite((directionT)d));
        }
    }
    Unmark();
    return false;
}
