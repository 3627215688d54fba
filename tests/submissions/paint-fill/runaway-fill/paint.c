/* Never asks whether a pixel is already black: north then south then north again, until
   the stack runs out. */
#include "paint.h"

void FillRegion(pointT pt) {
    if (OutsidePixelBounds(pt)) return;
    SetPixelState(pt, BLACK);
    pointT north = {pt.x, pt.y - 1}, east = {pt.x + 1, pt.y};
    pointT south = {pt.x, pt.y + 1}, west = {pt.x - 1, pt.y};
    FillRegion(north);
    FillRegion(east);
    FillRegion(south);
    FillRegion(west);
}
