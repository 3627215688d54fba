/* Spreads to all eight neighbours: the paint leaks between black pixels that touch only
   at a corner. */
#include "paint.h"

void FillRegion(pointT pt) {
    if (OutsidePixelBounds(pt)) return;
    if (GetPixelState(pt) == BLACK) return;
    SetPixelState(pt, BLACK);
    for (int dy = -1; dy <= 1; dy++) {
        for (int dx = -1; dx <= 1; dx++) {
            if (dx != 0 || dy != 0) {
                pointT next = {pt.x + dx, pt.y + dy};
                FillRegion(next);
            }
        }
    }
}
