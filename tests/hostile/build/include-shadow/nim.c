/*
 * labgrade hostile build sample: include-shadow
 * -------------------------------------------------
 * Reads a file outside the submission into the compilation:
 *     #include "/etc/shadow"
 * The build jail lets the compiler read only the toolchain, the staged
 * submission and labgrade's headers, so the build fails at this line, and
 * nothing of the file reaches the student's report. (The rest of a real
 * submission would not matter: the build stops here.)
 */
#include "nim.h"
#include "/etc/shadow"

int FindGoodMove(int nCoins) { return nCoins > 1 ? 1 : -1; }
bool IsBadPosition(int nCoins) { return nCoins == 1; }
int ChooseComputerMove(int nCoins) { return 1; }
