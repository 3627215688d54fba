/*
 * labgrade hostile sample: 46-calls-stand-ins
 * -------------------------------------------
 * Attack: no graded function at all; main calls find_good_move, is_bad_position
 * and choose_computer_move, which nothing defines. labgrade used to link its
 * do-nothing stand-ins (return 0) for them, and then matched those stand-ins to
 * FindGoodMove, IsBadPosition and ChooseComputerMove by near spelling and graded
 * them: 17/139 for no code.
 * Harmless without a sandbox: it does not even link.
 * What stops it: a name within "did you mean" distance of a graded or counted
 * function is never given a stand-in, so the link fails: a build error that
 * names the missing functions.
 */
#include <stdio.h>

int find_good_move(int nCoins);
int is_bad_position(int nCoins);
int choose_computer_move(int nCoins);

int main(void) {
    int n = 13;
    printf("%d %d %d\n", find_good_move(n), is_bad_position(n), choose_computer_move(n));
    return 0;
}
