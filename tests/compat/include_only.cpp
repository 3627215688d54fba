// compat-stds: c++11 c++14 c++17 c++20
//
// Every header, included and never called (foreach.h first: its "in" macro
// must not break the headers after it): nothing to link, not one warning
// under -Wall -Wextra (-Werror).

#include "foreach.h"
#include "genlib.h"
#include "simpio.h"
#include "strlib.h"
#include "random.h"
#include "graphics.h"
#include "extgraph.h"
#include "error.h"
#include "console.h"
#include "vector.h"
#include "grid.h"
#include "gwindow.h"

int main() {
    return 0;
}
