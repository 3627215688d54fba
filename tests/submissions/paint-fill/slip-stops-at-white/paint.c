/* The paint bucket as SolveMaze is written in Figure 6-3: check the pixel on entry, paint
   it, then try the four directions in the book's order. */
#include "paint.h"

static pointT AdjacentPoint(pointT pt, int dx, int dy) {
    pointT next;
    next.x = pt.x + dx;
    next.y = pt.y + dy;
    return next;
}

void FillRegion(pointT pt) {
    if (OutsidePixelBounds(pt)) return;
    if (GetPixelState(pt) != BLACK) return;
    SetPixelState(pt, BLACK);
    FillRegion(AdjacentPoint(pt, 0, -1)); /* north */
    FillRegion(AdjacentPoint(pt, 1, 0));  /* east */
    FillRegion(AdjacentPoint(pt, 0, 1));  /* south */
    FillRegion(AdjacentPoint(pt, -1, 0)); /* west */
}
