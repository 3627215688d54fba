/*
 * labgrade compiles this file on its own (no header or macro of yours, hidden visibility)
 * and links it with the unity object: see lg_game_driver.cpp.
 */
#include "lg_game_driver.cpp"
