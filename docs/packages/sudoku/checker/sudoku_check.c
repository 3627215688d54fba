/* The checker: SolveSudoku may fill a puzzle any right way (an empty grid has billions),
   so labgrade asks this function about each student's grid instead of comparing it with
   the reference's. It sees the puzzle as the case gives it (`grid` in `call`), the
   student's answer and the reference's (`return` and `grid` in each). */
#include <stdio.h>

#include "lg_check.h"

static long long at(const struct lg_input *grid, int row, int col) {
    return grid->values[row * 9 + col];
}

int lg_check(const struct lg_input *call, int ncall, const struct lg_input *answer,
             int nanswer, const struct lg_input *reference, int nreference, char *why,
             int why_size) {
    const struct lg_input *puzzle = lg_input_named(call, ncall, "grid");
    const struct lg_input *grid = lg_input_named(answer, nanswer, "grid");
    const struct lg_input *solved = lg_input_named(answer, nanswer, "return");
    const struct lg_input *solvable = lg_input_named(reference, nreference, "return");
    if (!grid || grid->rows != 9 || grid->cols != 9 || !solved) {
        snprintf(why, why_size, "no 9 x 9 grid came back");
        return 0;
    }
    if (solved->values[0] != solvable->values[0]) {
        snprintf(why, why_size, "returned %s, but the puzzle %s", solved->values[0] ? "true" : "false",
                 solvable->values[0] ? "has a solution" : "has none");
        return 0;
    }
    /* After false, labgrade itself checks the grid is as given (`unchanged_when = false`
       in problem.toml): nothing is left to judge here. */
    if (!solvable->values[0]) return 1;
    for (int r = 0; r < 9; r++) {
        for (int c = 0; c < 9; c++) {
            long long given = at(puzzle, r, c), now = at(grid, r, c);
            if (given != 0 && now != given) {
                snprintf(why, why_size, "changed a given digit: row %d, column %d holds %lld, not %lld",
                         r + 1, c + 1, now, given);
                return 0;
            }
            if (now < 1 || now > 9) {
                snprintf(why, why_size, "returned true, but row %d, column %d holds %lld", r + 1,
                         c + 1, now);
                return 0;
            }
        }
    }
    /* Each row, column and box holds 1 to 9 once. */
    for (int unit = 0; unit < 27; unit++) {
        int seen[10] = {0};
        for (int i = 0; i < 9; i++) {
            int r, c;
            if (unit < 9) {
                r = unit, c = i;
            } else if (unit < 18) {
                r = i, c = unit - 9;
            } else {
                r = (unit - 18) / 3 * 3 + i / 3, c = (unit - 18) % 3 * 3 + i % 3;
            }
            long long d = at(grid, r, c);
            if (seen[d]++) {
                const char *kind = unit < 9 ? "row" : unit < 18 ? "column" : "box";
                int number = unit % 9 + 1;
                snprintf(why, why_size, "%s %d holds %lld twice (the second at row %d, column %d)",
                         kind, number, d, r + 1, c + 1);
                return 0;
            }
        }
    }
    return 1;
}
