/* Written differently (a helper for the choice, early returns): the same recursion. */
#include "subset_sum.h"

static bool WithLast(const int set[], int n, int target) {
    return CanMakeSum(set, n - 1, target - set[n - 1]);
}

bool CanMakeSum(const int set[], int n, int target) {
    if (target == 0) {
        return true;
    }
    if (n == 0) {
        return false;
    }
    if (WithLast(set, n, target)) {
        return true;
    }
    return CanMakeSum(set, n - 1, target);
}
