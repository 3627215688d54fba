/*
 * File: random.h
 * --------------
 * Imitates random.h of Eric Roberts' libraries (C edition and C++ edition:
 * Randomize, RandomInteger, RandomReal, RandomChance) and, in C++, of
 * Stanford's later C++ libraries (randomInteger, randomReal, randomChance,
 * randomBool, setRandomSeed). labgrade provides it so that students'
 * programs written against any of these compile unchanged. Everything is
 * defined in the header (static in C, inline in C++): nothing to link.
 *
 * Real, with one deliberate difference: it is DETERMINISTIC. The numbers come
 * from the C library's rand(), as in Roberts' implementation, but
 * Randomize() seeds it with a fixed value (LABGRADE_RANDOM_SEED, 1 unless
 * defined otherwise, which is also rand()'s seed when nothing seeds it)
 * instead of the time of day, and Stanford's functions never seed it from the
 * clock either. Grading must be reproducible: the same submission run twice on
 * the same case must print the same thing and get the same verdict, and a
 * failure a student is shown must happen again when they run it.
 * setRandomSeed(s) and srand(s) still choose another sequence.
 */

#ifndef LABGRADE_RANDOM_H
#define LABGRADE_RANDOM_H

#ifndef LABGRADE_RANDOM_SEED
#define LABGRADE_RANDOM_SEED 1
#endif

#ifdef __cplusplus
#include <cstdlib>
#define RANDOM_FN_ inline
#else
#include <stdbool.h>
#include <stdlib.h>
#define RANDOM_FN_ __attribute__((unused)) static
#endif

/* A real number in [0, 1), as Roberts computes it. */
RANDOM_FN_ double RandomUnit_(void) {
    return (double) rand() / ((double) RAND_MAX + 1);
}

/* Roberts: would be srand(time(NULL)); a fixed seed under labgrade (see above). */
RANDOM_FN_ void Randomize(void) {
    srand(LABGRADE_RANDOM_SEED);
}

/* A random integer in [low, high]. */
RANDOM_FN_ int RandomInteger(int low, int high) {
    double d = RandomUnit_();
    int k = (int) (d * ((double) high - (double) low + 1));
    return low + k;
}

/* A random real number in [low, high). */
RANDOM_FN_ double RandomReal(double low, double high) {
    double d = RandomUnit_();
    return low + d * (high - low);
}

/* true with probability p. */
RANDOM_FN_ bool RandomChance(double p) {
    return RandomReal(0, 1) < p;
}

#ifdef __cplusplus

/* ---- Stanford's names (never seeded from the clock under labgrade) */

inline int randomInteger(int low, int high) { return RandomInteger(low, high); }
inline double randomReal(double low, double high) { return RandomReal(low, high); }
inline bool randomChance(double p) { return RandomChance(p); }
inline bool randomBool() { return RandomChance(0.5); }
inline void setRandomSeed(int seed) { srand((unsigned) seed); }

#endif /* __cplusplus */

#undef RANDOM_FN_

#endif /* LABGRADE_RANDOM_H */
