/*
 * File: simpio.h
 * --------------
 * Imitates simpio.h (simple input from the console) of Eric Roberts'
 * libraries, C edition and C++ edition, and, in C++, the simpio.h of
 * Stanford's later C++ libraries (CS106B, 2011 on). labgrade provides it so
 * that the books' programs, and students' programs written against any of
 * these, compile unchanged. Everything is defined in the header (static in
 * C, inline in C++): nothing to link, and no -Wall -Wextra warning for code
 * that includes it without calling anything. Nothing here is a no-op.
 *
 * Roberts' functions (C and C++):
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
 *
 * ReadLine(f)   C only (the C edition's): GetLine from the stream f.
 *
 * Stanford's functions (C++ only):
 *
 * getInteger(prompt = "", reprompt = "")
 *               prints prompt (as it is, no newline) and reads one line; a
 *               whole integer (as for GetInteger) is returned. Otherwise it
 *               prints reprompt, or by default
 *                   Illegal integer format. Try again.
 *               and a newline, and asks again: prints the prompt again (as
 *               Stanford's does; an empty prompt becomes "Enter an integer: ")
 *               and reads the next line. At end of input it prints
 *                   getInteger: unexpected end of input
 *               and a newline on standard error and exits with status 1, as
 *               GetInteger does. NOTE: because the prompt is printed again,
 *               a bad line makes the transcript differ from the books'
 *               GetInteger, which does not repeat the caller's prompt.
 * getReal(prompt = "", reprompt = ""), getDouble(...)
 *               the same for a real number: "Illegal numeric format. Try
 *               again.", "Enter a number: ", "getReal: unexpected end of input".
 * getIntegerBetween(prompt, min, max)
 *               getInteger until the value is in [min, max]; otherwise
 *               "Please enter a number between min and max." and again.
 * getLine(prompt = "")
 *               prints prompt, reads one line, returns it without its '\n'
 *               (empty at end of input).
 * getYesOrNo(prompt = "", reprompt = "", defaultValue = "")
 *               prints prompt and reads a line until it starts with y/Y
 *               (true) or n/N (false); an empty line answers defaultValue
 *               when it is given. Otherwise it prints reprompt, or by default
 *                   Please type a word that starts with 'Y' or 'N'.
 *               and a newline, and asks again. At end of input:
 *               "getYesOrNo: unexpected end of input" on standard error, exit 1.
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


/* ---- C++: Stanford's later simpio (prompt as an argument) */

/* Reads one line into line, or prints "<who>: unexpected end of input" and exits. */
SIMPIO_FN_ void SimpioGetLineOrExit_(std::string &line, const char *who) {
    if (!std::getline(std::cin, line)) {
        std::cout.flush();
        std::cerr << who << ": unexpected end of input" << std::endl;
        std::exit(1);
    }
}

SIMPIO_FN_ int getInteger(const std::string &prompt = "",
                          const std::string &reprompt = "") {
    std::string askWith = prompt;
    std::string line;
    int value;
    while (true) {
        std::cout << askWith;
        SimpioGetLineOrExit_(line, "getInteger");
        if (SimpioParseInteger_(line.c_str(), line.size(), &value)) return value;
        std::cout << (reprompt.empty() ? std::string("Illegal integer format. Try again.")
                                       : reprompt) << std::endl;
        if (askWith.empty()) askWith = "Enter an integer: ";
    }
}

SIMPIO_FN_ double getReal(const std::string &prompt = "",
                          const std::string &reprompt = "") {
    std::string askWith = prompt;
    std::string line;
    double value;
    while (true) {
        std::cout << askWith;
        SimpioGetLineOrExit_(line, "getReal");
        if (SimpioParseReal_(line.c_str(), line.size(), &value)) return value;
        std::cout << (reprompt.empty() ? std::string("Illegal numeric format. Try again.")
                                       : reprompt) << std::endl;
        if (askWith.empty()) askWith = "Enter a number: ";
    }
}

SIMPIO_FN_ double getDouble(const std::string &prompt = "",
                            const std::string &reprompt = "") {
    return getReal(prompt, reprompt);
}

SIMPIO_FN_ int getIntegerBetween(const std::string &prompt, int min, int max) {
    while (true) {
        int value = getInteger(prompt);
        if (value >= min && value <= max) return value;
        std::cout << "Please enter a number between " << min << " and " << max << "."
                  << std::endl;
    }
}

SIMPIO_FN_ std::string getLine(const std::string &prompt = "") {
    std::string line;
    std::cout << prompt;
    std::getline(std::cin, line);
    return line;
}

SIMPIO_FN_ bool getYesOrNo(const std::string &prompt = "",
                           const std::string &reprompt = "",
                           const std::string &defaultValue = "") {
    std::string line;
    while (true) {
        std::cout << prompt;
        SimpioGetLineOrExit_(line, "getYesOrNo");
        std::string answer = line;
        size_t start = 0;
        while (start < answer.size() && SimpioIsBlank_(answer[start])) start++;
        answer = answer.substr(start);
        if (answer.empty()) answer = defaultValue;
        if (!answer.empty()) {
            if (answer[0] == 'y' || answer[0] == 'Y') return true;
            if (answer[0] == 'n' || answer[0] == 'N') return false;
        }
        std::cout << (reprompt.empty()
                          ? std::string("Please type a word that starts with 'Y' or 'N'.")
                          : reprompt) << std::endl;
    }
}

#else

/* ---- C: stdio on stdin, messages on stdout / stderr */

/*
 * Reads one line from infile, without its '\n', into a string from malloc and
 * stores its length in *lengthp; returns NULL at end of input. Lines of any
 * length.
 */
SIMPIO_FN_ char *SimpioReadLineFrom_(FILE *infile, size_t *lengthp) {
    size_t capacity = 128;
    size_t n = 0;
    char *line = (char *) malloc(capacity);
    int ch = EOF;

    if (line == NULL) {
        fflush(stdout);
        fprintf(stderr, "simpio: out of memory\n");
        exit(1);
    }
    while ((ch = getc(infile)) != EOF && ch != '\n') {
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

SIMPIO_FN_ char *SimpioReadLine_(size_t *lengthp) {
    return SimpioReadLineFrom_(stdin, lengthp);
}

SIMPIO_FN_ char *GetLine(void) {
    size_t length;
    return SimpioReadLine_(&length);
}

/* The C edition's ReadLine: one line of infile, NULL at end of file. */
SIMPIO_FN_ char *ReadLine(FILE *infile) {
    size_t length;
    return SimpioReadLineFrom_(infile, &length);
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
