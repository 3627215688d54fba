/*
 * File: vector.h
 * --------------
 * Imitates the Vector<ValueType> class of Roberts' C++ edition libraries
 * ("Programming Abstractions in C++", CS106B 2008) and of Stanford's later
 * C++ libraries (2011 on). labgrade provides it so that students' programs
 * written against either compile unchanged. Defined entirely in the header
 * (a template): nothing to link. C++ only (the C edition has no vector.h).
 *
 * Real, not a no-op: a thin wrapper over a standard container (std::deque,
 * not std::vector, so that Vector<bool> gives real bool& references as the
 * course libraries' does). Indices are checked: an index out of range calls
 * error() (error.h: throws ErrorException; uncaught, the program terminates).
 *
 *   Stanford: Vector(), Vector(n, value), Vector{a, b, c} (C++11), add,
 *             push_back, size, isEmpty, get, set, insert, remove, clear,
 *             operator[], begin/end (range-for and Stanford's foreach),
 *             contains, indexOf, front, back, removeFront, removeBack,
 *             equals, ==, !=, +=, toString, operator<< ("{1, 2, 3}").
 *   Roberts:  getAt, setAt, insertAt, removeAt, add, size, isEmpty, clear,
 *             iterator() with hasNext()/next().
 *   A Vector<T> converts from a std::vector<T> (strlib.h's stringSplit).
 */

#ifndef LABGRADE_VECTOR_H
#define LABGRADE_VECTOR_H

#ifndef __cplusplus
#error "vector.h is a C++ header (Roberts' C++ edition / Stanford's C++ library): compile this file as C++ (.cpp)"
#else

#include "error.h"
#include <deque>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>
#if __cplusplus >= 201103L
#include <initializer_list>
#endif

template <typename ValueType>
class Vector {
public:
    typedef std::deque<ValueType> storage_type;

    Vector() {}
    explicit Vector(int n, const ValueType &value = ValueType())
        : elements_(n < 0 ? 0 : (size_t) n, value) {}
    Vector(const std::vector<ValueType> &v) : elements_(v.begin(), v.end()) {}
#if __cplusplus >= 201103L
    Vector(std::initializer_list<ValueType> list) : elements_(list.begin(), list.end()) {}
#endif

    int size() const { return (int) elements_.size(); }
    bool isEmpty() const { return elements_.empty(); }
    void clear() { elements_.clear(); }

    void add(const ValueType &value) { elements_.push_back(value); }
    void push_back(const ValueType &value) { elements_.push_back(value); }

    ValueType &get(int index) { check(index, "get"); return elements_[index]; }
    const ValueType &get(int index) const { check(index, "get"); return elements_[index]; }
    void set(int index, const ValueType &value) { check(index, "set"); elements_[index] = value; }
    void insert(int index, const ValueType &value) {
        if (index < 0 || index > size()) error("Vector::insert: index out of range");
        elements_.insert(elements_.begin() + index, value);
    }
    void remove(int index) { check(index, "remove"); elements_.erase(elements_.begin() + index); }

    /* Roberts' C++ edition names */
    ValueType &getAt(int index) { check(index, "getAt"); return elements_[index]; }
    const ValueType &getAt(int index) const { check(index, "getAt"); return elements_[index]; }
    void setAt(int index, const ValueType &value) { check(index, "setAt"); elements_[index] = value; }
    void insertAt(int index, const ValueType &value) {
        if (index < 0 || index > size()) error("Vector::insertAt: index out of range");
        elements_.insert(elements_.begin() + index, value);
    }
    void removeAt(int index) { check(index, "removeAt"); elements_.erase(elements_.begin() + index); }

    ValueType &operator[](int index) { check(index, "operator []"); return elements_[index]; }
    const ValueType &operator[](int index) const {
        check(index, "operator []");
        return elements_[index];
    }

    ValueType &front() { check(0, "front"); return elements_.front(); }
    const ValueType &front() const { check(0, "front"); return elements_.front(); }
    ValueType &back() { check(size() - 1, "back"); return elements_.back(); }
    const ValueType &back() const { check(size() - 1, "back"); return elements_.back(); }
    ValueType removeFront() {
        ValueType value = front();
        elements_.pop_front();
        return value;
    }
    ValueType removeBack() {
        ValueType value = back();
        elements_.pop_back();
        return value;
    }

    bool contains(const ValueType &value) const { return indexOf(value) >= 0; }
    int indexOf(const ValueType &value) const {
        for (size_t i = 0; i < elements_.size(); i++) {
            if (elements_[i] == value) return (int) i;
        }
        return -1;
    }

    bool equals(const Vector &other) const { return elements_ == other.elements_; }
    bool operator==(const Vector &other) const { return elements_ == other.elements_; }
    bool operator!=(const Vector &other) const { return elements_ != other.elements_; }
    Vector &operator+=(const ValueType &value) { add(value); return *this; }
    Vector &operator+=(const Vector &other) {
        storage_type copy = other.elements_;
        elements_.insert(elements_.end(), copy.begin(), copy.end());
        return *this;
    }

    typename storage_type::iterator begin() { return elements_.begin(); }
    typename storage_type::iterator end() { return elements_.end(); }
    typename storage_type::const_iterator begin() const { return elements_.begin(); }
    typename storage_type::const_iterator end() const { return elements_.end(); }

    /* Roberts' C++ edition iterator: while (it.hasNext()) x = it.next(); */
    class Iterator {
    public:
        Iterator() : vector_(0), index_(0) {}
        explicit Iterator(const Vector *vector) : vector_(vector), index_(0) {}
        bool hasNext() const { return vector_ != 0 && index_ < vector_->size(); }
        ValueType next() {
            if (!hasNext()) error("Vector::Iterator::next: no more elements");
            return (*vector_)[index_++];
        }
    private:
        const Vector *vector_;
        int index_;
    };
    Iterator iterator() const { return Iterator(this); }

    std::string toString() const {
        std::ostringstream stream;
        stream << *this;
        return stream.str();
    }

    friend std::ostream &operator<<(std::ostream &os, const Vector &v) {
        os << "{";
        for (size_t i = 0; i < v.elements_.size(); i++) {
            if (i > 0) os << ", ";
            os << v.elements_[i];
        }
        return os << "}";
    }

private:
    void check(int index, const char *what) const {
        if (index < 0 || index >= size()) {
            error(std::string("Vector::") + what + ": index out of range");
        }
    }

    storage_type elements_;
};

#endif /* __cplusplus */

#endif /* LABGRADE_VECTOR_H */
