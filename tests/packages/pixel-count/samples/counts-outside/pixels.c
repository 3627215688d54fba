/* Asks the colour before the bounds: the map refuses each pixel outside it (and answers
   BLACK), so every count is right but the calls into the map are not the handout's. */
#include "pixels.h"

int CountRegion(pointT pt) {
    if (GetPixelState(pt) == BLACK) return 0;
    if (OutsidePixelBounds(pt)) return 0;
    SetPixelState(pt, BLACK);
    return 1 + CountRegion((pointT){pt.x, pt.y - 1}) + CountRegion((pointT){pt.x + 1, pt.y}) +
           CountRegion((pointT){pt.x, pt.y + 1}) + CountRegion((pointT){pt.x - 1, pt.y});
}
