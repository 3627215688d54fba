/*
 * File: maze.c
 * ------------
 * This program solves a maze by recursive backtracking (Figure 7-3),
 * and answers exercises 2 and 4: the length of the shortest path and
 * the path itself. The maze is kept by the mazelib module.
 *
 * labgrade sample course-find-path-one-zero: a course's form of exercise 4,
 * with the C edition's signature but returning 1 or 0: the path in path[]
 * ends at the first square outside the maze (the caller prints up to it).
 *
 * Our course keeps the library's headers in a lib/ folder beside the
 * program, so genlib is included as "lib/genlib.h".
 */

#include <stdio.h>
#include "lib/genlib.h"
#include "mazelib.h"

/*
 * Constants
 * ---------
 * MazeFile   -- Name of the file containing the maze
 * NoSolution -- A path length larger than any real one (exercise 2)
 * MaxPath    -- Room for the longest path FindPath may find (exercise 4)
 * Exercise   -- Which part main runs: 0 (Figure 7-3), 2 or 4
 */

#define MazeFile "unsolveable.maz"
#define NoSolution 10000
#define MaxPath 10000
#define Exercise 0

/* Private function prototypes */

static bool SolveMaze(pointT pt);
static int ShortestPathLength(pointT pt);
static int FindPath(pointT pt, pointT path[], int size);
static pointT AdjacentPoint(pointT pt, directionT dir);

/* Main program */

static pointT path[MaxPath];

int main()
{
    int i, len;

    ReadMazeMap(MazeFile);
    switch (Exercise) {
      case 2:
        len = ShortestPathLength(GetStartPosition());
        if (len == NoSolution) {
            printf("No solution exists.\n");
        } else {
            printf("The shortest path has length %d.\n", len);
        }
        break;
      case 4:
        if (FindPath(GetStartPosition(), path, MaxPath)) {
            printf("The following path is a solution:\n");
            for (i = 0; i < MaxPath; i++) {
                printf("(%d, %d)\n", path[i].x, path[i].y);
                if (OutsideMaze(path[i])) break;
            }
        } else {
            printf("No solution exists.\n");
        }
        break;
      default:
        if (SolveMaze(GetStartPosition())) {
            printf("The marked squares show a solution path.\n");
        } else {
            printf("No solution exists.\n");
        }
        break;
    }
    return (0);
}

/*
 * Function: SolveMaze
 * Usage: if (SolveMaze(pt)) . . .
 * -------------------------------
 * This function attempts to generate a solution to the current
 * maze from point pt.  SolveMaze returns TRUE if the maze has
 * a solution and FALSE otherwise.  The implementation uses
 * recursion to solve the submazes that result from marking the
 * current square and moving one step along each open passage.
 */

static bool SolveMaze(pointT pt)
{
    directionT dir;

    if (OutsideMaze(pt)) return (TRUE);
    if (IsMarked(pt)) return (FALSE);
    MarkSquare(pt);
    for (dir = North; dir <= West; dir++) {
        if (!WallExists(pt, dir)) {
            if (SolveMaze(AdjacentPoint(pt, dir))) {
                return (TRUE);
            }
        }
    }
    UnmarkSquare(pt);
    return (FALSE);
}

/*
 * Function: ShortestPathLength
 * Usage: len = ShortestPathLength(pt);
 * ------------------------------------
 * This function returns the number of squares on the shortest path
 * from pt to the outside of the maze (1 when pt is next to an exit),
 * or NoSolution if there is no way out.  Like SolveMaze it marks the
 * squares of the current path, so that no path visits a square twice,
 * but it tries every direction instead of stopping at the first
 * solution, and it always unmarks the square before it returns.
 */

static int ShortestPathLength(pointT pt)
{
    directionT dir;
    int len, shortest;

    if (OutsideMaze(pt)) return (0);
    if (IsMarked(pt)) return (NoSolution);
    MarkSquare(pt);
    shortest = NoSolution;
    for (dir = North; dir <= West; dir++) {
        if (!WallExists(pt, dir)) {
            len = ShortestPathLength(AdjacentPoint(pt, dir));
            if (len < shortest) shortest = len;
        }
    }
    UnmarkSquare(pt);
    if (shortest == NoSolution) return (NoSolution);
    return (shortest + 1);
}

/*
 * Function: FindPath
 * Usage: if (FindPath(pt, path, size)) . . .
 * ------------------------------------------
 * Our course's exercise 4: like SolveMaze, but it fills path[] with the
 * solution, from pt to the first square outside the maze, and returns 1;
 * 0 if there is no way out from pt.  size is the room in path.
 */

static int FindPath(pointT pt, pointT path[], int size)
{
    directionT dir;

    if (size <= 0) Error("FindPath: the path array is too small");
    path[0] = pt;
    if (OutsideMaze(pt)) return (1);
    if (IsMarked(pt)) return (0);
    MarkSquare(pt);
    for (dir = North; dir <= West; dir++) {
        if (!WallExists(pt, dir)) {
            if (FindPath(AdjacentPoint(pt, dir), path + 1, size - 1)) return (1);
        }
    }
    return (0);
}

/*
 * Function: AdjacentPoint
 * Usage: newpt = AdjacentPoint(pt, dir);
 * --------------------------------------
 * This function returns the pointT that results from moving
 * one square from pt in the direction specified by dir.
 */

static pointT AdjacentPoint(pointT pt, directionT dir)
{
    pointT newpt;

    newpt = pt;
    switch (dir) {
      case North: newpt.y++; break;
      case East:  newpt.x++; break;
      case South: newpt.y--; break;
      case West:  newpt.x--; break;
    }
    return (newpt);
}
