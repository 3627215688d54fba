/*
 * File: simpio.h
 * --------------
 * A stand-in for the simpio.h of Roberts' libraries (simple input from the
 * console), usable from C and from C++. Everything is defined in the header.
 *
 * GetInteger()  reads one line from standard input and removes the '\n' that
 *               ends it. If the line is a whole integer it returns it. A whole
 *               integer is: optional whitespace (spaces, tabs, a CR), an optional sign (+ or
 *               -), one or more decimal digits, optional whitespace (spaces, tabs, a CR), and
 *               nothing else, with a value in the range of int. Any other line
 *               makes it print
 *                   Illegal integer format. Try again.
 *               and a newline on standard output and read the next line (the
 *               caller's prompt is not printed again). At end of input it
 *               prints
 *                   GetInteger: unexpected end of input
 *               and a newline on standard error and exits with status 1.
 *               A last line without a final '\n' still counts as a line.
 *               labgrade's reference console program reads its input the same
 *               way; keep the two in step.
 *
 * GetReal()     the same for a real number (what strtod accepts, between
 *               optional whitespace (spaces, tabs, a CR)); the messages say "real" and
 *               "GetReal" instead.
 *
 * GetLine()     reads one line and returns it without its '\n'.
 *               C:   a string from malloc (free it), or NULL at end of input.
 *               C++: a std::string, empty at end of input.
 */

#ifndef LABGRADE_SIMPIO_H
#define LABGRADE_SIMPIO_H

#ifdef __cplusplus
#include <climits>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#define SIMPIO_FN_ inline
#else
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define SIMPIO_FN_ __attribute__((unused)) static
#endif

/* ---- Parsing, shared by C and C++ (s has len characters, may hold NULs) */

SIMPIO_FN_ bool SimpioIsBlank_(char c) {
    /* Any C whitespace, as Roberts' stream-based GetInteger skips: a CRLF line still reads. */
    return c == ' ' || (c >= '\t' && c <= '\r');
}

SIMPIO_FN_ bool SimpioParseInteger_(const char *s, size_t len, int *result) {
    const char *p = s;
    const char *end = s + len;
    bool negative = false;
    long long magnitude = 0;

    while (p < end && SimpioIsBlank_(*p)) p++;
    if (p < end && (*p == '+' || *p == '-')) {
        negative = (*p == '-');
        p++;
    }
    if (p == end || *p < '0' || *p > '9') return false;
    while (p < end && *p >= '0' && *p <= '9') {
        if (magnitude <= (long long) INT_MAX + 1) {
            magnitude = magnitude * 10 + (*p - '0');
        }
        p++;
    }
    while (p < end && SimpioIsBlank_(*p)) p++;
    if (p != end) return false;
    if (negative ? magnitude > (long long) INT_MAX + 1 : magnitude > INT_MAX) {
        return false;
    }
    *result = (int) (negative ? -magnitude : magnitude);
    return true;
}

/* s must also be NUL-terminated (s[len] == '\0'). */
SIMPIO_FN_ bool SimpioParseReal_(const char *s, size_t len, double *result) {
    const char *p = s;
    const char *end = s + len;
    char *stop;
    double value;

    if (strlen(s) != len) return false; /* an embedded NUL */
    while (p < end && SimpioIsBlank_(*p)) p++;
    if (p == end || *p == ' ' || (*p >= '\t' && *p <= '\r')) return false;
    value = strtod(p, &stop);
    if (stop == p) return false;
    p = stop;
    while (p < end && SimpioIsBlank_(*p)) p++;
    if (p != end) return false;
    *result = value;
    return true;
}

#ifdef __cplusplus

/* ---- C++: std::getline on std::cin, messages on std::cout / std::cerr */

SIMPIO_FN_ std::string GetLine() {
    std::string line;
    std::getline(std::cin, line);
    return line;
}

SIMPIO_FN_ int GetInteger() {
    std::string line;
    int value;
    while (true) {
        if (!std::getline(std::cin, line)) {
            std::cout.flush();
            std::cerr << "GetInteger: unexpected end of input" << std::endl;
            std::exit(1);
        }
        if (SimpioParseInteger_(line.c_str(), line.size(), &value)) return value;
        std::cout << "Illegal integer format. Try again." << std::endl;
    }
}

SIMPIO_FN_ double GetReal() {
    std::string line;
    double value;
    while (true) {
        if (!std::getline(std::cin, line)) {
            std::cout.flush();
            std::cerr << "GetReal: unexpected end of input" << std::endl;
            std::exit(1);
        }
        if (SimpioParseReal_(line.c_str(), line.size(), &value)) return value;
        std::cout << "Illegal real format. Try again." << std::endl;
    }
}

#else

/* ---- C: stdio on stdin, messages on stdout / stderr */

/*
 * Reads one line, without its '\n', into a string from malloc and stores its
 * length in *lengthp; returns NULL at end of input. Lines of any length.
 */
SIMPIO_FN_ char *SimpioReadLine_(size_t *lengthp) {
    size_t capacity = 128;
    size_t n = 0;
    char *line = (char *) malloc(capacity);
    int ch = EOF;

    if (line == NULL) {
        fflush(stdout);
        fprintf(stderr, "simpio: out of memory\n");
        exit(1);
    }
    while ((ch = getc(stdin)) != EOF && ch != '\n') {
        if (n + 1 >= capacity) {
            char *bigger = (char *) realloc(line, capacity * 2);
            if (bigger == NULL) {
                free(line);
                fflush(stdout);
                fprintf(stderr, "simpio: out of memory\n");
                exit(1);
            }
            line = bigger;
            capacity *= 2;
        }
        line[n++] = (char) ch;
    }
    if (ch == EOF && n == 0) {
        free(line);
        return NULL;
    }
    line[n] = '\0';
    *lengthp = n;
    return line;
}

SIMPIO_FN_ char *GetLine(void) {
    size_t length;
    return SimpioReadLine_(&length);
}

SIMPIO_FN_ int GetInteger(void) {
    while (true) {
        size_t length;
        int value;
        bool ok;
        char *line = SimpioReadLine_(&length);
        if (line == NULL) {
            fflush(stdout);
            fprintf(stderr, "GetInteger: unexpected end of input\n");
            exit(1);
        }
        ok = SimpioParseInteger_(line, length, &value);
        free(line);
        if (ok) return value;
        printf("Illegal integer format. Try again.\n");
    }
}

SIMPIO_FN_ double GetReal(void) {
    while (true) {
        size_t length;
        double value;
        bool ok;
        char *line = SimpioReadLine_(&length);
        if (line == NULL) {
            fflush(stdout);
            fprintf(stderr, "GetReal: unexpected end of input\n");
            exit(1);
        }
        ok = SimpioParseReal_(line, length, &value);
        free(line);
        if (ok) return value;
        printf("Illegal real format. Try again.\n");
    }
}

#endif /* __cplusplus */

#undef SIMPIO_FN_

#endif /* LABGRADE_SIMPIO_H */
