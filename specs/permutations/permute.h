/*
 * File: permute.h
 * ---------------
 * The interface labgrade grades in a permutations submission (the recursive
 * backtracking handout, after Roberts):
 *
 *   void RecursivePermute(string s, int k);
 *       prints every rearrangement of the letters of s from position k on,
 *       one per line ("%s\n"), in the order the handout's swaps produce:
 *       for i = k .. StringLength(s) - 1: Swap(&s[k], &s[i]), recurse on k + 1,
 *       swap back. When it returns, s is as it was.
 *
 * labgrade calls it on its own copy of the case's string (string is genlib's
 * char *) and compares the lines printed, the string afterwards, and how many
 * times RecursivePermute was called and how deep it went; so keep its name.
 * It may be static; your Swap and the rest are yours.
 */

#ifndef LABGRADE_PERMUTE_H
#define LABGRADE_PERMUTE_H

#include "genlib.h"

#ifdef __cplusplus
extern "C" {
#endif

/* labgrade's build defines LG_NO_STUDENT_PROTOTYPES when your sources define the
   function static, where this prototype would be an error. In C++ the string is a char *
   too: labgrade passes the characters it lets you change. */
#ifndef LG_NO_STUDENT_PROTOTYPES
#ifdef __cplusplus
void RecursivePermute(char *s, int k);
#else
void RecursivePermute(string s, int k);
#endif
#endif

#ifdef __cplusplus
}
#endif

#endif /* LABGRADE_PERMUTE_H */
