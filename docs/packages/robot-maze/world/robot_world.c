/* The robot's library: the maze (the case's `maze`: '#' walls, 'S' the robot's start, 'E'
   the exit), where the robot stands, and its marks. labgrade's world host loads it; the
   students' code reaches it only through robot.h. */
#include <stdio.h>
#include <stdlib.h>

#include "lg_world_impl.h"

struct robot {
    int rows, cols;
    char *cells;   /* the maze, row by row */
    char *marked;  /* 1 where a mark is chalked */
    int row, col;  /* where the robot stands */
    long long refused;
    char first_refused[96];
};

static const int drow[4] = {-1, 0, 1, 0}, dcol[4] = {0, 1, 0, -1};
static const char *const names[4] = {"NORTH", "EAST", "SOUTH", "WEST"};

static int open_at(const struct robot *w, int row, int col) {
    return row >= 0 && row < w->rows && col >= 0 && col < w->cols &&
           w->cells[row * w->cols + col] != '#';
}

static void refuse(struct robot *w, const char *what, long long d) {
    if (w->refused++ == 0) {
        snprintf(w->first_refused, sizeof w->first_refused, "%s(%s) at row %d, column %d", what,
                 d >= 0 && d < 4 ? names[d] : "not a direction", w->row, w->col);
    }
}

void *lg_world_new(const struct lg_input *inputs, int count, char *why, int why_size) {
    const struct lg_input *maze = lg_input_named(inputs, count, "maze");
    if (!maze || !maze->text || maze->rows < 1) {
        snprintf(why, why_size, "the case's maze must be rows of text");
        return NULL;
    }
    struct robot *w = calloc(1, sizeof *w);
    w->rows = maze->rows;
    w->cols = maze->cols;
    w->cells = malloc((size_t)w->rows * w->cols);
    w->marked = calloc((size_t)w->rows * w->cols, 1);
    w->row = -1;
    for (int i = 0; i < w->rows * w->cols; i++) {
        w->cells[i] = (char)maze->values[i];
        if (w->cells[i] == 'S') {
            w->row = i / w->cols;
            w->col = i % w->cols;
        }
    }
    if (w->row < 0) {
        snprintf(why, why_size, "the maze has no start square 'S'");
        return NULL;
    }
    return w;
}

long long lg_world_answer(void *world, int op, const long long args[4]) {
    struct robot *w = world;
    int here = w->row * w->cols + w->col;
    long long d = args[0];
    switch (op) {
    case 0: /* AtExit */
        return w->cells[here] == 'E';
    case 1: /* CanMove */
        if (d < 0 || d > 3) {
            refuse(w, "CanMove", d);
            return 0;
        }
        return open_at(w, w->row + drow[d], w->col + dcol[d]);
    case 2: /* Move */
        if (d < 0 || d > 3 || !open_at(w, w->row + drow[d], w->col + dcol[d])) {
            refuse(w, "Move", d);
            return 0;
        }
        w->row += drow[d];
        w->col += dcol[d];
        return 0;
    case 3: /* Mark */
        w->marked[here] = 1;
        return 0;
    case 4: /* Unmark */
        w->marked[here] = 0;
        return 0;
    case 5: /* IsMarked */
        return w->marked[here];
    }
    return 0;
}

/* The maze as the robot leaves it: its marks as '+' (on 'S' and 'E' too). */
int lg_world_state(void *world, long long *cells, int capacity, int *cols, int *text) {
    struct robot *w = world;
    int n = w->rows * w->cols;
    *cols = w->cols;
    *text = 1;
    for (int i = 0; i < n && i < capacity; i++) {
        cells[i] = w->marked[i] ? '+' : w->cells[i];
    }
    return n;
}

const char *lg_world_refused(void *world, long long *count) {
    struct robot *w = world;
    *count = w->refused;
    return w->refused ? w->first_refused : NULL;
}
