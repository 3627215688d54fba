/* Figure 10.62 with its transcription slips read as the text means them. */
#include "primes.h"

void power(unsigned int a, unsigned int p, unsigned int n,
           unsigned int *result, test_result *whatnis)
{
    unsigned int x;

    if (p == 1) /* Base case */
        *result = 1;
    else {
        power(a, p / 2, n, &x, whatnis);
        *result = (unsigned int)((unsigned long long)x * x % n);

        /* Check whether x^2 = 1 (mod n), x != 1, x != n - 1 */
        if ((*result == 1) && (x != 1) && (x != n - 1))
            *whatnis = DEFINITELY_COMPOSITE;

        /* If p is odd, we need one more a */
        if ((p % 2) == 1)
            *result = (unsigned int)((unsigned long long)*result * a % n);
    }
}

test_result test_prime(unsigned int n)
{
    unsigned int a, result;
    test_result whatnis;

    a = rand_int(2, n - 2); /* choose a randomly from 2..n-2 */
    whatnis = PROBABLY_PRIME;

    /* Compute a^(n-1) mod n */
    power(a, n - 1, n, &result, &whatnis);

    if ((result != 1) || (whatnis == DEFINITELY_COMPOSITE))
        return DEFINITELY_COMPOSITE;
    else
        return PROBABLY_PRIME;
}
