/*
 * labgrade sample: own-fixed-capacity
 * -----------------------------------
 * own-sorted-array with a distance set of fixed capacity, as many students write it: the
 * adapter asserts that the distances fit in MAX_DISTANCES (1,000), so every case with more
 * than 45 points (990 distances) aborts. What follows is own-sorted-array's description.
 *
 * Weiss' turnpike reconstruction (Figures 10.64 and 10.65) as a course that has students
 * write their own distance set hands it in: D is a sorted array of ints with its size, and
 * find_max, delete, insert and "in D" are the student's own functions on it. The only
 * labgrade-specific line is the adapter labgrade_turnpike at the end, which builds this D
 * from the distances labgrade gives. The algorithm is the text's, with the quantity check
 * and D restored after failure.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#define TRUE 1
#define FALSE 0

/* ---- The student's distance set: a sorted array and its size ---- */

static int dmax_of(const int D[], int size) { return D[size - 1]; }

static int index_of(const int D[], int size, int d)
{
    int lo = 0, hi = size - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (D[mid] == d) return mid;
        if (D[mid] < d) lo = mid + 1; else hi = mid - 1;
    }
    return -1;
}

static void remove_at(int D[], int *size, int i)
{
    memmove(&D[i], &D[i + 1], (size_t)(*size - i - 1) * sizeof D[0]);
    (*size)--;
}

static int remove_dist(int D[], int *size, int d)
{
    int i = index_of(D, *size, d);
    if (i < 0) return FALSE;
    remove_at(D, size, i);
    return TRUE;
}

static void insert_dist_sorted(int D[], int *size, int d)
{
    int i = *size;
    while (i > 0 && D[i - 1] > d) {
        D[i] = D[i - 1];
        i--;
    }
    D[i] = d;
    (*size)++;
}

/* ---- Figures 10.64 and 10.65 ---- */

/* Removes |x[j] - p| for the placed points, or nothing: TRUE when all were in D. */
static int remove_distances(int x[], int D[], int *size, int n, int left, int right, int p)
{
    int removed[n];
    int k = 0;
    for (int j = 1; j <= n; j++) {
        if (j >= left && j <= right) continue;
        int d = abs(x[j] - p);
        if (!remove_dist(D, size, d)) {
            while (k > 0) insert_dist_sorted(D, size, removed[--k]);
            return FALSE;
        }
        removed[k++] = d;
    }
    return TRUE;
}

static void put_back(int x[], int D[], int *size, int n, int left, int right, int p)
{
    for (int j = 1; j <= n; j++)
        if (j < left || j > right) insert_dist_sorted(D, size, abs(x[j] - p));
}

int place(int x[], int D[], int *size, int n, int left, int right)
{
    int dmax, found = FALSE;

    if (*size == 0) return TRUE;
    dmax = dmax_of(D, *size);
    if (remove_distances(x, D, size, n, left, right, dmax)) {
        x[right] = dmax;
        found = place(x, D, size, n, left, right - 1);
        if (!found) put_back(x, D, size, n, left, right, dmax);
    }
    if (!found && remove_distances(x, D, size, n, left, right, x[n] - dmax)) {
        x[left] = x[n] - dmax;
        found = place(x, D, size, n, left + 1, right);
        if (!found) put_back(x, D, size, n, left, right, x[n] - dmax);
    }
    return found;
}

int turnpike(int x[], int D[], int *size, int n)
{
    x[1] = 0;
    x[n] = dmax_of(D, *size);
    remove_at(D, size, *size - 1);
    x[n - 1] = dmax_of(D, *size);
    remove_at(D, size, *size - 1);
    if (remove_dist(D, size, x[n] - x[n - 1])) {
        if (place(x, D, size, n, 2, n - 2)) return TRUE;
        insert_dist_sorted(D, size, x[n] - x[n - 1]);
    }
    insert_dist_sorted(D, size, x[n - 1]);
    insert_dist_sorted(D, size, x[n]);
    return FALSE;
}

/* ---- The adapter labgrade calls (see turnpike.h) ---- */

static int compare_ints(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

#define MAX_DISTANCES 1000

int labgrade_turnpike(int x[], const int distances[], unsigned int count, unsigned int n)
{
    static int D[MAX_DISTANCES];
    int size = (int)count;
    assert(count <= MAX_DISTANCES);
    memcpy(D, distances, count * sizeof *D);
    qsort(D, count, sizeof *D, compare_ints);
    return turnpike(x, D, &size, (int)n);
}
