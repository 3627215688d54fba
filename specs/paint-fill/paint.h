/*
 * File: paint.h
 * -------------
 * The interface labgrade grades in a paint-fill submission (Roberts, chapter 7,
 * exercise 6: the paint-bucket tool).
 *
 * YOU WRITE:
 *
 *   void FillRegion(pointT pt);
 *       paints pt black, and every pixel joined to it by an unbroken chain of
 *       white pixels (up, down, left or right: never diagonally). Clicking a
 *       black pixel changes nothing.
 *
 * The pixel map is labgrade's: GetPixelState, SetPixelState and
 * OutsidePixelBounds below are answered by labgrade, and every call is
 * recorded. Pixel (x, y) is column x of row y, row 0 at the top.
 *
 * labgrade grades the picture you leave, and also how you got there: the calls
 * of FillRegion, how deep it recurses, and your calls to the three functions.
 * Those match the reference when FillRegion is written as SolveMaze is in
 * Figure 6-3: on entry, return at once if OutsidePixelBounds(pt), then if
 * GetPixelState(pt) is BLACK; otherwise SetPixelState(pt, BLACK) and call
 * FillRegion on the four neighbours in the order of the book's directions:
 * north (x, y - 1), east (x + 1, y), south (x, y + 1), west (x - 1, y).
 *
 * Asking GetPixelState or SetPixelState about a pixel outside the map is an
 * error the map records (it answers BLACK, as if the screen had a frame).
 *
 * A large region recurses deeply (one frame per pixel on the way): the large
 * cases give your code a larger stack. FillRegion may be static.
 */

#ifndef LABGRADE_PAINT_H
#define LABGRADE_PAINT_H

#include <stdbool.h>

#include "lg_world.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int x, y;
} pointT;

typedef enum { WHITE, BLACK } pixelStateT;

LG_WRAPPER pixelStateT GetPixelState(pointT pt) {
    return (pixelStateT)lg_world_call(0, pt.x, pt.y, 0, 0);
}

LG_WRAPPER void SetPixelState(pointT pt, pixelStateT state) {
    lg_world_call(1, pt.x, pt.y, (long long)state, 0);
}

LG_WRAPPER bool OutsidePixelBounds(pointT pt) {
    return lg_world_call(2, pt.x, pt.y, 0, 0) != 0;
}

/* labgrade's build defines LG_NO_STUDENT_PROTOTYPES when your sources define
   FillRegion static, where this prototype would be an error. */
#ifndef LG_NO_STUDENT_PROTOTYPES
void FillRegion(pointT pt);
#endif

#ifdef __cplusplus
}
#endif

#endif /* LABGRADE_PAINT_H */
