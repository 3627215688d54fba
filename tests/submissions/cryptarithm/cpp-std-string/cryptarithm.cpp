// The C++ handout's ExhaustiveSolve: the letters to assign are a std::string, taken by value
// (the C edition passes a char *). The search is the handout's.
#include <cstring>
#include <string>
#include "cryptarithm.h"

bool ExhaustiveSolve(puzzleT puzzle, std::string lettersToAssign) {
    if (lettersToAssign.empty()) return PuzzleSolved(puzzle);
    char letter = lettersToAssign[0];
    for (int digit = 0; digit <= 9; ++digit) {
        if (!AssignLetterToDigit(letter, digit)) continue;
        if (ExhaustiveSolve(puzzle, lettersToAssign.substr(1))) return true;
        UnassignLetterFromDigit(letter, digit);
    }
    return false;
}

static bool SolveForAddend(puzzleT puzzle, int whichRow, int rowSumSoFar);
static bool SolveForSum(puzzleT puzzle, int rowSum);

bool SmarterSolve(puzzleT puzzle, int whichRow, int rowSumSoFar) {
    if (std::strlen(puzzle.rows[Sum]) == 0) return rowSumSoFar == 0;
    if (whichRow == Addend1 || whichRow == Addend2)
        return SolveForAddend(puzzle, whichRow, rowSumSoFar);
    return SolveForSum(puzzle, rowSumSoFar);
}

static bool SolveForAddend(puzzleT puzzle, int whichRow, int rowSumSoFar) {
    if (std::strlen(puzzle.rows[whichRow]) == 0)
        return SmarterSolve(puzzle, whichRow + 1, rowSumSoFar);
    char ch = *puzzle.rows[whichRow]++;
    if (LetterUsed(ch)) return SmarterSolve(puzzle, whichRow + 1, LetterToDigit(ch) + rowSumSoFar);
    for (int digit = 0; digit <= 9; ++digit) {
        if (!AssignLetterToDigit(ch, digit)) continue;
        if (SmarterSolve(puzzle, whichRow + 1, rowSumSoFar + digit)) return true;
        UnassignLetterFromDigit(ch, digit);
    }
    return false;
}

static bool SolveForSum(puzzleT puzzle, int rowSum) {
    char ch = *puzzle.rows[Sum]++;
    int sumDigit = rowSum % 10;
    if (LetterUsed(ch)) return LetterToDigit(ch) == sumDigit && SmarterSolve(puzzle, Addend1, rowSum / 10);
    if (!AssignLetterToDigit(ch, sumDigit)) return false;
    if (SmarterSolve(puzzle, Addend1, rowSum / 10)) return true;
    UnassignLetterFromDigit(ch, sumDigit);
    return false;
}
