// compat-stds: c++98 c++03
//
// Roberts' C++ edition predates C++11: every header but foreach.h (which is
// C++11's range-for) compiles as C++98, included and never called.

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

int main() {
    return 0;
}
