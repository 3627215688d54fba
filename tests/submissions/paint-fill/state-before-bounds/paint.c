/* Asks the pixel's state before asking whether the pixel exists: wherever the paint
   reaches the edge of the picture, GetPixelState is asked about a pixel outside it. */
#include "paint.h"

void FillRegion(pointT pt) {
    if (GetPixelState(pt) == BLACK || OutsidePixelBounds(pt)) return;
    SetPixelState(pt, BLACK);
    pointT north = {pt.x, pt.y - 1}, east = {pt.x + 1, pt.y};
    pointT south = {pt.x, pt.y + 1}, west = {pt.x - 1, pt.y};
    FillRegion(north);
    FillRegion(east);
    FillRegion(south);
    FillRegion(west);
}
