/*
 * File: mazelib.h
 * ---------------
 * Roberts' mazelib.h (Programming Abstractions in C++, Figure 7-2), as labgrade
 * provides it: while your code runs, labgrade IS the maze library. It has read
 * the case's maze; it answers every call below and records it, and the grade
 * comes from that record (how many SolveMaze calls, in which order the squares
 * were explored, which squares are marked at the end).
 *
 * YOU WRITE, exactly as the book does (include this header; C++ or C):
 *
 *   bool SolveMaze(pointT pt);                         Figure 7-3
 *   int  ShortestPathLength(pointT pt);                exercise 2
 *   bool FindPath(pointT pt, pointT path[], int capacity, int *length);
 *                                                      exercise 4, see below
 *
 * labgrade calls SolveMaze(GetStartPosition()), or one of the others, once per
 * case, with nothing marked. The book's rules, as graded:
 *
 *   - SolveMaze first checks OutsideMaze(pt) (so one OutsideMaze call opens each
 *     SolveMaze call: that is how calls are counted), then IsMarked(pt), marks
 *     pt, and tries North, East, South, West in that order (directionT(i) for
 *     i = 0..3). Figure 7-3 unmarks pt before returning false: after success the
 *     marked squares are exactly the path from the start to the exit. Exercise 3
 *     runs the same code without that UnmarkSquare call; a case says which of
 *     the two programs it grades.
 *   - ShortestPathLength returns the number of squares of the shortest path
 *     inside the maze (the number of steps it takes to get outside: 1 when the
 *     start is next to an exit), or NO_SOLUTION when there is none. Define it as
 *     the exercise does: const int NO_SOLUTION = 10000;
 *   - FindPath is exercise 4 through a C interface. The book's Vector<pointT>
 *     path is a buffer labgrade gives you: path holds capacity points (enough for
 *     every square of the maze plus one outside) and *length is how many are in
 *     use: 0 on labgrade's call. Add a point with path[(*length)++] = pt and
 *     remove the last with (*length)--. On success, return true with
 *     path[0 .. *length-1] running from the start, square by adjacent square
 *     through open walls, to the first square outside the maze, no square twice.
 *     Keeping the path means the marks need not be erased: FindPath, like
 *     exercise 4 says, does not need UnmarkSquare. The C++ edition's form,
 *         bool FindPath(pointT pt, Vector<pointT> & path);
 *     (or with a std::vector<pointT> &) is graded as it is: labgrade calls it
 *     through its adapter, labgrade_adapter.cpp, which reads the vector.
 *
 * Coordinates: (0,0) is the lower-left square, North is y + 1, East is x + 1.
 * Calls on points outside the maze (WallExists, MarkSquare, ...) are answered
 * (true, ignored) and recorded as misuse: check OutsideMaze first.
 *
 * The wrappers call through a table labgrade installs in lg_mazelib (defined
 * weak here, so your library needs no symbol from labgrade). Outside labgrade
 * they stop with a message. SolveMaze, ShortestPathLength and FindPath may be
 * static: labgrade still calls them and counts their calls.
 */

#ifndef _mazelib_h
#define _mazelib_h

#include "genlib.h"
/* PrintMaze and SetPauseTime, which courses' mazelib.h declare (see lg_display.h). */
#include "lg_display.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The four compass directions, in the order SolveMaze tries them. */
typedef enum directionT { North, East, South, West } directionT;

/* A square's coordinates. */
typedef struct pointT {
    int x, y;
} pointT;

/* labgrade's mazelib (filled by labgrade; call the functions below instead). */
struct lg_mazelib_ops {
    void *world;
    void (*read_maze_map)(void *world, const char *filename);
    pointT (*get_start_position)(void *world);
    int (*outside_maze)(void *world, pointT pt);
    int (*wall_exists)(void *world, pointT pt, int dir);
    void (*mark_square)(void *world, pointT pt);
    void (*unmark_square)(void *world, pointT pt);
    int (*is_marked)(void *world, pointT pt);
};

__attribute__((weak)) const struct lg_mazelib_ops *lg_mazelib = 0;

/* Never counted as your calls, wherever this header is. */
#define LG_WRAPPER static inline __attribute__((no_instrument_function, unused))

LG_WRAPPER const struct lg_mazelib_ops *lg_mazelib_ops(void) {
    if (!lg_mazelib) {
        fputs("mazelib.h: these functions are labgrade's; run your code with labgrade\n",
              stderr);
        abort();
    }
    return lg_mazelib;
}

LG_WRAPPER pointT GetStartPosition(void) {
    return lg_mazelib_ops()->get_start_position(lg_mazelib->world);
}
LG_WRAPPER bool OutsideMaze(pointT pt) {
    return lg_mazelib_ops()->outside_maze(lg_mazelib->world, pt) != 0;
}
LG_WRAPPER bool WallExists(pointT pt, directionT dir) {
    return lg_mazelib_ops()->wall_exists(lg_mazelib->world, pt, (int)dir) != 0;
}
LG_WRAPPER void MarkSquare(pointT pt) {
    lg_mazelib_ops()->mark_square(lg_mazelib->world, pt);
}
LG_WRAPPER void UnmarkSquare(pointT pt) {
    lg_mazelib_ops()->unmark_square(lg_mazelib->world, pt);
}
LG_WRAPPER bool IsMarked(pointT pt) {
    return lg_mazelib_ops()->is_marked(lg_mazelib->world, pt) != 0;
}

/* What labgrade calls. labgrade's build defines LG_NO_STUDENT_PROTOTYPES when your
   sources define one of these static (as Roberts' C edition does), where these
   prototypes would be an error; it makes static graded functions callable itself.
   FindPath is not declared here: write it in either edition's form, labgrade's
       bool FindPath(pointT pt, pointT path[], int capacity, int *length);
   or the C edition's (Programming Abstractions in C, exercise 4)
       int FindPath(pointT pt, pointT path[], int size);
   which returns the number of points it put in path (0: no way out); labgrade tells the
   two apart when it calls it. The C++ edition's
       bool FindPath(pointT pt, Vector<pointT> & path);
   is called through labgrade_adapter.cpp. */
#ifndef LG_NO_STUDENT_PROTOTYPES
bool SolveMaze(pointT pt);
int ShortestPathLength(pointT pt);
#endif

/* AdjacentPoint(pt, dir): the square one step from pt towards dir. Figure 7-3 has you
   write it (keep yours: labgrade then defines none); some courses' mazelib exports it, and
   code written for those calls it without defining it: labgrade's build then defines
   LG_PROVIDE_AdjacentPoint and this is it. */
#ifdef LG_PROVIDE_AdjacentPoint
LG_WRAPPER pointT AdjacentPoint(pointT pt, directionT dir) {
    switch (dir) {
    case North: pt.y++; break;
    case East: pt.x++; break;
    case South: pt.y--; break;
    case West: pt.x--; break;
    }
    return pt;
}
#endif

#ifdef __cplusplus
}

/* ReadMazeMap: labgrade has already read the case's maze (recorded only). */
LG_WRAPPER void ReadMazeMap(string filename) {
    lg_mazelib_ops()->read_maze_map(lg_mazelib->world, filename.c_str());
}
#else
LG_WRAPPER void ReadMazeMap(const char *filename) {
    lg_mazelib_ops()->read_maze_map(lg_mazelib->world, filename);
}
#endif

#undef LG_WRAPPER

#endif /* _mazelib_h */
