/*
 * labgrade compiles this file after your sources, in one translation unit
 * (g++ -include your.cpp ... unity.cpp): see game_side.h and lg_game_driver.h.
 */
#include "lg_game_driver.h"
