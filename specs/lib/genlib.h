/*
 * File: genlib.h
 * --------------
 * Imitates genlib.h of Eric Roberts' libraries: the C edition ("The Art and
 * Science of C", "Programming Abstractions in C", the cslib library) and the
 * C++ edition ("Programming Abstractions in C++", CS106B/X). labgrade
 * provides it so that the books' programs, and students' programs written
 * against either edition, compile unchanged. Everything is defined in this
 * header (static in C, inline in C++): there is nothing to link, and code
 * that includes it without calling anything gets no warning under
 * -Wall -Wextra.
 *
 * C (gcc -std=gnu89, c99, c11, ...):
 *   <stdbool.h>, <stdio.h>, <stdlib.h>, <string.h>
 *   typedef char *string;
 *   bool is C99's (stdbool.h); TRUE and FALSE are true and false.
 *   typedef void *genericPtrT;  UNDEFINED;  repeat (for (;;))
 *   GetBlock(nbytes)     malloc, and Error("No memory available") on failure
 *   FreeBlock(ptr)       free
 *   New(pointerType)     a block the size of what pointerType points to, as
 *                        in the book: New(nodeT *) (or a typedef'd pointer)
 *   NewArray(n, type)    an array of n elements of type
 *   Error(format, ...)   printf-style, like the C edition's. (Not declared
 *                        with the printf format attribute: the real library
 *                        had none, and a warning it never gave would cost a
 *                        student the no-warnings point.)
 *
 * C++ (g++ -std=c++98 .. c++17):
 *   <string>, <iostream>, <cstdlib> and "using namespace std;", as Roberts'
 *   genlib.h does (the book's programs write cout, endl and string
 *   unqualified and rely on it).
 *   Error(string msg)
 *   TRUE and FALSE (true and false: some course code still uses them).
 *
 * Error, both languages: real, not a no-op. In a graded run it hands the
 * message to labgrade through lg_error_hook (see lg_errorhook.h) and never
 * returns to the caller, as Roberts' ErrorException does when a handler is
 * waiting for it; anywhere else it flushes standard output, prints
 * "Error: msg" on standard error and exits with status 1.
 */

#ifndef LABGRADE_GENLIB_H
#define LABGRADE_GENLIB_H

#include "lg_errorhook.h"

#ifdef __cplusplus

#include <string>
#include <iostream>
#include <cstdlib>
#include <cstdio>

using namespace std;

#ifndef TRUE
#define TRUE true
#endif
#ifndef FALSE
#define FALSE false
#endif

__attribute__((noreturn)) inline void Error(string msg) {
    cout.flush();
    lg_error_text(msg.c_str());
}

#ifdef LG_C_AS_CPP
/* A C edition source compiled as C++ (labgrade's game-side driver shares its translation
 * unit): the C edition's allocation, as below. */
inline void *GetBlock(size_t nbytes) {
    void *result = malloc(nbytes == 0 ? 1 : nbytes);
    if (result == NULL) Error("No memory available");
    return result;
}
inline void FreeBlock(void *ptr) { free(ptr); }
#define New(type) ((type) GetBlock(sizeof *((type) NULL)))
#define NewArray(n, type) ((type *) GetBlock((n) * sizeof (type)))
#endif

#else /* C */

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>

typedef char *string;
typedef void *genericPtrT;

#ifndef TRUE
#define TRUE true
#endif
#ifndef FALSE
#define FALSE false
#endif

/* The C edition's sentinel for "no value": a unique address. */
__attribute__((weak)) char undefined_object[1];
#define UNDEFINED ((void *) undefined_object)

#define repeat for (;;)

__attribute__((unused, noreturn))
static void Error(const char *msg, ...) {
    char text[1024];
    va_list args;
    va_start(args, msg);
    __builtin_vsnprintf(text, sizeof text, msg, args); /* declared even in strict C89 */
    va_end(args);
    lg_error_text(text);
}

__attribute__((unused))
static void *GetBlock(size_t nbytes) {
    void *result = malloc(nbytes == 0 ? 1 : nbytes);
    if (result == NULL) Error("No memory available");
    return result;
}

__attribute__((unused))
static void FreeBlock(void *ptr) {
    free(ptr);
}

#define New(type) ((type) GetBlock(sizeof *((type) NULL)))
#define NewArray(n, type) ((type *) GetBlock((n) * sizeof (type)))

#endif /* __cplusplus */

#endif /* LABGRADE_GENLIB_H */
