/*
 * File: primes.h
 * --------------
 * The interface labgrade grades in a Miller-Rabin submission (Weiss, Figure 10.62).
 *
 * YOU WRITE, as the figure does:
 *
 *   void power(unsigned int a, unsigned int p, unsigned int n,
 *              unsigned int *result, test_result *whatnis);
 *       *result = a^p mod n, computed recursively from power(a, p/2, ...);
 *       sets *whatnis to DEFINITELY_COMPOSITE when it meets x with
 *       x*x = 1 (mod n), x != 1 and x != n-1; leaves it alone otherwise.
 *   test_result test_prime(unsigned int n);
 *       one witness a = rand_int(2, n-2), then power(a, n-1, n, ...):
 *       DEFINITELY_COMPOSITE unless the result is 1 and no non-trivial
 *       square root of 1 was met.
 *
 * The figure was transcribed with slips: `if (p = 0)`, `(*result = 1) && ...`
 * and `if ((p % 2) = 1)` are comparisons (==), and `| |` is ||. The text also
 * "assumes very large integers": compute x * x as (unsigned long long) x * x
 * so that every n up to 4294967295 works.
 *
 * rand_int is labgrade's: each case chooses the witness it answers, and every
 * call is recorded (with its bounds). Do not define rand_int yourself.
 *
 * labgrade counts the calls of power and test_prime and how deep power
 * recurses (one call per bit of p, plus the p = 0 call), so keep their names.
 * They may be static.
 */

#ifndef LABGRADE_PRIMES_H
#define LABGRADE_PRIMES_H

#include "lg_world.h"

#ifdef __cplusplus
extern "C" {
#endif

enum test_result { PROBABLY_PRIME, DEFINITELY_COMPOSITE };
typedef enum test_result test_result;

/* labgrade's random numbers: the case's witness, between low and high. Unsigned, like
   the test's numbers, so that rand_int(2, n - 2) means what it says for every n. */
LG_WRAPPER unsigned int rand_int(unsigned int low, unsigned int high) {
    return (unsigned int)lg_world_call(0, low, high, 0, 0);
}

/* labgrade's build defines LG_NO_STUDENT_PROTOTYPES when your sources define one of
   these static, where these prototypes would be an error. */
#ifndef LG_NO_STUDENT_PROTOTYPES
void power(unsigned int a, unsigned int p, unsigned int n, unsigned int *result,
           test_result *whatnis);
test_result test_prime(unsigned int n);
#endif

#ifdef __cplusplus
}
#endif

#endif /* LABGRADE_PRIMES_H */
