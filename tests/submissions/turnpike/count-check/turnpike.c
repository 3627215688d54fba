/*
 * labgrade sample: count-check. The correct search, with the quantity check written with
 * the multiset's count: every distance |x[j] - p| must be in D at least as many times as it
 * is needed, asked with dist_count before anything is deleted.
 * Originally: Weiss' turnpike reconstruction, Figures 10.64 and 10.65, in C against labgrade's
 * distance set. Two things the figures leave to the prose are done here:
 *   - a placement is feasible only if every distance is in D in the correct quantity
 *     (each one is deleted as it is found; if one is missing, the deleted ones go back);
 *   - turnpike leaves D untouched when it returns FALSE.
 */
#include <stdlib.h>

#include "turnpike.h"

/* Removes |x[j] - p| for 1 <= j < left and right < j <= n, or nothing: returns TRUE when
 * every one of them was in D. */
static int remove_distances(int x[], dist_set D, unsigned int n, int left, int right, int p)
{
    int need[n];
    int k = 0;
    for (int j = 1; j <= (int)n; j++)
        if (j < left || j > right)
            need[k++] = abs(x[j] - p);
    /* Feasible when each distance is in D as many times as it is needed. */
    for (int i = 0; i < k; i++) {
        unsigned int wanted = 0;
        for (int m = 0; m < k; m++)
            if (need[m] == need[i])
                wanted++;
        if (dist_count(need[i], D) < wanted)
            return FALSE;
    }
    for (int i = 0; i < k; i++)
        delete_dist(need[i], D);
    return TRUE;
}

static void put_back(int x[], dist_set D, unsigned int n, int left, int right, int p)
{
    for (int j = 1; j <= (int)n; j++)
        if (j < left || j > right)
            insert_dist(abs(x[j] - p), D);
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
        if (!found) /* Backtrack: undo the deletion */
            put_back(x, D, n, left, right, dmax);
    }
    /* If first attempt failed, try to see if setting x[left] = x[n] - dmax is feasible. */
    if (!found && remove_distances(x, D, n, left, right, x[n] - dmax)) {
        x[left] = x[n] - dmax;
        found = place(x, D, n, left + 1, right);
        if (!found) /* Backtrack: undo the deletion */
            put_back(x, D, n, left, right, x[n] - dmax);
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
        if (place(x, D, n, 2, n - 2))
            return TRUE;
        insert_dist(x[n] - x[n - 1], D);
    }
    /* The text promises D untouched after failure. */
    insert_dist(x[n - 1], D);
    insert_dist(x[n], D);
    return FALSE;
}
