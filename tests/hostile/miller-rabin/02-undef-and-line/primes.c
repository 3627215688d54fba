/* Attack: an iterative power that calls GCC's profiling hooks by hand, once per level of the
 * text's recursion, so that a counter sees the text's recursion (as
 * tests/submissions/miller-rabin/hand-called-hooks does). Two routes around the counting
 * build's macro that sends a written call of the hook to labgrade's forgery recorder:
 * `#undef` of the macro, and a `#line` into a system header before power, so that the
 * counting build (which does not instrument /usr/include) leaves power's own entry
 * uncounted and only the hand calls count. Before, 26/26 with no note.
 * Harmless without a sandbox: it calls two functions with a pointer of its own.
 * What stops it: labgrade compiles each source once more with the counting build's macros
 * but no hooks, where the compiler inserts no hook call: a hook this object names is the
 * student's (every calls case fails, saying so); and a counted function whose code calls no
 * entry hook is one its source kept out of counting. */
#include "primes.h"

#undef __cyg_profile_func_enter
#undef __cyg_profile_func_exit
void __cyg_profile_func_enter(void *fn, void *site);
void __cyg_profile_func_exit(void *fn, void *site);

#line 1 "/usr/include/lg-not-counted.h"


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
