/*
 * File: subset_sum.h
 * ------------------
 * YOU WRITE:
 *
 *   bool CanMakeSum(const int set[], int n, int target);
 *       true when some of set[0..n-1] (each used at most once) add up to target.
 *       Recursively, as in lecture: the empty choice makes 0; with no numbers left
 *       nothing else can be made; otherwise try the last number, set[n-1], first
 *       (CanMakeSum(set, n - 1, target - set[n - 1])) and only then leave it out
 *       (CanMakeSum(set, n - 1, target)).
 *
 * labgrade counts the calls of CanMakeSum and how deep it recurses: keep its name.
 */

#ifndef SUBSET_SUM_H
#define SUBSET_SUM_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef LG_NO_STUDENT_PROTOTYPES
bool CanMakeSum(const int set[], int n, int target);
#endif

#ifdef __cplusplus
}
#endif

#endif /* SUBSET_SUM_H */
