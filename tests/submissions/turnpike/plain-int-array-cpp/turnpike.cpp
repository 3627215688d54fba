/*
 * labgrade sample: plain-int-array-cpp
 * ------------------------------------
 * plain-int-array written in C++ as a course might (no extern "C", so turnpike's name is
 * mangled, and n an int): turnpike(int x[], int D[], int n) on a plain sorted array of the
 * n(n-1)/2 distances, a removed one negated in place. labgrade finds the form in the
 * library's debug information, as for C, and hands it such an array.
 */
#include <cstdlib>
using std::abs;

#define TRUE 1
#define FALSE 0

static int size_of(int n) { return n * (n - 1) / 2; }

/* The largest distance still in D (D is sorted, removed ones are negative), or 0. */
static int find_max(const int D[], int m)
{
    for (int i = m - 1; i >= 0; i--)
        if (D[i] > 0) return D[i];
    return 0;
}

/* The first index whose distance (removed or not) is at least d. */
static int first_at_least(const int D[], int m, int d)
{
    int lo = 0, hi = m;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (abs(D[mid]) < d) lo = mid + 1; else hi = mid;
    }
    return lo;
}

static int delete_dist(int d, int D[], int m)
{
    for (int i = first_at_least(D, m, d); i < m && abs(D[i]) == d; i++)
        if (D[i] == d) { D[i] = -d; return TRUE; }
    return FALSE;
}

static void insert_dist(int d, int D[], int m)
{
    for (int i = first_at_least(D, m, d); i < m && abs(D[i]) == d; i++)
        if (D[i] == -d) { D[i] = d; return; }
}

static int is_empty(const int D[], int m) { return find_max(D, m) == 0; }

/* Removes |x[j] - p| for every placed point, or nothing: TRUE when all were in D. */
static int take_distances(int x[], int D[], int n, int left, int right, int p)
{
    int m = size_of(n);
    for (int j = 1; j <= n; j++) {
        if (j >= left && j <= right) continue;
        if (!delete_dist(abs(x[j] - p), D, m)) {
            for (int k = 1; k < j; k++)
                if (k < left || k > right) insert_dist(abs(x[k] - p), D, m);
            return FALSE;
        }
    }
    return TRUE;
}

static void put_back(int x[], int D[], int n, int left, int right, int p)
{
    for (int j = 1; j <= n; j++)
        if (j < left || j > right) insert_dist(abs(x[j] - p), D, size_of(n));
}

int place(int x[], int D[], int n, int left, int right)
{
    int dmax, found = FALSE;

    if (is_empty(D, size_of(n))) return TRUE;
    dmax = find_max(D, size_of(n));
    if (take_distances(x, D, n, left, right, dmax)) {
        x[right] = dmax;
        found = place(x, D, n, left, right - 1);
        if (!found) put_back(x, D, n, left, right, dmax);
    }
    if (!found && take_distances(x, D, n, left, right, x[n] - dmax)) {
        x[left] = x[n] - dmax;
        found = place(x, D, n, left + 1, right);
        if (!found) put_back(x, D, n, left, right, x[n] - dmax);
    }
    return found;
}

int turnpike(int x[], int D[], int n)
{
    int m = size_of(n);
    x[1] = 0;
    x[n] = find_max(D, m);
    delete_dist(x[n], D, m);
    x[n - 1] = find_max(D, m);
    delete_dist(x[n - 1], D, m);
    if (delete_dist(x[n] - x[n - 1], D, m)) {
        if (place(x, D, n, 2, n - 2)) return TRUE;
        insert_dist(x[n] - x[n - 1], D, m);
    }
    insert_dist(x[n - 1], D, m);
    insert_dist(x[n], D, m);
    return FALSE;
}
