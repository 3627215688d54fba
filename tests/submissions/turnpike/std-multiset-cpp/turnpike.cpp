/*
 * labgrade sample: std-multiset-cpp
 * ---------------------------------
 * Weiss' turnpike reconstruction in C++ on the standard library's std::multiset<int>, passed
 * by reference, as C++ courses write it, with no adapter of the student's own: labgrade
 * makes the multiset itself (specs/turnpike/labgrade_adapter.cpp). The algorithm is the
 * text's, with the quantity check and D restored after failure.
 */
#include <cstdlib>
#include <iterator>
#include <set>
#include <vector>

using Dist = std::multiset<int>;

static int dmax_of(const Dist &D) { return *D.rbegin(); }

static bool remove_one(Dist &D, int d)
{
    auto it = D.find(d);
    if (it == D.end()) return false;
    D.erase(it);
    return true;
}

/* Removes |x[j] - p| for the placed points, or nothing: true when all were in D. */
static bool remove_distances(const int x[], Dist &D, int n, int left, int right, int p)
{
    std::vector<int> removed;
    for (int j = 1; j <= n; j++) {
        if (j >= left && j <= right) continue;
        int d = std::abs(x[j] - p);
        if (!remove_one(D, d)) {
            D.insert(removed.begin(), removed.end());
            return false;
        }
        removed.push_back(d);
    }
    return true;
}

static void put_back(const int x[], Dist &D, int n, int left, int right, int p)
{
    for (int j = 1; j <= n; j++)
        if (j < left || j > right) D.insert(std::abs(x[j] - p));
}

bool place(int x[], Dist &D, int n, int left, int right)
{
    if (D.empty()) return true;
    int dmax = dmax_of(D);
    bool found = false;
    if (remove_distances(x, D, n, left, right, dmax)) {
        x[right] = dmax;
        found = place(x, D, n, left, right - 1);
        if (!found) put_back(x, D, n, left, right, dmax);
    }
    if (!found && remove_distances(x, D, n, left, right, x[n] - dmax)) {
        x[left] = x[n] - dmax;
        found = place(x, D, n, left + 1, right);
        if (!found) put_back(x, D, n, left, right, x[n] - dmax);
    }
    return found;
}

int turnpike(int x[], Dist &D, int n)
{
    x[1] = 0;
    x[n] = dmax_of(D);
    D.erase(std::prev(D.end()));
    x[n - 1] = dmax_of(D);
    D.erase(std::prev(D.end()));
    if (remove_one(D, x[n] - x[n - 1])) {
        if (place(x, D, n, 2, n - 2)) return 1;
        D.insert(x[n] - x[n - 1]);
    }
    D.insert(x[n - 1]);
    D.insert(x[n]);
    return 0;
}
