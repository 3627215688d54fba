/*
 * labgrade sample: plain-int-array
 * --------------------------------
 * A course's turnpike on a plain sorted int array D[] of n(n-1)/2 distances, a removed
 * distance marked 0, declared with the header's names but its own D: what it is handed is
 * labgrade's dist_set, which it would read as ints. It needs the one-function adapter
 * labgrade_turnpike that turnpike.h documents (own-sorted-array has one).
 */
#include <stdlib.h>

static int find_max(const int D[], int m)
{
    for (int i = m - 1; i >= 0; i--)
        if (D[i] != 0) return i;
    return -1;
}

static int take(int D[], int m, int d)
{
    for (int i = 0; i < m; i++)
        if (D[i] == d) { D[i] = 0; return 1; }
    return 0;
}

int turnpike(int x[], int D[], unsigned int n)
{
    int m = (int)(n * (n - 1) / 2);
    int top = find_max(D, m);
    if (top < 0) return 0;
    x[1] = 0;
    x[n] = D[top];
    D[top] = 0;
    return take(D, m, x[n]) || 1;
}
