/*
 * labgrade sample: prints-in-place. The correct search, with the debug printing real code
 * keeps in it: place prints every point it tries. Printing inside a graded function is
 * shown, never graded (up to 8 MiB): everything passes.
 * Originally: Weiss' turnpike reconstruction, Figures 10.64 and 10.65, in C against labgrade's
 * distance set. Two things the figures leave to the prose are done here:
 *   - a placement is feasible only if every distance is in D in the correct quantity
 *     (each one is deleted as it is found; if one is missing, the deleted ones go back);
 *   - turnpike leaves D untouched when it returns FALSE.
 */
#include <stdio.h>
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
    printf("place(left = %d, right = %d): trying x[%d] = %d\n", left, right, right, dmax);

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
