/*
 * Exercise 3's second run, in C: Figure 7-3 without the UnmarkSquare call.
 * Squares backed out of stay marked, so no square is explored twice.
 */

#include "mazelib.h"

static const int NO_SOLUTION = 10000;

static pointT AdjacentPoint(pointT pt, directionT dir) {
    pointT newpt = pt;
    switch (dir) {
        case North: newpt.y++; break;
        case East:  newpt.x++; break;
        case South: newpt.y--; break;
        case West:  newpt.x--; break;
    }
    return newpt;
}

bool SolveMaze(pointT pt) {
    if (OutsideMaze(pt)) return true;
    if (IsMarked(pt)) return false;
    MarkSquare(pt);
    for (int i = 0; i < 4; i++) {
        directionT dir = (directionT) i;
        if (!WallExists(pt, dir)) {
            if (SolveMaze(AdjacentPoint(pt, dir))) {
                return true;
            }
        }
    }
    return false;
}

int ShortestPathLength(pointT pt) {
    if (OutsideMaze(pt)) return 0;
    if (IsMarked(pt)) return NO_SOLUTION;
    MarkSquare(pt);
    int shortest = NO_SOLUTION;
    for (int i = 0; i < 4; i++) {
        directionT dir = (directionT) i;
        if (!WallExists(pt, dir)) {
            int len = ShortestPathLength(AdjacentPoint(pt, dir));
            if (len < shortest) shortest = len;
        }
    }
    UnmarkSquare(pt);
    return shortest == NO_SOLUTION ? NO_SOLUTION : shortest + 1;
}

bool FindPath(pointT pt, pointT path[], int capacity, int *length) {
    if (*length >= capacity) return false;
    path[(*length)++] = pt;
    if (OutsideMaze(pt)) return true;
    if (IsMarked(pt)) {
        (*length)--;
        return false;
    }
    MarkSquare(pt);
    for (int i = 0; i < 4; i++) {
        directionT dir = (directionT) i;
        if (!WallExists(pt, dir) && FindPath(AdjacentPoint(pt, dir), path, capacity, length)) {
            return true;
        }
    }
    (*length)--;
    return false;
}
