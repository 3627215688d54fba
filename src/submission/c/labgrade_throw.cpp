/*
 * labgrade_throw.cpp: which C++ exception escaped a graded function.
 *
 * labgrade calls a C++ submission's functions from its worker, which is not C++: an
 * exception that nothing in the student's code catches cannot be caught there, and the
 * process aborts without C++'s usual "terminate called after throwing ..." line. This
 * helper, linked into every C++ library labgrade builds (never into the student's own
 * program, whose C++ runtime says it itself), notes each exception as it is thrown (its
 * type, and what() for a std::exception) and forgets it when a handler catches it. The
 * worker asks, as the process aborts, what was in flight (labgrade_uncaught_exception),
 * and writes it to standard error in C++'s own words.
 *
 * __cxa_throw and __cxa_begin_catch are defined here and forward to the C++ runtime's
 * (found with RTLD_NEXT): the library defines them, so its own throws and those of the
 * C++ runtime it loads (std::vector::at, std::stoi) come here first. Noting costs a copy of
 * what(): nothing is printed, nothing else changes.
 */
#include <dlfcn.h>
#include <stddef.h>
#include <string.h>

#include <exception>
#include <typeinfo>

extern "C" char *__cxa_demangle(const char *, char *, size_t *, int *);

namespace {
const std::type_info *in_flight;
char what_text[512];
bool has_what;

void append(char *out, size_t cap, size_t *at, const char *s) {
    while (*s && *at + 1 < cap) out[(*at)++] = *s++;
    out[*at] = 0;
}
} // namespace

typedef void (*lg_throw_fn)(void *, std::type_info *, void (*)(void *));
typedef void *(*lg_catch_fn)(void *);

extern "C" __attribute__((noreturn)) void __cxa_throw(void *obj, std::type_info *type,
                                                      void (*dest)(void *)) {
    static lg_throw_fn real = (lg_throw_fn)dlsym(RTLD_NEXT, "__cxa_throw");
    in_flight = type;
    has_what = false;
    void *adjusted = obj;
    if (type && typeid(std::exception).__do_catch(type, &adjusted, 1)) {
        const char *w = static_cast<std::exception *>(adjusted)->what();
        strncpy(what_text, w ? w : "", sizeof what_text - 1);
        what_text[sizeof what_text - 1] = 0;
        has_what = true;
    }
    real(obj, type, dest);
    __builtin_unreachable();
}

extern "C" void *__cxa_begin_catch(void *exception) {
    static lg_catch_fn real = (lg_catch_fn)dlsym(RTLD_NEXT, "__cxa_begin_catch");
    in_flight = 0;
    return real(exception);
}

/* Writes, into out (cap bytes), C++'s words for the exception in flight; returns its
 * length, 0 when none is. */
extern "C" size_t labgrade_uncaught_exception(char *out, size_t cap) {
    size_t at = 0;
    if (!in_flight || cap == 0) return 0;
    int status = 0;
    char *name = __cxa_demangle(in_flight->name(), 0, 0, &status);
    append(out, cap, &at, "terminate called after throwing an instance of '");
    append(out, cap, &at, name && status == 0 ? name : in_flight->name());
    append(out, cap, &at, "'\n");
    if (has_what) {
        append(out, cap, &at, "  what():  ");
        append(out, cap, &at, what_text);
        append(out, cap, &at, "\n");
    }
    return at;
}
