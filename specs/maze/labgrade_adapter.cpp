/*
 * labgrade's own adapter (not student code; students never compile or edit it).
 *
 * The C++ edition's exercise 4 writes FindPath with a vector of points:
 *     bool FindPath(pointT pt, Vector<pointT> & path);
 * and some courses use the standard library's:
 *     bool FindPath(pointT pt, std::vector<pointT> & path);
 * labgrade calls FindPath from Rust through a C interface, and a C++ vector cannot be made
 * from outside C++. So labgrade compiles this file beside a C++ submission, with the
 * submission's own include path (the same Vector it uses), and calls the student's
 * function through it: the adapter makes an empty vector, calls FindPath(pt, v) at the
 * address labgrade passes, and copies the vector into labgrade's path buffer.
 *
 * It is compiled plain (never counted), so every FindPath call counted is the student's.
 */

#include "mazelib.h"
#include "vector.h"

#include <vector>

typedef bool (*lg_find_vector)(pointT, Vector<pointT> &);
typedef bool (*lg_find_std_vector)(pointT, std::vector<pointT> &);

/* Copies the student's vector into path[0 .. capacity-1]; *length is the vector's size
   (larger than capacity when the vector holds more than the maze has squares). */
template <typename V>
static int lg_copy_path(bool found, const V &v, pointT path[], int capacity, int *length) {
    int n = (int) v.size();
    for (int i = 0; i < n && i < capacity; i++) {
        path[i] = v[i];
    }
    *length = n;
    return found ? 1 : 0;
}

extern "C" int labgrade_findpath_vector(void *fn, pointT pt, pointT path[], int capacity,
                                        int *length) {
    Vector<pointT> v;
    bool found = ((lg_find_vector) fn)(pt, v);
    return lg_copy_path(found, v, path, capacity, length);
}

extern "C" int labgrade_findpath_std_vector(void *fn, pointT pt, pointT path[], int capacity,
                                            int *length) {
    std::vector<pointT> v;
    bool found = ((lg_find_std_vector) fn)(pt, v);
    return lg_copy_path(found, v, path, capacity, length);
}
