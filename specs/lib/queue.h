/*
 * File: queue.h
 * -------------
 * Imitates the Queue<ValueType> class of Roberts' C++ edition and Stanford's C++
 * libraries: enqueue, dequeue, peek (and Roberts' front), size, isEmpty, clear,
 * toString, operator<< ("{1, 2, 3}", front first). A thin wrapper over std::deque;
 * dequeuing or peeking an empty queue calls error() (error.h). Header only, C++ only.
 */

#ifndef LABGRADE_QUEUE_H
#define LABGRADE_QUEUE_H

#ifndef __cplusplus
#error "queue.h is a C++ header (Roberts' C++ edition / Stanford's C++ library): compile this file as C++ (.cpp)"
#else

#include "error.h"
#include <deque>
#include <ostream>
#include <sstream>
#include <string>

template <typename ValueType>
class Queue {
public:
    void enqueue(const ValueType &value) { elements_.push_back(value); }
    ValueType dequeue() {
        if (elements_.empty()) error("Queue::dequeue: the queue is empty");
        ValueType front = elements_.front();
        elements_.pop_front();
        return front;
    }
    ValueType peek() const {
        if (elements_.empty()) error("Queue::peek: the queue is empty");
        return elements_.front();
    }
    ValueType front() const { return peek(); }
    int size() const { return (int) elements_.size(); }
    bool isEmpty() const { return elements_.empty(); }
    void clear() { elements_.clear(); }

    std::string toString() const {
        std::ostringstream os;
        os << *this;
        return os.str();
    }
    friend std::ostream &operator<<(std::ostream &os, const Queue &q) {
        os << "{";
        for (size_t i = 0; i < q.elements_.size(); i++) os << (i ? ", " : "") << q.elements_[i];
        return os << "}";
    }

private:
    std::deque<ValueType> elements_;
};

#endif /* __cplusplus */
#endif /* LABGRADE_QUEUE_H */
