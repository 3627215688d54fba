/*
 * File: maze.cpp
 * --------------
 * Figure 7-3's SolveMaze, exercise 2's ShortestPathLength and exercise 4's
 * FindPath, written as the book writes them.
 */

#include "mazelib.h"

const int NO_SOLUTION = 10000;

/*
 * Function: AdjacentPoint
 * Usage: newpt = AdjacentPoint(pt, dir);
 * --------------------------------------
 * Returns the point one step away from pt in the direction dir.
 */
pointT AdjacentPoint(pointT pt, directionT dir) {
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
        directionT dir = directionT(i);
        if (!WallExists(pt, dir)) {
            if (SolveMaze(AdjacentPoint(pt, dir))) {
                return true;
            }
        }
    }
    UnmarkSquare(pt);
    return false;
}

int ShortestPathLength(pointT pt) {
    if (OutsideMaze(pt)) return 0;
    if (IsMarked(pt)) return NO_SOLUTION;
    MarkSquare(pt);
    int shortest = NO_SOLUTION;
    for (int i = 0; i < 4; i++) {
        directionT dir = directionT(i);
        if (!WallExists(pt, dir)) {
            int len = ShortestPathLength(AdjacentPoint(pt, dir));
            if (len > shortest) shortest = len;
        }
    }
    UnmarkSquare(pt);
    if (shortest == NO_SOLUTION) return NO_SOLUTION;
    return shortest + 1;
}

/*
 * FindPath keeps the current path in path[0 .. *length-1], so it never needs
 * to erase its marks (exercise 4).
 */
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
        directionT dir = directionT(i);
        if (!WallExists(pt, dir)) {
            if (FindPath(AdjacentPoint(pt, dir), path, capacity, length)) {
                return true;
            }
        }
    }
    (*length)--;
    return false;
}
