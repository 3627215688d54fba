// A C++ course's version: static helpers, uint64_t arithmetic, its own names inside,
// the graded functions through the header's C interface.
#include <cstdint>
#include "primes.h"

static std::uint64_t mulmod(std::uint64_t x, std::uint64_t y, std::uint64_t n) {
    return x * y % n;
}

void power(unsigned int a, unsigned int p, unsigned int n, unsigned int *result,
           test_result *whatnis) {
    if (p == 0) {
        *result = 1;
        return;
    }
    unsigned int half;
    power(a, p / 2, n, &half, whatnis);
    unsigned int sq = static_cast<unsigned int>(mulmod(half, half, n));
    if (sq == 1 && half != 1 && half != n - 1) {
        *whatnis = DEFINITELY_COMPOSITE;
    }
    *result = (p & 1) ? static_cast<unsigned int>(mulmod(sq, a, n)) : sq;
}

test_result test_prime(unsigned int n) {
    unsigned int witness = rand_int(2, n - 2);
    test_result verdict = PROBABLY_PRIME;
    unsigned int r = 0;
    power(witness, n - 1, n, &r, &verdict);
    return (r != 1 || verdict == DEFINITELY_COMPOSITE) ? DEFINITELY_COMPOSITE : PROBABLY_PRIME;
}
