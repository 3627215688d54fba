// The Grid<bool> course form of course-grid-screen with the west neighbour forgotten: the
// paint never spreads left of where it starts.
#include "grid.h"
#include "paint.h"

static pointT Adjacent(pointT pt, int dx, int dy) {
    pointT next;
    next.x = pt.x + dx;
    next.y = pt.y + dy;
    return next;
}

void FillRegion(pointT pt, Grid<bool> &screen) {
    if (!screen.inBounds(pt.x, pt.y) || screen[pt.x][pt.y]) return;
    screen[pt.x][pt.y] = true;
    FillRegion(Adjacent(pt, 0, -1), screen);
    FillRegion(Adjacent(pt, 1, 0), screen);
    FillRegion(Adjacent(pt, 0, 1), screen);
}
