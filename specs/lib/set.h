/*
 * File: set.h
 * -----------
 * Imitates the Set<ValueType> class of Stanford's C++ libraries (CS106B, 2011 on;
 * Roberts' C++ edition has the same core). labgrade provides it so that students'
 * programs written against it compile unchanged. Defined entirely in the header (a
 * template): nothing to link. C++ only.
 *
 * Real, not a no-op: a thin wrapper over std::set, so iteration is in sorted order as
 * in the course library. add, insert, remove, contains, size, isEmpty, clear, first,
 * isSubsetOf, ==, !=, + (union), * (intersection), - (difference), +=, *=, -= (with a
 * set or, for += and -=, one value), begin/end (range-for and Stanford's foreach),
 * toString, operator<< ("{1, 2, 3}").
 */

#ifndef LABGRADE_SET_H
#define LABGRADE_SET_H

#ifndef __cplusplus
#error "set.h is a C++ header (Stanford's C++ library): compile this file as C++ (.cpp)"
#else

#include "error.h"
#include <ostream>
#include <set>
#include <sstream>
#include <string>

template <typename ValueType>
class Set {
public:
    Set() {}

    void add(const ValueType &value) { elements_.insert(value); }
    void insert(const ValueType &value) { elements_.insert(value); }
    void remove(const ValueType &value) { elements_.erase(value); }
    bool contains(const ValueType &value) const { return elements_.count(value) > 0; }
    int size() const { return (int) elements_.size(); }
    bool isEmpty() const { return elements_.empty(); }
    void clear() { elements_.clear(); }

    ValueType first() const {
        if (elements_.empty()) error("Set::first: the set is empty");
        return *elements_.begin();
    }

    bool isSubsetOf(const Set &other) const {
        for (typename std::set<ValueType>::const_iterator it = elements_.begin();
             it != elements_.end(); ++it) {
            if (!other.contains(*it)) return false;
        }
        return true;
    }

    bool operator==(const Set &other) const { return elements_ == other.elements_; }
    bool operator!=(const Set &other) const { return elements_ != other.elements_; }

    Set operator+(const Set &other) const {
        Set out = *this;
        out.elements_.insert(other.elements_.begin(), other.elements_.end());
        return out;
    }
    Set operator*(const Set &other) const {
        Set out;
        for (typename std::set<ValueType>::const_iterator it = elements_.begin();
             it != elements_.end(); ++it) {
            if (other.contains(*it)) out.add(*it);
        }
        return out;
    }
    Set operator-(const Set &other) const {
        Set out;
        for (typename std::set<ValueType>::const_iterator it = elements_.begin();
             it != elements_.end(); ++it) {
            if (!other.contains(*it)) out.add(*it);
        }
        return out;
    }
    Set &operator+=(const Set &other) { return *this = *this + other; }
    Set &operator*=(const Set &other) { return *this = *this * other; }
    Set &operator-=(const Set &other) { return *this = *this - other; }
    Set &operator+=(const ValueType &value) {
        add(value);
        return *this;
    }
    Set &operator-=(const ValueType &value) {
        remove(value);
        return *this;
    }

    typename std::set<ValueType>::const_iterator begin() const { return elements_.begin(); }
    typename std::set<ValueType>::const_iterator end() const { return elements_.end(); }

    std::string toString() const {
        std::ostringstream os;
        os << *this;
        return os.str();
    }

    friend std::ostream &operator<<(std::ostream &os, const Set &s) {
        os << "{";
        bool first = true;
        for (typename std::set<ValueType>::const_iterator it = s.elements_.begin();
             it != s.elements_.end(); ++it) {
            if (!first) os << ", ";
            os << *it;
            first = false;
        }
        return os << "}";
    }

private:
    std::set<ValueType> elements_;
};

#endif /* __cplusplus */
#endif /* LABGRADE_SET_H */
