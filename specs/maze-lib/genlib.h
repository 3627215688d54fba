/*
 * File: genlib.h
 * --------------
 * A small stand-in for the genlib.h of Roberts' libraries, for exercise 1
 * under labgrade: C or C++.
 *
 * C++: brings in <string>, <iostream> and <cstdlib> and says
 *      "using namespace std;", as Roberts' genlib.h does.
 * C:   brings in <stdbool.h>, <stdio.h>, <stdlib.h>, and typedef char *string.
 *
 * Error(msg) reports an error that the program cannot recover from. As in
 * Roberts' libraries, where Error raises ErrorException when a handler is
 * waiting for it: under labgrade it hands the message to labgrade (through
 * lg_error_hook, which labgrade sets) and never returns to your code; anywhere
 * else it prints "Error: msg" on standard error and exits with status 1.
 * Report every malformed map with Error: exiting the program yourself is a
 * crash as far as the grader can tell.
 */

#ifndef LABGRADE_GENLIB_H
#define LABGRADE_GENLIB_H

#ifdef __cplusplus
#include <string>
#include <iostream>
#include <cstdlib>
#include <cstdio>
#include <cstdarg>
using namespace std;
extern "C" {
#else
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
typedef char *string;
#endif

/* Set by labgrade in a graded run (weak: your library needs no symbol from it). */
__attribute__((weak)) void (*lg_error_hook)(const char *msg) = 0;

__attribute__((unused, noreturn)) static inline void lg_error_text(const char *text) {
    if (lg_error_hook) lg_error_hook(text);
    fflush(stdout);
    fprintf(stderr, "Error: %s\n", text);
    exit(1);
}

#ifdef __cplusplus
}

[[noreturn]] inline void Error(string msg) {
    lg_error_text(msg.c_str());
}

#else /* C: Error(format, ...) as printf */

__attribute__((unused, noreturn, format(printf, 1, 2)))
static void Error(const char *msg, ...) {
    char text[1024];
    va_list args;
    va_start(args, msg);
    vsnprintf(text, sizeof text, msg, args);
    va_end(args);
    lg_error_text(text);
}

#endif /* __cplusplus */

#endif /* LABGRADE_GENLIB_H */
