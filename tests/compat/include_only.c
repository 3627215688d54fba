/*
 * compat-stds: gnu89 c89 c99 c11 c17
 *
 * Every header that exists in C, included and never called: nothing to link
 * and not one warning under -Wall -Wextra (-Werror), even in strict C89.
 */

#include "genlib.h"
#include "simpio.h"
#include "strlib.h"
#include "random.h"
#include "graphics.h"
#include "extgraph.h"
#include "error.h"

int main(void)
{
    return 0;
}
