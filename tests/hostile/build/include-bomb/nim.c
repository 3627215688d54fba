/* Include bomb: every level includes this file twice, 200 levels deep (gcc's limit), so
   the preprocessor would expand 2^200 copies. The build jail's CPU limit (or its wall
   timeout) stops it; the output kept is capped. */
#include "bomb.h"
