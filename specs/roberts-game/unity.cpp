/*
 * labgrade compiles this file after your sources, in one translation unit
 * (g++ -include your.cpp ... unity.cpp): see game_side.h and lg_game_adapter.h. It only
 * calls your functions; labgrade's driver (driver.cpp) is compiled apart from your code.
 */
#include "lg_game_adapter.h"
