/*
 * File: lg_world.h
 * ----------------
 * How a labgrade header reaches labgrade's library: while your code runs under
 * labgrade, functions such as rand_int or DrawLetterAtPosition are answered by
 * labgrade, which counts and records every call. This file is included by those
 * headers; you never include it yourself.
 *
 * labgrade points lg_world (defined weak here, so your library needs no symbol
 * from labgrade) at its table before it calls your code. Outside labgrade the
 * wrappers stop with a message.
 */

#ifndef LG_WORLD_H
#define LG_WORLD_H

#include <stdio.h>
#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif

struct lg_world {
    void *self;
    long long (*call)(void *self, int op, long long a, long long b, long long c,
                      long long d);
};

__attribute__((weak)) const struct lg_world *lg_world = 0;

/* Never counted as your calls, wherever this header is. */
#define LG_WRAPPER static inline __attribute__((no_instrument_function, unused))

LG_WRAPPER long long lg_world_call(int op, long long a, long long b, long long c,
                                   long long d) {
    if (!lg_world) {
        fputs("this function is labgrade's: run your code with labgrade\n", stderr);
        abort();
    }
    return lg_world->call(lg_world->self, op, a, b, c, d);
}

#ifdef __cplusplus
}
#endif

#endif /* LG_WORLD_H */
