/*
 * File: extgraph.h
 * ----------------
 * Imitates extgraph.h, the extended graphics library of Eric Roberts' C
 * edition and C++ edition (it includes graphics.h and genlib.h, as the
 * original does). labgrade provides it so that students' programs that
 * draw compile and run unchanged. Works from C and C++.
 *
 * Under labgrade there is no window: every function is a NO-OP that prints
 * nothing and never waits (Pause, WaitForMouseDown and WaitForMouseUp return
 * at once; the mouse is at (0, 0), its button up). Getters return plausible
 * values: what was last set (font, point size, style, pen colour, pen size,
 * erase mode, window title, window size), a 12-point font 1/6 inch high,
 * 72 pixels per inch, text 0.1 inch per character wide. Elliptical arcs
 * move the pen as drawing them would. Everything is defined in the header
 * (static in C, inline in C++); the state is shared by every file of a
 * program.
 */

#ifndef LABGRADE_EXTGRAPH_H
#define LABGRADE_EXTGRAPH_H

#include "genlib.h"
#include "graphics.h"

#ifdef __cplusplus
#include <cstring>
#define EXTGRAPH_FN_ inline
#define EXTGRAPH_TEXT_ std::string
#define EXTGRAPH_CSTR_(s) ((s).c_str())
#define EXTGRAPH_RESULT_(s) std::string(s)
extern "C" {
#else
#include <string.h>
#define EXTGRAPH_FN_ __attribute__((unused)) static
#define EXTGRAPH_TEXT_ const char *
#define EXTGRAPH_CSTR_(s) (s)
#define EXTGRAPH_RESULT_(s) ((string) (s))
#endif

/* Font styles (combine with +). */
#ifdef __cplusplus
}
const int Normal = 0;
const int Bold = 1;
const int Italic = 2;
extern "C" {
#else
#define Normal 0
#define Bold 1
#define Italic 2
#endif

struct lg_extgraph_state {
    int initialised;
    char font[64];
    char color[64];
    char title[128];
    int pointSize, style, penSize, eraseMode;
    double width, height;
    double savedX, savedY;
};
__attribute__((weak)) struct lg_extgraph_state lg_extgraph = {
    0, "", "", "", 12, 0, 1, 0, 0.0, 0.0, 0.0, 0.0
};

#ifdef __cplusplus
}
#endif

EXTGRAPH_FN_ struct lg_extgraph_state *ExtgraphState_(void) {
    if (!lg_extgraph.initialised) {
        lg_extgraph.initialised = 1;
        strcpy(lg_extgraph.font, "Default");
        strcpy(lg_extgraph.color, "Black");
        strcpy(lg_extgraph.title, "Graphics Window");
        lg_extgraph.width = LG_WINDOW_WIDTH;
        lg_extgraph.height = LG_WINDOW_HEIGHT;
    }
    return &lg_extgraph;
}

EXTGRAPH_FN_ void ExtgraphCopy_(char *to, size_t size, const char *from) {
    strncpy(to, from, size - 1);
    to[size - 1] = '\0';
}

/* ---- Drawing */

EXTGRAPH_FN_ void DrawEllipticalArc(double rx, double ry, double start, double sweep) {
    GraphicsArc_(rx, ry, start, sweep);
}

EXTGRAPH_FN_ void StartFilledRegion(double density) { (void) density; }
EXTGRAPH_FN_ void EndFilledRegion(void) {}

/* ---- Text */

EXTGRAPH_FN_ double TextStringWidth(EXTGRAPH_TEXT_ text) {
    return 0.1 * (double) strlen(EXTGRAPH_CSTR_(text));
}

EXTGRAPH_FN_ void DrawTextString(EXTGRAPH_TEXT_ text) {
    lg_graphics.x += TextStringWidth(text);
}

EXTGRAPH_FN_ void SetFont(EXTGRAPH_TEXT_ font) {
    ExtgraphCopy_(ExtgraphState_()->font, sizeof lg_extgraph.font, EXTGRAPH_CSTR_(font));
}
EXTGRAPH_FN_ string GetFont(void) { return EXTGRAPH_RESULT_(ExtgraphState_()->font); }
EXTGRAPH_FN_ void SetPointSize(int size) { ExtgraphState_()->pointSize = size; }
EXTGRAPH_FN_ int GetPointSize(void) { return ExtgraphState_()->pointSize; }
EXTGRAPH_FN_ void SetStyle(int style) { ExtgraphState_()->style = style; }
EXTGRAPH_FN_ int GetStyle(void) { return ExtgraphState_()->style; }
EXTGRAPH_FN_ double GetFontAscent(void) { return 0.125; }
EXTGRAPH_FN_ double GetFontDescent(void) { return 0.04; }
EXTGRAPH_FN_ double GetFontHeight(void) { return 1.0 / 6; }

/* ---- The mouse: at (0, 0), its button up; the waits return at once. */

EXTGRAPH_FN_ double GetMouseX(void) { return 0.0; }
EXTGRAPH_FN_ double GetMouseY(void) { return 0.0; }
EXTGRAPH_FN_ bool MouseButtonIsDown(void) { return false; }
EXTGRAPH_FN_ void WaitForMouseDown(void) {}
EXTGRAPH_FN_ void WaitForMouseUp(void) {}

/* ---- Colour, pen, erase mode */

EXTGRAPH_FN_ bool HasColor(void) { return true; }
EXTGRAPH_FN_ void SetPenColor(EXTGRAPH_TEXT_ color) {
    ExtgraphCopy_(ExtgraphState_()->color, sizeof lg_extgraph.color, EXTGRAPH_CSTR_(color));
}
EXTGRAPH_FN_ string GetPenColor(void) { return EXTGRAPH_RESULT_(ExtgraphState_()->color); }
EXTGRAPH_FN_ void DefineColor(EXTGRAPH_TEXT_ name, double red, double green, double blue) {
    (void) name; (void) red; (void) green; (void) blue;
}
EXTGRAPH_FN_ void SetPenSize(int size) { ExtgraphState_()->penSize = size; }
EXTGRAPH_FN_ int GetPenSize(void) { return ExtgraphState_()->penSize; }
EXTGRAPH_FN_ void SetEraseMode(bool mode) { ExtgraphState_()->eraseMode = mode ? 1 : 0; }
EXTGRAPH_FN_ bool GetEraseMode(void) { return ExtgraphState_()->eraseMode != 0; }

/* ---- The window */

EXTGRAPH_FN_ void SetWindowTitle(EXTGRAPH_TEXT_ title) {
    ExtgraphCopy_(ExtgraphState_()->title, sizeof lg_extgraph.title, EXTGRAPH_CSTR_(title));
}
EXTGRAPH_FN_ string GetWindowTitle(void) { return EXTGRAPH_RESULT_(ExtgraphState_()->title); }
EXTGRAPH_FN_ void UpdateDisplay(void) {}
EXTGRAPH_FN_ void Pause(double seconds) { (void) seconds; }
EXTGRAPH_FN_ void ExitGraphics(void) {}
EXTGRAPH_FN_ void SaveGraphicsState(void) {
    ExtgraphState_()->savedX = lg_graphics.x;
    lg_extgraph.savedY = lg_graphics.y;
}
EXTGRAPH_FN_ void RestoreGraphicsState(void) {
    lg_graphics.x = ExtgraphState_()->savedX;
    lg_graphics.y = lg_extgraph.savedY;
}
EXTGRAPH_FN_ double GetFullScreenWidth(void) { return 13.0; }
EXTGRAPH_FN_ double GetFullScreenHeight(void) { return 8.0; }
EXTGRAPH_FN_ void SetWindowSize(double width, double height) {
    ExtgraphState_()->width = width;
    lg_extgraph.height = height;
}
EXTGRAPH_FN_ double GetXResolution(void) { return 72.0; }
EXTGRAPH_FN_ double GetYResolution(void) { return 72.0; }

#undef EXTGRAPH_FN_
#undef EXTGRAPH_TEXT_
#undef EXTGRAPH_CSTR_
#undef EXTGRAPH_RESULT_

#endif /* LABGRADE_EXTGRAPH_H */
