/*
 * File: graphics.h
 * ----------------
 * Imitates graphics.h, the simple graphics library of Eric Roberts' C
 * edition ("The Art and Science of C", "Programming Abstractions in C") and
 * C++ edition: InitGraphics, MovePen, DrawLine, DrawArc, GetWindowWidth,
 * GetWindowHeight, GetCurrentX, GetCurrentY. labgrade provides it so that
 * students' programs that draw (a maze, a fractal beside the graded
 * recursion) compile and run unchanged. Works from C and C++.
 *
 * Under labgrade there is no window: every drawing function is a NO-OP
 * that prints nothing. The values it returns are plausible and consistent:
 * the window is 10 x 7 inches, and the pen position follows MovePen,
 * DrawLine and DrawArc, so code that computes with GetCurrentX/Y behaves.
 * The state is shared by every file of a program (weak globals).
 * Everything is defined in the header (static in C, inline in C++).
 * The rest of the library (fonts, colours, the mouse, Pause, ...) is
 * extgraph.h.
 */

#ifndef LABGRADE_GRAPHICS_H
#define LABGRADE_GRAPHICS_H

#ifdef __cplusplus
#define GRAPHICS_FN_ inline
extern "C" {
#else
#define GRAPHICS_FN_ __attribute__((unused)) static
#endif

/* The pen and the window, shared by every file of the program. */
struct lg_graphics_state {
    double x, y;
};
__attribute__((weak)) struct lg_graphics_state lg_graphics = { 0.0, 0.0 };

#ifdef __cplusplus
}
#endif

/* SetPauseTime, which a course's graphics header declares (see lg_display.h). */
#include "lg_display.h"

#define LG_WINDOW_WIDTH 10.0
#define LG_WINDOW_HEIGHT 7.0

GRAPHICS_FN_ void InitGraphics(void) {
    lg_graphics.x = 0.0;
    lg_graphics.y = 0.0;
}

GRAPHICS_FN_ void MovePen(double x, double y) {
    lg_graphics.x = x;
    lg_graphics.y = y;
}

GRAPHICS_FN_ void DrawLine(double dx, double dy) {
    lg_graphics.x += dx;
    lg_graphics.y += dy;
}

/*
 * cos and sin of an angle in degrees, without libm (so that no program needs
 * -lm for a header it may only include): reduced to [-180, 180), then a
 * Taylor series, good to about 1e-12.
 */
GRAPHICS_FN_ void GraphicsCosSin_(double degrees, double *c, double *s) {
    double x, term, cosine = 0.0, sine = 0.0;
    long turns = (long) (degrees / 360.0);
    int n;
    degrees -= 360.0 * (double) turns;
    if (degrees >= 180.0) degrees -= 360.0;
    if (degrees < -180.0) degrees += 360.0;
    x = degrees * 3.14159265358979323846 / 180.0;
    term = 1.0;
    for (n = 0; n < 40; n++) {
        /* term is x^n / n! */
        switch (n % 4) {
          case 0: cosine += term; break;
          case 1: sine += term; break;
          case 2: cosine -= term; break;
          case 3: sine -= term; break;
        }
        term = term * x / (double) (n + 1);
    }
    *c = cosine;
    *s = sine;
}

/* The arc of an ellipse starts at the pen; the pen ends at its other end. */
GRAPHICS_FN_ void GraphicsArc_(double rx, double ry, double start, double sweep) {
    double c0, s0, c1, s1;
    GraphicsCosSin_(start, &c0, &s0);
    GraphicsCosSin_(start + sweep, &c1, &s1);
    lg_graphics.x += rx * (c1 - c0);
    lg_graphics.y += ry * (s1 - s0);
}

GRAPHICS_FN_ void DrawArc(double r, double start, double sweep) {
    GraphicsArc_(r, r, start, sweep);
}

GRAPHICS_FN_ double GetWindowWidth(void) { return LG_WINDOW_WIDTH; }
GRAPHICS_FN_ double GetWindowHeight(void) { return LG_WINDOW_HEIGHT; }
GRAPHICS_FN_ double GetCurrentX(void) { return lg_graphics.x; }
GRAPHICS_FN_ double GetCurrentY(void) { return lg_graphics.y; }

#undef GRAPHICS_FN_

#endif /* LABGRADE_GRAPHICS_H */
