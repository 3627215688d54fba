/* The handout's two solvers as printed (static, genlib's TRUE/FALSE, strlib). */
#include "genlib.h"
#include "strlib.h"
#include "cryptarithm.h"

static bool ExhaustiveSolve(puzzleT puzzle, string lettersToAssign)
{
    int digit;

    if (StringLength(lettersToAssign) == 0) // no more choices to make
        return PuzzleSolved(puzzle); // checks arithmetic to see if works
    for (digit = 0; digit <= 9; digit++) { // try all digits
        if (AssignLetterToDigit(lettersToAssign[0], digit)) {
            if (ExhaustiveSolve(puzzle, lettersToAssign + 1))
                return TRUE;
            UnassignLetterFromDigit(lettersToAssign[0], digit);
        }
    }
    return FALSE; // nothing worked, need to backtrack
}

static bool SolveForAddend(puzzleT puzzle, int whichRow, int rowSumSoFar);
static bool SolveForSum(puzzleT puzzle, int rowSum);

static bool SmarterSolve(puzzleT puzzle, int whichRow, int rowSumSoFar)
{
    if (StringLength(puzzle.rows[Sum]) == 0) /* we've assigned all columns */
        return (rowSumSoFar == 0);          /* if no carry in, we solved it! */
    if (whichRow == Addend1 || whichRow == Addend2)
        return SolveForAddend(puzzle, whichRow, rowSumSoFar);
    else
        return SolveForSum(puzzle, rowSumSoFar);
}

static bool SolveForAddend(puzzleT puzzle, int whichRow, int rowSumSoFar)
{
    char ch;
    int digit;

    if (StringLength(puzzle.rows[whichRow]) == 0) // addend ended already
        return SmarterSolve(puzzle, whichRow+1, rowSumSoFar);

    ch = puzzle.rows[whichRow][0];
    puzzle.rows[whichRow]++;
    if (LetterUsed(ch)) // already assigned, just go from here
        return SmarterSolve(puzzle, whichRow+1, LetterToDigit(ch) + rowSumSoFar);
    else {
        // not yet assigned, try all digits
        for (digit = 0; digit <= 9; digit++) {
            if (AssignLetterToDigit(ch, digit)) {
                if (SmarterSolve(puzzle, whichRow+1, rowSumSoFar + digit))
                    return TRUE;
                UnassignLetterFromDigit(ch, digit);
            }
        }
        return FALSE;
    }
}

static bool SolveForSum(puzzleT puzzle, int rowSum)
{
    char ch = puzzle.rows[Sum][0];
    int sumDigit = (rowSum % 10);

    puzzle.rows[Sum]++;
    if (LetterUsed(ch)) { // already assigned
        return (LetterToDigit(ch) == sumDigit)
            && SmarterSolve(puzzle, Addend1, rowSum/10);
    } else {
        if (AssignLetterToDigit(ch, sumDigit)) { // only try matching digit
            if (SmarterSolve(puzzle, Addend1, rowSum/10))
                return TRUE;
            UnassignLetterFromDigit(ch, sumDigit);
        }
        return FALSE;
    }
}
