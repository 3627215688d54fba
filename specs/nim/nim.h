/*
 * File: nim.h
 * -----------
 * The interface labgrade grades in a nim submission (Roberts, Figure 7-5).
 *
 * labgrade loads the submission as a shared library and calls these three
 * functions by name, with the C calling convention:
 *
 *   FindGoodMove(nCoins)        a number of coins (1..3) that leaves the
 *                               opponent in a bad position, or NO_GOOD_MOVE (-1)
 *   IsBadPosition(nCoins)       true if the player to move with nCoins coins
 *                               has no good move (1 coin is the simple case)
 *   ChooseComputerMove(nCoins)  the computer's move: the good move, or 1 when
 *                               there is none
 *
 * It also counts how many times FindGoodMove and IsBadPosition call each
 * other, and how deep the recursion goes, so keep their names exactly.
 *
 * Include this header from your .c or .cpp file. In C++ it declares the
 * functions extern "C". A C++ file that does NOT include it exports
 * C++-mangled names (e.g. _Z12FindGoodMovei); labgrade still finds those by
 * demangling, but including the header is the reliable way.
 */

#ifndef LABGRADE_NIM_H
#define LABGRADE_NIM_H

#ifndef __cplusplus
#include <stdbool.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* labgrade's build defines LG_NO_STUDENT_PROTOTYPES when your sources define one of
   these static (as Roberts' C edition does), where these prototypes would be an error;
   it makes static graded functions callable itself. */
#ifndef LG_NO_STUDENT_PROTOTYPES
int FindGoodMove(int nCoins);
bool IsBadPosition(int nCoins);
int ChooseComputerMove(int nCoins);
#endif

#ifdef __cplusplus
}
#endif

#endif /* LABGRADE_NIM_H */
