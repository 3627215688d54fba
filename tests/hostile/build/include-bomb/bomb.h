#include "bomb.h"
#include "bomb.h"
int lg_bomb_unused_name;
