/*
 * File: pixels.h
 * --------------
 * YOU WRITE:
 *
 *   int CountRegion(pointT pt);
 *       paints pt black, and every white pixel joined to it (up, down, left,
 *       right), as FillRegion does, and returns how many pixels it painted (0 when
 *       pt is black or outside the map). Check OutsidePixelBounds first, then
 *       GetPixelState; visit north, east, south, west.
 *
 * The pixel map is labgrade's (paint-fill's): every call is recorded.
 */

#ifndef PIXELS_H
#define PIXELS_H

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

LG_WRAPPER int OutsidePixelBounds(pointT pt) { return lg_world_call(2, pt.x, pt.y, 0, 0) != 0; }

#ifndef LG_NO_STUDENT_PROTOTYPES
int CountRegion(pointT pt);
#endif

#ifdef __cplusplus
}
#endif

#endif /* PIXELS_H */
