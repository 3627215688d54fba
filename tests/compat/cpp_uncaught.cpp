// compat-stds: c++11 c++17
//
// Stanford's error() uncaught: ErrorException ends the program through
// std::terminate (SIGABRT, status 134 from the shell), as Stanford's does.
// Only the output before it and the status are compared (the terminate
// message is the C++ runtime's).

#include <iostream>
#include "error.h"

int main() {
    std::cout << "before" << std::endl;
    error("uncaught on purpose");
    std::cout << "not reached" << std::endl;
    return 0;
}
