/*
 * File: gtypes.h
 * --------------
 * Imitates gtypes.h of Stanford's later C++ libraries (2012 on): the value types the
 * graphics window takes, GPoint, GDimension and GRectangle. labgrade provides it so
 * that students' programs that draw (gwindow.h includes it) compile unchanged. Real,
 * not a no-op: the values are kept and given back. Defined entirely in the header
 * (inline): nothing to link. C++ only.
 */

#ifndef LABGRADE_GTYPES_H
#define LABGRADE_GTYPES_H

#ifndef __cplusplus
#error "gtypes.h is a C++ header (Stanford's C++ library): compile this file as C++ (.cpp)"
#else

class GPoint {
public:
    GPoint() : x_(0), y_(0) {}
    GPoint(double x, double y) : x_(x), y_(y) {}
    double getX() const { return x_; }
    double getY() const { return y_; }
    bool operator==(const GPoint &o) const { return x_ == o.x_ && y_ == o.y_; }
    bool operator!=(const GPoint &o) const { return !(*this == o); }

private:
    double x_, y_;
};

class GDimension {
public:
    GDimension() : width_(0), height_(0) {}
    GDimension(double width, double height) : width_(width), height_(height) {}
    double getWidth() const { return width_; }
    double getHeight() const { return height_; }

private:
    double width_, height_;
};

class GRectangle {
public:
    GRectangle() : x_(0), y_(0), width_(0), height_(0) {}
    GRectangle(double x, double y, double width, double height)
        : x_(x), y_(y), width_(width), height_(height) {}
    double getX() const { return x_; }
    double getY() const { return y_; }
    double getWidth() const { return width_; }
    double getHeight() const { return height_; }
    bool isEmpty() const { return width_ <= 0 || height_ <= 0; }
    bool contains(double x, double y) const {
        return x >= x_ && y >= y_ && x < x_ + width_ && y < y_ + height_;
    }
    bool contains(const GPoint &p) const { return contains(p.getX(), p.getY()); }

private:
    double x_, y_, width_, height_;
};

#endif /* __cplusplus */

#endif /* LABGRADE_GTYPES_H */
