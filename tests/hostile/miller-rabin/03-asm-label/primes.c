/* Attack: an iterative power that calls GCC's profiling hooks by hand through functions
 * declared under an asm label (no macro can rename a string), one time fewer than the
 * levels of the text's recursion: power's own entry, which the counting build instruments,
 * makes up the last one. Before, the counts matched the text's.
 * Harmless without a sandbox: it calls two functions with a pointer of its own.
 * What stops it: labgrade compiles each source once more with the counting build's macros
 * but no hooks, where the compiler inserts no hook call: a hook this object names is the
 * student's, so every calls case fails, saying so. */
#include "primes.h"

void enter_by_hand(void *fn, void *site) __asm__("__cyg_profile_func_enter");
void exit_by_hand(void *fn, void *site) __asm__("__cyg_profile_func_exit");



void power(unsigned int a, unsigned int p, unsigned int n,
           unsigned int *result, test_result *whatnis)
{
    unsigned int levels = 0, x = 1, q, i;

    for (q = p; q > 0; q /= 2)
        levels++;
    /* The recursive calls the text makes, p, p/2, ..., 1, as a counter would see them. */
    for (i = 1; i < levels; i++)
        enter_by_hand((void *)power, 0);
    for (i = levels; i-- > 0;) {
        unsigned int r = (unsigned int)((unsigned long long)x * x % n);

        if (r == 1 && x != 1 && x != n - 1)
            *whatnis = DEFINITELY_COMPOSITE;
        if (((p >> i) % 2) == 1)
            r = (unsigned int)((unsigned long long)r * a % n);
        x = r;
    }
    for (i = 1; i < levels; i++)
        exit_by_hand((void *)power, 0);
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
