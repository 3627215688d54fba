/* The base cases in the other order: with no numbers left it answers false even when the
   target is already 0. */
#include "subset_sum.h"

bool CanMakeSum(const int set[], int n, int target) {
    if (n == 0) return false;
    if (target == 0) return true;
    return CanMakeSum(set, n - 1, target - set[n - 1]) || CanMakeSum(set, n - 1, target);
}
