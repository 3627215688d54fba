/* Instant Insanity in C with an order of its own (each face brought to the front, then four
   spins about the front-back axis), but its spin swaps top with right and bottom with left:
   a reflection, not a turn. Every pair of opposite faces stays together, yet half the cubes
   it tries are mirror images of the ones it was given. */
#include <string.h>
#include "insanity.h"

static const int ROLL[6] = {3, 0, 1, 2, 4, 5}; /* front goes to the top */
static const int YAW[6] = {4, 1, 5, 3, 2, 0};  /* front goes to the right */
static const int SPIN[6] = {0, 5, 2, 4, 3, 1}; /* meant: top goes to the right */

static void Turn(char cube[6], const int how[6])
{
    char turned[6];
    int i;
    for (i = 0; i < 6; i++) turned[i] = cube[how[i]];
    memcpy(cube, turned, 6);
}

/* Orientation k (0..23) of `original` into `cube`. */
static void Orient(const char original[6], int k, char cube[6])
{
    int face = k / 4, spins = k % 4, i;
    memcpy(cube, original, 6);
    switch (face) {
    case 1: Turn(cube, YAW); break;
    case 2: Turn(cube, YAW); Turn(cube, YAW); break;
    case 3: Turn(cube, YAW); Turn(cube, YAW); Turn(cube, YAW); break;
    case 4: Turn(cube, ROLL); break;
    case 5: Turn(cube, ROLL); Turn(cube, ROLL); Turn(cube, ROLL); break;
    }
    for (i = 0; i < spins; i++) Turn(cube, SPIN);
}

static bool SidesDiffer(char cubes[4][6], int n)
{
    int side, a, b;
    for (side = 0; side < 4; side++)
        for (a = 0; a < n; a++)
            for (b = a + 1; b < n; b++)
                if (cubes[a][side] == cubes[b][side]) return false;
    return true;
}

static bool Place(char cubes[4][6], int n)
{
    char original[6];
    int k;
    if (n == 4) return true;
    memcpy(original, cubes[n], 6);
    for (k = 0; k < 24; k++) {
        Orient(original, k, cubes[n]);
        if (SidesDiffer(cubes, n + 1) && Place(cubes, n + 1)) return true;
    }
    memcpy(cubes[n], original, 6);
    return false;
}

bool SolveInsanity(char cubes[4][6])
{
    return Place(cubes, 0);
}
