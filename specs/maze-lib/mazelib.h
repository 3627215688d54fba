/*
 * File: mazelib.h
 * ---------------
 * Roberts' mazelib.h (Programming Abstractions in C++, Figure 7-2), for
 * exercise 1: YOU write the library (mazelib.cpp, or mazelib.c), labgrade
 * grades it against its reference mazelib on map files.
 *
 * The map format (Figure 7-2's comment): '+' corners, '-' and '|' walls,
 * spaces for open passages, 'S' the start. A maze of W columns and H rows is
 * 2H + 1 lines of 2W + 1 characters; the square (x, y) is at line
 * 2(H - 1 - y) + 1, column 2x + 1 (from 0), so (0,0) is the LOWER-left square
 * and North is y + 1. An opening in the outer wall is an exit. A line may be one
 * character short (editors strip trailing spaces): the missing character is an
 * opening. For example, the following data file defines a simple maze:
 *
 *      +-+-+-+-+-+
 *      |         |
 *      + +-+-+ +-+
 *      |S  |
 *      +-+-+-+-+-+
 *
 * ReadMazeMap must call Error (genlib.h) on a malformed map: no 'S', more than
 * one 'S', ragged lines (a line more than one character shorter than the
 * longest), a character other than + - | space S (or one in the wrong place),
 * an even number of lines, or a file it cannot open. WallExists, MarkSquare,
 * UnmarkSquare and IsMarked on a point outside the maze may call Error too;
 * labgrade only asks them about squares your OutsideMaze says are inside.
 *
 * The functions have C linkage (this header says extern "C"), so labgrade can
 * call them; ReadMazeMap, which takes a C++ string, is reached through the shim
 * labgrade_ReadMazeMap defined below (weak, so any number of files may include
 * this header).
 */

#ifndef _mazelib_h
#define _mazelib_h

#include "genlib.h"
/* PrintMaze and SetPauseTime, which courses' mazelib.h declare (see lg_display.h). */
#include "lg_display.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum directionT { North, East, South, West } directionT;

typedef struct pointT {
    int x, y;
} pointT;

pointT GetStartPosition(void);
bool OutsideMaze(pointT pt);
bool WallExists(pointT pt, directionT dir);
void MarkSquare(pointT pt);
void UnmarkSquare(pointT pt);
bool IsMarked(pointT pt);

#ifdef __cplusplus
}
void ReadMazeMap(string filename);
extern "C" __attribute__((weak)) void labgrade_ReadMazeMap(const char *filename) {
    ReadMazeMap(string(filename));
}
#else
void ReadMazeMap(string filename);
__attribute__((weak)) void labgrade_ReadMazeMap(const char *filename) {
    ReadMazeMap((string)filename);
}
#endif

#endif /* _mazelib_h */
