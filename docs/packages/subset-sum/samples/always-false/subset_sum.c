/* Answers false whatever it is asked: it fails every case whose answer is true, some of
   them the very cases the swapped base cases fail, but its answers elsewhere are not that
   mistake's (3 5 9 makes 14), so it is not told it swapped them. */
#include "subset_sum.h"

bool CanMakeSum(const int set[], int n, int target) {
    (void)set;
    (void)n;
    (void)target;
    return false;
}
