/*
 * File: lg_world_impl.h
 * ---------------------
 * The other side of lg_world.h: how a problem package's own library (the
 * package's world/ directory, written by the instructor) answers the calls
 * students' code makes through the package header's wrappers.
 *
 * labgrade builds world/ with the package's recipes and loads it in its world
 * host, a process of its own beside the sandboxed student code: the students'
 * code reaches it only through the wrappers, and every call is counted and
 * traced as the spec's [kit.world] ops declare (the wrapper's first argument is
 * the operation's index there). Each call of a graded function gets a fresh
 * world, made from the case by lg_world_new. Once the world is made, the host
 * can only compute, allocate memory and answer: no files, no clock, no
 * processes. What the library prints goes to labgrade's standard error.
 *
 * A library defines lg_world_new and lg_world_answer; lg_world_state and
 * lg_world_refused are optional.
 */

#ifndef LG_WORLD_IMPL_H
#define LG_WORLD_IMPL_H

#include "lg_input.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Makes the world for one call. Return NULL to refuse the case, with why
 * (at most why_size bytes): labgrade names the case and says so.
 */
void *lg_world_new(const struct lg_input *inputs, int count, char *why, int why_size);

/*
 * The answer to operation `op` (its index in [kit.world] ops) with the four
 * arguments the wrapper passed (those past the op's arity are 0). An op not
 * marked `returns` may return anything. The arguments are whatever the
 * student's code passed: check each (a direction out of range, a square off the
 * map) and refuse what the assignment does not allow (see lg_world_refused).
 * A library that crashes on them makes the run labgrade's failure, not a grade.
 */
long long lg_world_answer(void *world, int op, const long long args[4]);

/*
 * Optional: the world's state when the call is over, which [kit.world] state
 * makes part of the answer (compared with the reference's, and drawn). Write
 * up to `capacity` cells and return how many there are (return more than
 * capacity to be called again with room for them all); set *cols to the width
 * of a grid (0: a flat list) and *text to 1 to show each row as the string of
 * its characters.
 */
int lg_world_state(void *world, long long *cells, int capacity, int *cols, int *text);

/*
 * Optional: how many calls the world could not honour (a move into a wall) and
 * the first, in the assignment's words (NULL or a count of 0: none). Reported
 * as the student's slip.
 */
const char *lg_world_refused(void *world, long long *count);

#ifdef __cplusplus
}
#endif

#endif /* LG_WORLD_IMPL_H */
