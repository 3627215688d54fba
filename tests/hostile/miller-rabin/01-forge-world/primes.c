/* Attack: test_prime points lg_world at a table of its own before drawing its witness, so
 * labgrade's rand_int never hears of the call and the witness is the submission's choice
 * (always 2), hoping to pass whatever witness a case asks for. Harmless without a sandbox
 * too: the world and its record live in the child and reach labgrade only as data. What
 * stops it: labgrade's record is what its own recorder saw; a table the code swaps in
 * records nothing, so every case that grades a test_prime call (its calls into rand_int are
 * part of each) fails, whatever the verdict it returns. */
#include "primes.h"

static long long my_call(void *self, int op, long long a, long long b, long long c,
                         long long d)
{
    (void)self; (void)op; (void)a; (void)b; (void)c; (void)d;
    return 2;
}

static const struct lg_world my_world = {0, my_call};

void power(unsigned int a, unsigned int p, unsigned int n,
           unsigned int *result, test_result *whatnis)
{
    unsigned int x;

    if (p == 0)
        *result = 1;
    else {
        power(a, p / 2, n, &x, whatnis);
        *result = (unsigned int)((unsigned long long)x * x % n);
        if ((*result == 1) && (x != 1) && (x != n - 1))
            *whatnis = DEFINITELY_COMPOSITE;
        if ((p % 2) == 1)
            *result = (unsigned int)((unsigned long long)*result * a % n);
    }
}

test_result test_prime(unsigned int n)
{
    unsigned int a, result;
    test_result whatnis;

    lg_world = &my_world; /* labgrade's table is no longer called */
    a = rand_int(2, n - 2);
    whatnis = PROBABLY_PRIME;
    power(a, n - 1, n, &result, &whatnis);
    if ((result != 1) || (whatnis == DEFINITELY_COMPOSITE))
        return DEFINITELY_COMPOSITE;
    return PROBABLY_PRIME;
}
