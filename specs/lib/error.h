/*
 * File: error.h
 * -------------
 * Imitates error.h of Stanford's C++ libraries (CS106B/X, 2011 on): the
 * class ErrorException and the function error(msg). labgrade provides it so
 * that students' programs written against that library compile unchanged.
 * Defined entirely in the header (inline): nothing to link.
 *
 * Real, not a no-op: error(msg) throws ErrorException(msg), as Stanford's
 * does. A program may catch it (getMessage() and what() give msg); uncaught,
 * it terminates the program (std::terminate, SIGABRT), which is also what
 * Stanford's library does once it has printed its banner.
 *
 * This file has the name of glibc's <error.h> (error(3)). A file that
 * includes <error.h> for glibc's error() still gets it: the system header is
 * included first (#include_next) when there is one, and in C that is all
 * this header does (Stanford's error.h was C++ only). In C++ the two error
 * functions are overloads of each other.
 */

#ifndef LABGRADE_ERROR_H
#define LABGRADE_ERROR_H

#if defined(__has_include_next)
#if __has_include_next(<error.h>)
/* #include_next is a GCC extension: keep -Wpedantic quiet about it. */
#pragma GCC system_header
#include_next <error.h>
#endif
#endif

#ifdef __cplusplus

#include <exception>
#include <string>

class ErrorException : public std::exception {
public:
    explicit ErrorException(const std::string &msg) : message_(msg) {}
    virtual ~ErrorException() throw() {}
    virtual std::string getMessage() const { return message_; }
    virtual const char *what() const throw() { return message_.c_str(); }
private:
    std::string message_;
};

__attribute__((noreturn)) inline void error(const std::string &msg) {
    throw ErrorException(msg);
}

#endif /* __cplusplus */

#endif /* LABGRADE_ERROR_H */
