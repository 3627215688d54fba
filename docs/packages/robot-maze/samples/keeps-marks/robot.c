/* Never rubs a mark out. Where the way out is the first way tried (the corridor) nothing
   shows; elsewhere the maze it leaves shows every dead end it tried, the library's record
   lacks the Unmark calls, and where there is no way out every square stays marked. The
   search itself (the calls of Escape) is the same in mazes without loops. */
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
    return false;
}
