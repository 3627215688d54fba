/*
 * File: cryptarithm.h
 * -------------------
 * The interface labgrade grades in a cryptarithm submission (the recursive
 * backtracking handout: SEND + MORE = MONEY).
 *
 * YOU WRITE, as the handout does:
 *
 *   bool ExhaustiveSolve(puzzleT puzzle, string lettersToAssign);
 *       tries the digits 0 to 9 for lettersToAssign[0], recurses on the rest,
 *       and only when every letter has a digit asks PuzzleSolved(puzzle).
 *   bool SmarterSolve(puzzleT puzzle, int whichRow, int rowSumSoFar);
 *   bool SolveForAddend(puzzleT puzzle, int whichRow, int rowSumSoFar);
 *   bool SolveForSum(puzzleT puzzle, int rowSum);
 *       column by column from the right (the rows are reversed by the caller),
 *       an addend letter trying every free digit, a sum letter only the digit
 *       the column needs.
 *
 * labgrade calls ExhaustiveSolve(puzzle, letters) with the puzzle's distinct
 * letters in the order they first appear (first addend, second, sum), and
 * SmarterSolve(puzzle, Addend1, 0) with every row reversed, as the handout's
 * callers do; each call starts with no letter assigned. It counts the calls
 * of the four functions (keep their names; they may be static).
 *
 * The letter table is labgrade's: the handout leaves these functions out, and
 * labgrade provides them below, recording every call (do not define them):
 *
 *   AssignLetterToDigit(letter, digit)   false if another letter has the digit
 *   UnassignLetterFromDigit(letter, digit)
 *   LetterUsed(letter)                   true if the letter has a digit
 *   LetterToDigit(letter)
 *   PuzzleSolved(puzzle)                 addend1 + addend2 == sum, as assigned
 *
 * As in the handout, a word may start with 0. string is genlib's char * in C;
 * in C++ write char * (labgrade passes the characters, as the C handout does).
 */

#ifndef LABGRADE_CRYPTARITHM_H
#define LABGRADE_CRYPTARITHM_H

#include "genlib.h"
#include "lg_world.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { Addend1, Addend2, Sum };

typedef struct {
    char *rows[3];
} puzzleT;

LG_WRAPPER bool AssignLetterToDigit(char letter, int digit) {
    return lg_world_call(0, (unsigned char)letter, digit, 0, 0) != 0;
}
LG_WRAPPER void UnassignLetterFromDigit(char letter, int digit) {
    lg_world_call(1, (unsigned char)letter, digit, 0, 0);
}
LG_WRAPPER bool LetterUsed(char letter) {
    return lg_world_call(2, (unsigned char)letter, 0, 0, 0) != 0;
}
LG_WRAPPER int LetterToDigit(char letter) {
    return (int)lg_world_call(3, (unsigned char)letter, 0, 0, 0);
}
LG_WRAPPER bool PuzzleSolved(puzzleT puzzle) {
    (void)puzzle;
    return lg_world_call(4, 0, 0, 0, 0) != 0;
}

/* labgrade's build defines LG_NO_STUDENT_PROTOTYPES when your sources define one of
   these static, where these prototypes would be an error. */
#ifndef LG_NO_STUDENT_PROTOTYPES
bool ExhaustiveSolve(puzzleT puzzle, char *lettersToAssign);
bool SmarterSolve(puzzleT puzzle, int whichRow, int rowSumSoFar);
#endif

#ifdef __cplusplus
}
#endif

#endif /* LABGRADE_CRYPTARITHM_H */
