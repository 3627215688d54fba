/* The instructor's solution: labgrade runs it on every case, and what it does is what
   every submission is compared with. */
#include "subset_sum.h"

bool CanMakeSum(const int set[], int n, int target) {
    if (target == 0) return true;
    if (n == 0) return false;
    return CanMakeSum(set, n - 1, target - set[n - 1]) || CanMakeSum(set, n - 1, target);
}
