#include "pixels.h"

int CountRegion(pointT pt) {
    if (OutsidePixelBounds(pt)) return 0;
    if (GetPixelState(pt) == BLACK) return 0;
    SetPixelState(pt, BLACK);
    return 1 + CountRegion((pointT){pt.x, pt.y - 1}) + CountRegion((pointT){pt.x + 1, pt.y}) +
           CountRegion((pointT){pt.x, pt.y + 1}) + CountRegion((pointT){pt.x - 1, pt.y});
}
