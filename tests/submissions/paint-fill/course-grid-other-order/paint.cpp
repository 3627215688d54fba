// labgrade sample: course-grid-other-order. A Stanford-libraries course's paint bucket, as
// course-grid-screen (a Grid<bool> screen indexed screen[x][y], the pixel checked on entry),
// but the four neighbours are tried south, west, north, east: exercise 6 fixes no order.
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
    FillRegion(Adjacent(pt, 0, 1), screen);
    FillRegion(Adjacent(pt, -1, 0), screen);
    FillRegion(Adjacent(pt, 0, -1), screen);
    FillRegion(Adjacent(pt, 1, 0), screen);
}
