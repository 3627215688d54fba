/*
 * File: stack.h
 * -------------
 * Imitates the Stack<ValueType> class of Roberts' C++ edition and Stanford's C++
 * libraries: push, pop, peek (and Roberts' top), size, isEmpty, clear, toString,
 * operator<< ("{1, 2, 3}", bottom first). A thin wrapper over std::deque; popping or
 * peeking an empty stack calls error() (error.h). Header only, C++ only.
 */

#ifndef LABGRADE_STACK_H
#define LABGRADE_STACK_H

#ifndef __cplusplus
#error "stack.h is a C++ header (Roberts' C++ edition / Stanford's C++ library): compile this file as C++ (.cpp)"
#else

#include "error.h"
#include <deque>
#include <ostream>
#include <sstream>
#include <string>

template <typename ValueType>
class Stack {
public:
    void push(const ValueType &value) { elements_.push_back(value); }
    ValueType pop() {
        if (elements_.empty()) error("Stack::pop: the stack is empty");
        ValueType top = elements_.back();
        elements_.pop_back();
        return top;
    }
    ValueType peek() const {
        if (elements_.empty()) error("Stack::peek: the stack is empty");
        return elements_.back();
    }
    ValueType top() const { return peek(); }
    int size() const { return (int) elements_.size(); }
    bool isEmpty() const { return elements_.empty(); }
    void clear() { elements_.clear(); }

    std::string toString() const {
        std::ostringstream os;
        os << *this;
        return os.str();
    }
    friend std::ostream &operator<<(std::ostream &os, const Stack &s) {
        os << "{";
        for (size_t i = 0; i < s.elements_.size(); i++) os << (i ? ", " : "") << s.elements_[i];
        return os << "}";
    }

private:
    std::deque<ValueType> elements_;
};

#endif /* __cplusplus */
#endif /* LABGRADE_STACK_H */
