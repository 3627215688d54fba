/*
 * File: grid.h
 * ------------
 * Imitates the Grid<ValueType> class of Roberts' C++ edition libraries
 * ("Programming Abstractions in C++", CS106B 2008) and of Stanford's later
 * C++ libraries (2011 on). labgrade provides it so that students' programs
 * written against either compile unchanged. Defined entirely in the header
 * (a template): nothing to link. C++ only (the C edition has no grid.h).
 *
 * Real, not a no-op: rows x columns values in row-major order, in a
 * std::deque (so that Grid<bool> gives real bool& references, as the course
 * libraries' does). Indices are checked: out of range calls error()
 * (error.h: throws ErrorException; uncaught, the program terminates).
 *
 *   Grid(), Grid(rows, cols), Grid(rows, cols, value)
 *   numRows, numCols (Stanford also: height, width), isEmpty, size
 *   get(row, col), set(row, col, value)         Stanford
 *   getAt(row, col), setAt(row, col, value)     Roberts
 *   inBounds(row, col), resize(rows, cols) (every value reset to ValueType()),
 *   fill(value), grid[row][col], begin/end (row-major, range-for and
 *   foreach), grid(row, col), ==, !=, toString, operator<< ("{{1, 2}, {3, 4}}").
 */

#ifndef LABGRADE_GRID_H
#define LABGRADE_GRID_H

#ifndef __cplusplus
#error "grid.h is a C++ header (Roberts' C++ edition / Stanford's C++ library): compile this file as C++ (.cpp)"
#else

#include "error.h"
#include <deque>
#include <ostream>
#include <sstream>
#include <string>

template <typename ValueType>
class Grid {
public:
    typedef std::deque<ValueType> storage_type;

    Grid() : rows_(0), cols_(0) {}
    Grid(int rows, int cols) : rows_(0), cols_(0) { resize(rows, cols); }
    Grid(int rows, int cols, const ValueType &value) : rows_(0), cols_(0) {
        resize(rows, cols);
        fill(value);
    }

    int numRows() const { return rows_; }
    int numCols() const { return cols_; }
    int height() const { return rows_; }
    int width() const { return cols_; }
    int size() const { return rows_ * cols_; }
    bool isEmpty() const { return rows_ == 0 || cols_ == 0; }

    void resize(int rows, int cols) {
        if (rows < 0 || cols < 0) error("Grid::resize: the dimensions must be non-negative");
        rows_ = rows;
        cols_ = cols;
        elements_.assign((size_t) rows * (size_t) cols, ValueType());
    }

    bool inBounds(int row, int col) const {
        return row >= 0 && col >= 0 && row < rows_ && col < cols_;
    }

    ValueType &get(int row, int col) { return at(row, col, "get"); }
    const ValueType &get(int row, int col) const { return at(row, col, "get"); }
    void set(int row, int col, const ValueType &value) { at(row, col, "set") = value; }
    ValueType &getAt(int row, int col) { return at(row, col, "getAt"); }
    const ValueType &getAt(int row, int col) const { return at(row, col, "getAt"); }
    void setAt(int row, int col, const ValueType &value) { at(row, col, "setAt") = value; }

    void fill(const ValueType &value) {
        for (size_t i = 0; i < elements_.size(); i++) elements_[i] = value;
    }

    /* grid[row][col] */
    class GridRow {
    public:
        GridRow(Grid *grid, int row) : grid_(grid), row_(row) {}
        ValueType &operator[](int col) { return grid_->at(row_, col, "operator [][]"); }
    private:
        Grid *grid_;
        int row_;
    };
    class ConstGridRow {
    public:
        ConstGridRow(const Grid *grid, int row) : grid_(grid), row_(row) {}
        const ValueType &operator[](int col) const {
            return grid_->at(row_, col, "operator [][]");
        }
    private:
        const Grid *grid_;
        int row_;
    };
    GridRow operator[](int row) { return GridRow(this, row); }
    ConstGridRow operator[](int row) const { return ConstGridRow(this, row); }

    /* grid(row, col): Stanford's later libraries */
    ValueType &operator()(int row, int col) { return at(row, col, "operator ()"); }
    const ValueType &operator()(int row, int col) const { return at(row, col, "operator ()"); }

    typename storage_type::iterator begin() { return elements_.begin(); }
    typename storage_type::iterator end() { return elements_.end(); }
    typename storage_type::const_iterator begin() const { return elements_.begin(); }
    typename storage_type::const_iterator end() const { return elements_.end(); }

    bool operator==(const Grid &other) const {
        return rows_ == other.rows_ && cols_ == other.cols_ && elements_ == other.elements_;
    }
    bool operator!=(const Grid &other) const { return !(*this == other); }

    std::string toString() const {
        std::ostringstream stream;
        stream << *this;
        return stream.str();
    }

    friend std::ostream &operator<<(std::ostream &os, const Grid &g) {
        os << "{";
        for (int r = 0; r < g.rows_; r++) {
            if (r > 0) os << ", ";
            os << "{";
            for (int c = 0; c < g.cols_; c++) {
                if (c > 0) os << ", ";
                os << g.elements_[(size_t) r * g.cols_ + c];
            }
            os << "}";
        }
        return os << "}";
    }

private:
    ValueType &at(int row, int col, const char *what) {
        if (!inBounds(row, col)) error(std::string("Grid::") + what + ": index out of range");
        return elements_[(size_t) row * cols_ + col];
    }
    const ValueType &at(int row, int col, const char *what) const {
        if (!inBounds(row, col)) error(std::string("Grid::") + what + ": index out of range");
        return elements_[(size_t) row * cols_ + col];
    }

    int rows_, cols_;
    storage_type elements_;
};

#endif /* __cplusplus */

#endif /* LABGRADE_GRID_H */
