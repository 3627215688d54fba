/*
 * File: robot.h
 * -------------
 * A robot stands somewhere in a maze it cannot see. It can ask whether it
 * stands on the exit, whether a step in a direction is open, take that step,
 * and chalk a mark on the square it stands on (or rub it out).
 *
 * YOU WRITE:
 *
 *   bool Escape(void);
 *       moves the robot to the exit if any path leads there, and answers
 *       whether it did. Recursively, as SolveMaze does in lecture: on the exit,
 *       return true; on a marked square, return false; otherwise mark the
 *       square and try the directions in the order NORTH, EAST, SOUTH, WEST:
 *       for each open one, step there, and if Escape() from there succeeds,
 *       return true; otherwise step back. When no direction leads out, rub
 *       out the mark and return false. (The marks left behind show the path.)
 *
 * labgrade grades what Escape returns, the maze it leaves (the marks), the
 * calls of Escape and how deep it recurses, and every call into the robot's
 * library, in order.
 */

#ifndef ROBOT_H
#define ROBOT_H

#include <stdbool.h>

#include "lg_world.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { NORTH, EAST, SOUTH, WEST } directionT;

/* Whether the robot stands on the exit. */
LG_WRAPPER bool AtExit(void) { return lg_world_call(0, 0, 0, 0, 0) != 0; }

/* Whether a step in direction d is open (not a wall). */
LG_WRAPPER bool CanMove(directionT d) { return lg_world_call(1, d, 0, 0, 0) != 0; }

/* Steps in direction d (a step into a wall is refused, and recorded). */
LG_WRAPPER void Move(directionT d) { lg_world_call(2, d, 0, 0, 0); }

/* Chalks a mark on the robot's square, or rubs it out. */
LG_WRAPPER void Mark(void) { lg_world_call(3, 0, 0, 0, 0); }
LG_WRAPPER void Unmark(void) { lg_world_call(4, 0, 0, 0, 0); }

/* Whether the robot's square is marked. */
LG_WRAPPER bool IsMarked(void) { return lg_world_call(5, 0, 0, 0, 0) != 0; }

#ifndef LG_NO_STUDENT_PROTOTYPES
bool Escape(void);
#endif

#ifdef __cplusplus
}
#endif

#endif /* ROBOT_H */
