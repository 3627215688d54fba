/*
 * File: gwindow.h
 * ---------------
 * Imitates gwindow.h of Stanford's later C++ libraries (2012 on): the graphics window
 * GWindow, the free functions beside it (pause, getScreenWidth, ...) and what it
 * includes (gtypes.h). labgrade provides it so that students' programs that draw a
 * maze, a fractal or a board beside the graded function compile unchanged and run
 * headless: nothing is shown and nothing waits (pause returns at once). The window's
 * own state (its size, title, colour) is kept and given back. Defined entirely in the
 * header (inline): nothing to link. C++ only. Graphical objects (gobjects.h: GRect,
 * GOval, ...) are not part of it.
 */

#ifndef LABGRADE_GWINDOW_H
#define LABGRADE_GWINDOW_H

#ifndef __cplusplus
#error "gwindow.h is a C++ header (Stanford's C++ library): compile this file as C++ (.cpp)"
#else

#include <string>

#include "gtypes.h"

class GWindow {
public:
    GWindow() : width_(500), height_(300), visible_(true), color_("BLACK") {}
    explicit GWindow(bool visible) : width_(500), height_(300), visible_(visible), color_("BLACK") {}
    GWindow(double width, double height)
        : width_(width), height_(height), visible_(true), color_("BLACK") {}
    GWindow(double width, double height, bool visible)
        : width_(width), height_(height), visible_(visible), color_("BLACK") {}
    virtual ~GWindow() {}

    void close() { visible_ = false; }
    void requestFocus() {}
    void clear() {}
    void repaint() {}
    void setVisible(bool flag) { visible_ = flag; }
    bool isVisible() const { return visible_; }
    bool isOpen() const { return visible_; }

    void drawLine(const GPoint &, const GPoint &) {}
    void drawLine(double, double, double, double) {}
    GPoint drawPolarLine(const GPoint &p0, double r, double theta) {
        return drawPolarLine(p0.getX(), p0.getY(), r, theta);
    }
    GPoint drawPolarLine(double x0, double y0, double r, double theta);
    void drawOval(const GRectangle &) {}
    void drawOval(double, double, double, double) {}
    void fillOval(const GRectangle &) {}
    void fillOval(double, double, double, double) {}
    void drawRect(const GRectangle &) {}
    void drawRect(double, double, double, double) {}
    void fillRect(const GRectangle &) {}
    void fillRect(double, double, double, double) {}
    void drawString(const std::string &, double, double) {}
    void drawPixel(double, double) {}
    void drawPixel(double, double, int) {}

    void setColor(const std::string &color) { color_ = color; }
    void setColor(int rgb) { color_ = std::to_string(rgb); }
    std::string getColor() const { return color_; }
    void setFillColor(const std::string &) {}
    void setFillColor(int) {}

    double getWidth() const { return width_; }
    double getHeight() const { return height_; }
    double getCanvasWidth() const { return width_; }
    double getCanvasHeight() const { return height_; }
    void setSize(double width, double height) { width_ = width, height_ = height; }
    void setCanvasSize(double width, double height) { setSize(width, height); }
    void setWindowTitle(const std::string &title) { title_ = title; }
    void setTitle(const std::string &title) { title_ = title; }
    std::string getWindowTitle() const { return title_; }
    std::string getTitle() const { return title_; }
    void setLocation(double, double) {}
    void center() {}
    void setRepaintImmediately(bool) {}
    void setExitOnClose(bool) {}

private:
    double width_, height_;
    bool visible_;
    std::string color_, title_;
};

/* The end of a polar line from (x0, y0), r long at theta degrees (y grows downwards, as
   on the screen). */
inline GPoint GWindow::drawPolarLine(double x0, double y0, double r, double theta) {
    /* cos and sin in degrees without <cmath> (it would clash with a student's names):
       a few terms of their series after reducing theta to [-180, 180). */
    double t = theta - 360.0 * static_cast<double>(static_cast<long>(theta / 360.0));
    if (t >= 180.0) t -= 360.0;
    if (t < -180.0) t += 360.0;
    double x = t * 3.14159265358979323846 / 180.0, c = 0.0, s = 0.0, term = 1.0;
    for (int n = 0; n < 40; n++) {
        if (n % 4 == 0) c += term;
        if (n % 4 == 1) s += term;
        if (n % 4 == 2) c -= term;
        if (n % 4 == 3) s -= term;
        term = term * x / static_cast<double>(n + 1);
    }
    return GPoint(x0 + r * c, y0 - r * s);
}

/* Waits `milliseconds` in a course's program: never here (labgrade runs headless). */
inline void pause(double milliseconds) { (void) milliseconds; }
inline double getScreenWidth() { return 1024; }
inline double getScreenHeight() { return 768; }
inline void exitGraphics() {}

#endif /* __cplusplus */

#endif /* LABGRADE_GWINDOW_H */
