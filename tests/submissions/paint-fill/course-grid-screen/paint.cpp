// A Stanford-libraries course's paint bucket: the screen is a Grid<bool> the function is
// handed (true: black), indexed screen[x][y] as the course's handout draws it; the pixel is
// checked on entry, then the four neighbours are tried north, east, south, west.
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
    FillRegion(Adjacent(pt, -1, 0), screen);
}
