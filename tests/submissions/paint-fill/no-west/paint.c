/* Forgets the west: only what can be reached going north, east and south is painted. */
#include "paint.h"

void FillRegion(pointT pt) {
    if (OutsidePixelBounds(pt)) return;
    if (GetPixelState(pt) == BLACK) return;
    SetPixelState(pt, BLACK);
    pointT north = {pt.x, pt.y - 1}, east = {pt.x + 1, pt.y};
    pointT south = {pt.x, pt.y + 1};
    FillRegion(north);
    FillRegion(east);
    FillRegion(south);
}
