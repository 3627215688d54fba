/* Leaves the last number out before trying it: the same answers, another search. */
#include "subset_sum.h"

bool CanMakeSum(const int set[], int n, int target) {
    if (target == 0) return true;
    if (n == 0) return false;
    return CanMakeSum(set, n - 1, target) || CanMakeSum(set, n - 1, target - set[n - 1]);
}
