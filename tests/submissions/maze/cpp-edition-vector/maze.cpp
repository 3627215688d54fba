/*
 * File: maze.cpp
 * --------------
 * Solves a maze by recursive backtracking, in the style of the C++ edition
 * (Programming Abstractions in C++, section 7.1 and exercises 2 and 4), with the
 * course's libraries: genlib.h, simpio.h, vector.h and mazelib.h.
 */

#include <iostream>
#include "genlib.h"
#include "simpio.h"
#include "vector.h"
#include "mazelib.h"

/* Constants */

const int NO_SOLUTION = 10000;

/* Private function prototypes */

bool SolveMaze(pointT pt);
int ShortestPathLength(pointT pt);
bool FindPath(pointT pt, Vector<pointT> & path);
pointT AdjacentPoint(pointT pt, directionT dir);

/* Main program */

int main() {
    ReadMazeMap("SampleMaze.txt");
    Vector<pointT> path;
    if (FindPath(GetStartPosition(), path)) {
        cout << "The following path is a solution:" << endl;
        for (int i = 0; i < path.size(); i++) {
            cout << "(" << path[i].x << ", " << path[i].y << ")" << endl;
        }
    } else {
        cout << "No solution exists." << endl;
    }
    return 0;
}

/*
 * Function: SolveMaze
 * Usage: if (SolveMaze(pt)) . . .
 * -------------------------------
 * Figure 7-3: true if a path exists from pt to an exit; the marked squares
 * then show it.
 */

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

/*
 * Function: ShortestPathLength
 * Usage: len = ShortestPathLength(pt);
 * ------------------------------------
 * Exercise 2: the length of the shortest path out, or NO_SOLUTION.
 */

int ShortestPathLength(pointT pt) {
    if (OutsideMaze(pt)) return 0;
    if (IsMarked(pt)) return NO_SOLUTION;
    MarkSquare(pt);
    int shortest = NO_SOLUTION;
    for (int i = 0; i < 4; i++) {
        directionT dir = directionT(i);
        if (!WallExists(pt, dir)) {
            int len = ShortestPathLength(AdjacentPoint(pt, dir));
            if (len < shortest) shortest = len;
        }
    }
    UnmarkSquare(pt);
    if (shortest == NO_SOLUTION) return NO_SOLUTION;
    return shortest + 1;
}

/*
 * Function: FindPath
 * Usage: if (FindPath(pt, path)) . . .
 * ------------------------------------
 * Exercise 4: like SolveMaze, but fills path with the squares from pt to the
 * first square outside the maze.
 */

bool FindPath(pointT pt, Vector<pointT> & path) {
    path.add(pt);
    if (OutsideMaze(pt)) return true;
    if (IsMarked(pt)) {
        path.removeAt(path.size() - 1);
        return false;
    }
    MarkSquare(pt);
    for (int i = 0; i < 4; i++) {
        directionT dir = directionT(i);
        if (!WallExists(pt, dir)) {
            if (FindPath(AdjacentPoint(pt, dir), path)) {
                return true;
            }
        }
    }
    path.removeAt(path.size() - 1);
    return false;
}

/*
 * Function: AdjacentPoint
 * Usage: newpt = AdjacentPoint(pt, dir);
 * --------------------------------------
 * The square next to pt in direction dir.
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
