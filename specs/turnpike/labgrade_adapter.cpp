/*
 * labgrade's own adapter (not student code; students never compile or edit it).
 *
 * Weiss' turnpike takes D as a dist_set, labgrade's distance set (turnpike.h). Many courses
 * write it on the standard library's multiset instead:
 *     int turnpike(int x[], std::multiset<int> & D, int n);
 * (by reference, or by value). A std::multiset cannot be made outside C++, so labgrade
 * compiles this file beside a C++ submission and calls the student's turnpike through it,
 * as it would call the one-function adapter turnpike.h documents for a distance set of
 * one's own: the adapter makes the multiset from the case's distances and calls turnpike
 * at the address labgrade passes. Under the Itanium C++ ABI a class parameter, by value or
 * by reference, travels as the address of an object the caller owns, so one call covers
 * both; n travels in a register as an int or an unsigned int alike.
 *
 * It is compiled plain (never counted), so every place call counted is the student's.
 */

#include <set>

typedef int (*lg_turnpike_multiset)(int *, std::multiset<int> *, unsigned int);

extern "C" int labgrade_turnpike_multiset(void *fn, int x[], const int distances[],
                                          unsigned int count, unsigned int n) {
    std::multiset<int> D(distances, distances + count);
    return ((lg_turnpike_multiset) fn)(x, &D, n);
}
