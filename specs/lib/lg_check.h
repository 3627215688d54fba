/*
 * File: lg_check.h
 * ----------------
 * A problem package's checker: for a function the spec declares `any_valid`
 * (any right answer is accepted, not only the reference's), the instructor's C
 * function that judges a student's answer. The package's checker/ directory
 * defines lg_check; labgrade builds it with the package's recipes and runs it in
 * a process of its own (never with the student's code), which once the values
 * are read can only compute, allocate memory and answer. What it prints goes to
 * labgrade's standard error.
 *
 * labgrade first checks the reference's own answer on every such case: a checker
 * that rejects it is the instructor's error, named with the case.
 */

#ifndef LG_CHECK_H
#define LG_CHECK_H

#include "lg_input.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Judges one answer. `call` holds the call's arguments as the case gives them
 * (by their parameters' names) and the course's parameters; `answer` the
 * student's answer and `reference` the reference's, each as "return" (absent
 * for a void function) and every parameter the function writes back (a grid, an
 * array, a string, *result), by name.
 *
 * Return 1 to accept the answer, 0 to reject it, with why (at most why_size
 * bytes, in the assignment's words: the student reads it).
 */
int lg_check(const struct lg_input *call, int ncall, const struct lg_input *answer,
             int nanswer, const struct lg_input *reference, int nreference, char *why,
             int why_size);

#ifdef __cplusplus
}
#endif

#endif /* LG_CHECK_H */
