/*
 * Weiss' turnpike without any undo: place never puts back the distances of a
 * placement whose recursion failed (lines 9-11 and 18-20 are missing), and turnpike, like
 * Figure 10.64, never puts back what it removed.
 */
#include <stdlib.h>

#include "turnpike.h"

/* Removes |x[j] - p| for 1 <= j < left and right < j <= n, or nothing: returns TRUE when
 * every one of them was in D. */
static int remove_distances(int x[], dist_set D, unsigned int n, int left, int right, int p)
{
    int removed[n];
    int k = 0;
    for (int j = 1; j <= (int)n; j++) {
        if (j >= left && j <= right)
            continue;
        int d = abs(x[j] - p);
        if (!contains(d, D)) {
            while (k > 0)
                insert_dist(removed[--k], D);
            return FALSE;
        }
        delete_dist(d, D);
        removed[k++] = d;
    }
    return TRUE;
}

int place(int x[], dist_set D, unsigned int n, int left, int right)
{
    int dmax, found = FALSE;

    if (is_empty(D))
        return TRUE;
    dmax = find_max(D);

    /* Check if setting x[right] = dmax is feasible. */
    if (remove_distances(x, D, n, left, right, dmax)) {
        x[right] = dmax;
        found = place(x, D, n, left, right - 1);
    }
    /* If first attempt failed, try to see if setting x[left] = x[n] - dmax is feasible. */
    if (!found && remove_distances(x, D, n, left, right, x[n] - dmax)) {
        x[left] = x[n] - dmax;
        found = place(x, D, n, left + 1, right);
    }
    return found;
}

int turnpike(int x[], dist_set D, unsigned int n)
{
    x[1] = 0;
    x[n] = delete_max(D);
    x[n - 1] = delete_max(D);
    if (contains(x[n] - x[n - 1], D)) {
        delete_dist(x[n] - x[n - 1], D);
        return place(x, D, n, 2, n - 2);
    }
    return FALSE;
}
