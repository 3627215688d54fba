// A C++ course's version: a table of directions, walked west, south, east, north. The same
// region is painted (a fill does not depend on the order), by the same number of calls.
#include "paint.h"

namespace {
const int kSteps[4][2] = {{-1, 0}, {0, 1}, {1, 0}, {0, -1}};
}

void FillRegion(pointT pt) {
    if (OutsidePixelBounds(pt) || GetPixelState(pt) == BLACK) {
        return;
    }
    SetPixelState(pt, BLACK);
    for (const auto &step : kSteps) {
        pointT next = {pt.x + step[0], pt.y + step[1]};
        FillRegion(next);
    }
}
