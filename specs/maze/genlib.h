/*
 * File: genlib.h
 * --------------
 * A small stand-in for the genlib.h of Roberts' libraries, enough for the
 * book's programs to compile as C or as C++ under labgrade.
 *
 * C++: brings in <string>, <iostream> and <cstdlib> and says
 *      "using namespace std;", as Roberts' genlib.h does (the book's nim.cpp
 *      writes cout and endl unqualified and relies on this).
 * C:   brings in <stdbool.h>, <stdio.h> and <stdlib.h>.
 *
 * Error(msg) prints "Error: msg" on standard error and exits with status 1.
 *
 * Everything is defined in the header (inline in C++, static in C), so there
 * is no library to link, and nothing here makes -Wall -Wextra warn in code
 * that includes it but never calls Error.
 */

#ifndef LABGRADE_GENLIB_H
#define LABGRADE_GENLIB_H

#ifdef __cplusplus

#include <string>
#include <iostream>
#include <cstdlib>

using namespace std;

[[noreturn]] inline void Error(string msg) {
    cout.flush();
    cerr << "Error: " << msg << endl;
    exit(1);
}

#else /* C */

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((unused, noreturn))
static void Error(const char *msg) {
    fflush(stdout);
    fprintf(stderr, "Error: %s\n", msg);
    exit(1);
}

#endif /* __cplusplus */

#endif /* LABGRADE_GENLIB_H */
