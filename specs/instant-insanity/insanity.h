/*
 * File: insanity.h
 * ----------------
 * The interface labgrade grades in an Instant Insanity submission (Roberts,
 * chapter 7, exercise 9).
 *
 * YOU WRITE:
 *
 *   bool SolveInsanity(char cubes[4][6]);
 *
 * cubes[i] are the six faces of cube i, each 'R', 'G', 'B' or 'W', in the
 * order front, top, back, bottom, left, right. Lined up from left to right,
 * front, top, back and bottom are the line's four long sides; left and right
 * face the neighbours and are hidden.
 *
 * Turn the cubes (rearrange each cube's faces the way a real cube turns:
 * opposite faces stay opposite, 24 ways per cube) until no long side shows a
 * color twice, using recursive backtracking: place the cubes one at a time,
 * try each way of turning the next cube, and go back when no way works.
 * Return true with the cubes left turned into a solution; false, with the
 * cubes as they were, when there is none. Any solution gets the points.
 *
 * labgrade counts the calls of SolveInsanity; keep its name. It may be
 * static, and your helpers are yours.
 */

#ifndef LABGRADE_INSANITY_H
#define LABGRADE_INSANITY_H

#ifndef __cplusplus
#include <stdbool.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

#ifndef LG_NO_STUDENT_PROTOTYPES
bool SolveInsanity(char cubes[4][6]);
#endif

#ifdef __cplusplus
}
#endif

#endif /* LABGRADE_INSANITY_H */
