/*
 * File: lg_errorhook.h
 * --------------------
 * labgrade's own part of the course libraries' error reporting; not a
 * course header (students include genlib.h, strlib.h, ... which include
 * this). It defines, once for C and C++:
 *
 *   lg_error_hook   a pointer labgrade sets in a graded run (weak here, so a
 *                   submission needs no symbol from labgrade and any number
 *                   of files may include this). Roberts' Error(msg) hands the
 *                   message to it, and labgrade's hook never returns (it
 *                   records the message and unwinds to labgrade), as
 *                   ErrorException does in Roberts' own libraries when a
 *                   handler is waiting for it. The maze-lib problem depends
 *                   on it: keep the name and the semantics.
 *   lg_error_text   Error's body: the hook if set; otherwise the program's
 *                   pending standard output is flushed, "Error: msg" and a
 *                   newline go to standard error and the program exits with
 *                   status 1.
 *
 * Everything is defined here (static, unused), so there is nothing to link.
 */

#ifndef LABGRADE_ERRORHOOK_H
#define LABGRADE_ERRORHOOK_H

#ifdef __cplusplus
#include <cstdio>
#include <cstdlib>
extern "C" {
#else
#include <stdio.h>
#include <stdlib.h>
#endif

/* Set by labgrade in a graded run (weak: your library needs no symbol from it). */
__attribute__((weak)) void (*lg_error_hook)(const char *msg) = 0;

__attribute__((unused, noreturn)) static __inline__ void lg_error_text(const char *text) {
    if (lg_error_hook) lg_error_hook(text);
    fflush(stdout);
    fprintf(stderr, "Error: %s\n", text);
    exit(1);
}

#ifdef __cplusplus
}
#endif

#endif /* LABGRADE_ERRORHOOK_H */
