/*
 * File: lg_input.h
 * ----------------
 * How a case's values reach a problem package's own C libraries (its world,
 * lg_world_impl.h, and its checker, lg_check.h): each value by the name the
 * spec gives it.
 */

#ifndef LG_INPUT_H
#define LG_INPUT_H

#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * One value, by the name the spec gives it. A world's lg_world_new gets the
 * graded function's own arguments (the [[kit.function]] params the case gives),
 * then the case's world_inputs, then the course's parameters ([[kit.parameter]]);
 * a checker's lg_check gets what lg_check.h says.
 *
 *   an integer or a bool    rows = 0, cols = 0, values[0]
 *   a string                rows = 1, cols = its length, values = its
 *                           characters' codes, text = the string
 *   an array of integers    rows = 1, cols = its length
 *   a grid of integers      rows x cols, row by row
 *   an array of strings     rows x cols characters' codes, row by row (short
 *                           rows padded with ' '), text = the rows joined by
 *                           '\n'
 */
struct lg_input {
    const char *name;
    int rows, cols;
    const long long *values;
    const char *text; /* NULL unless the input is text */
};

/* The input called `name`, or NULL. */
static inline const struct lg_input *lg_input_named(const struct lg_input *inputs,
                                                    int count, const char *name) {
    for (int i = 0; i < count; i++) {
        if (strcmp(inputs[i].name, name) == 0) return &inputs[i];
    }
    return 0;
}

#ifdef __cplusplus
}
#endif

#endif /* LG_INPUT_H */
