/*
 * File: foreach.h
 * ---------------
 * Imitates foreach.h of Roberts' C++ edition libraries and Stanford's later
 * C++ libraries:
 *
 *     foreach (string word in words) { ... }
 *
 * labgrade provides it so that students' programs that use it compile
 * unchanged. Real: it is C++11's range-for, as Stanford's last version is:
 * foreach(arg) is for (arg), and "in" is a macro for ":". Like the
 * original, the macro "in" replaces every later identifier "in": the
 * standard headers that use one (ios_base::in) are included here first, but
 * a student's own variable named in, or ios::in written after this header,
 * does not compile (as with the course library). Works with every container
 * that has begin() and end(): Vector, Grid, std::vector, strings, arrays...
 * C++11 or later; C++ only.
 */

#ifndef LABGRADE_FOREACH_H
#define LABGRADE_FOREACH_H

#ifndef __cplusplus
#error "foreach.h is a C++ header (Roberts' C++ edition / Stanford's C++ library): compile this file as C++ (.cpp)"
#elif __cplusplus < 201103L
#error "labgrade's foreach.h is C++11's range-for: compile with -std=c++11 or later"
#else

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#define foreach(arg) for (arg)
#define in :

#endif /* __cplusplus */

#endif /* LABGRADE_FOREACH_H */
