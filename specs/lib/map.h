/*
 * File: map.h
 * -----------
 * Imitates the Map<KeyType, ValueType> class of Stanford's C++ libraries (Roberts' C++
 * edition has the same core with string keys): put, get (the default value when the key
 * is absent, as the course library), containsKey, remove, size, isEmpty, clear, keys,
 * operator[] (inserts the default value), begin/end over the keys in sorted order
 * (range-for and Stanford's foreach), ==, !=, toString, operator<< ("{a:1, b:2}").
 * A thin wrapper over std::map. Header only, C++ only.
 */

#ifndef LABGRADE_MAP_H
#define LABGRADE_MAP_H

#ifndef __cplusplus
#error "map.h is a C++ header (Roberts' C++ edition / Stanford's C++ library): compile this file as C++ (.cpp)"
#else

#include "vector.h"
#include <map>
#include <ostream>
#include <sstream>
#include <string>

template <typename KeyType, typename ValueType>
class Map {
public:
    /* Iterates over the keys, as the course library's foreach does. */
    class const_iterator {
    public:
        explicit const_iterator(typename std::map<KeyType, ValueType>::const_iterator it)
            : it_(it) {}
        const KeyType &operator*() const { return it_->first; }
        const KeyType *operator->() const { return &it_->first; }
        const_iterator &operator++() {
            ++it_;
            return *this;
        }
        bool operator==(const const_iterator &o) const { return it_ == o.it_; }
        bool operator!=(const const_iterator &o) const { return it_ != o.it_; }

    private:
        typename std::map<KeyType, ValueType>::const_iterator it_;
    };

    void put(const KeyType &key, const ValueType &value) { entries_[key] = value; }
    ValueType get(const KeyType &key) const {
        typename std::map<KeyType, ValueType>::const_iterator it = entries_.find(key);
        return it == entries_.end() ? ValueType() : it->second;
    }
    bool containsKey(const KeyType &key) const { return entries_.count(key) > 0; }
    void remove(const KeyType &key) { entries_.erase(key); }
    int size() const { return (int) entries_.size(); }
    bool isEmpty() const { return entries_.empty(); }
    void clear() { entries_.clear(); }
    ValueType &operator[](const KeyType &key) { return entries_[key]; }
    ValueType operator[](const KeyType &key) const { return get(key); }

    Vector<KeyType> keys() const {
        Vector<KeyType> out;
        for (const_iterator it = begin(); it != end(); ++it) out.add(*it);
        return out;
    }

    bool operator==(const Map &other) const { return entries_ == other.entries_; }
    bool operator!=(const Map &other) const { return entries_ != other.entries_; }

    const_iterator begin() const { return const_iterator(entries_.begin()); }
    const_iterator end() const { return const_iterator(entries_.end()); }

    std::string toString() const {
        std::ostringstream os;
        os << *this;
        return os.str();
    }
    friend std::ostream &operator<<(std::ostream &os, const Map &m) {
        os << "{";
        bool first = true;
        for (typename std::map<KeyType, ValueType>::const_iterator it = m.entries_.begin();
             it != m.entries_.end(); ++it) {
            if (!first) os << ", ";
            os << it->first << ":" << it->second;
            first = false;
        }
        return os << "}";
    }

private:
    std::map<KeyType, ValueType> entries_;
};

#endif /* __cplusplus */
#endif /* LABGRADE_MAP_H */
