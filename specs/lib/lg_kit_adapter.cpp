/*
 * labgrade's own adapter for the handouts' functions written with C++ strings (not student
 * code; students never compile or edit it).
 *
 * The C handouts pass a string as genlib's char *, which labgrade can make from Rust. The C++
 * handouts and most courses write the same parameter as a std::string:
 *     void RecursivePermute(std::string s, int k);
 *     void RecursivePermute(std::string & s, int k);
 *     bool ExhaustiveSolve(puzzleT puzzle, const std::string & lettersToAssign);
 * A std::string cannot be made outside C++, so labgrade compiles this file beside a C++
 * submission and calls the student's function through it. Under the Itanium C++ ABI (every
 * g++ and clang++ target labgrade runs on) a std::string parameter, by value or by reference,
 * travels as the address of a std::string the caller owns (a class with a non-trivial copy
 * constructor is passed by value through a temporary the caller makes and destroys), so the
 * adapter makes one std::string per string parameter, passes its address where the function
 * reads it, and leaves every other argument exactly as labgrade made it.
 *
 * forms[i] says how parameter i is passed: 0 as labgrade passes it, 1 a std::string the
 * caller never sees again (by value, const &, &&), 2 a std::string & whose final text is
 * copied back into labgrade's buffer (at most caps[i] - 1 bytes and a NUL), which is what the
 * handout's "s is as it was" is graded on.
 *
 * It is compiled plain (never counted), so every call counted is the student's.
 */

#include <cstdint>
#include <cstring>
#include <string>

namespace {

typedef uint64_t (*lg_six)(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);

/* The handout's puzzleT: three char * rows passed by value (cryptarithm.h). */
struct lg_rows {
    char *rows[3];
};
typedef uint64_t (*lg_rows_five)(lg_rows, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);

enum { LG_AS_IS = 0, LG_STRING_IN = 1, LG_STRING_INOUT = 2 };

/* The strings of one call, made from labgrade's char * arguments. */
struct lg_strings {
    std::string text[6];
    uint64_t args[6];

    lg_strings(const unsigned char *forms, const uint64_t *regs) {
        for (int i = 0; i < 6; i++) {
            args[i] = regs[i];
            if (forms[i] != LG_AS_IS && regs[i] != 0) {
                text[i] = reinterpret_cast<const char *>(regs[i]);
                args[i] = reinterpret_cast<uint64_t>(&text[i]);
            }
        }
    }

    /* Copies each std::string & back into labgrade's buffer. */
    void copy_back(const unsigned char *forms, const uint64_t *regs, const uint64_t *caps) {
        for (int i = 0; i < 6; i++) {
            if (forms[i] != LG_STRING_INOUT || regs[i] == 0 || caps[i] == 0) {
                continue;
            }
            char *buffer = reinterpret_cast<char *>(regs[i]);
            size_t n = text[i].size() < caps[i] - 1 ? text[i].size() : caps[i] - 1;
            std::memcpy(buffer, text[i].data(), n);
            buffer[n] = '\0';
        }
    }
};

} // namespace

extern "C" uint64_t labgrade_kit_call_cpp(void *fn, const unsigned char *forms,
                                          const uint64_t *regs, const uint64_t *caps) {
    lg_strings s(forms, regs);
    const uint64_t *a = s.args;
    uint64_t ret = ((lg_six) fn)(a[0], a[1], a[2], a[3], a[4], a[5]);
    s.copy_back(forms, regs, caps);
    return ret;
}

/* The same, for a function whose first parameter is the three-row puzzle by value. */
extern "C" uint64_t labgrade_kit_call_cpp_rows(void *fn, lg_rows first,
                                               const unsigned char *forms,
                                               const uint64_t *regs, const uint64_t *caps) {
    lg_strings s(forms, regs);
    const uint64_t *a = s.args;
    uint64_t ret = ((lg_rows_five) fn)(first, a[1], a[2], a[3], a[4], a[5]);
    s.copy_back(forms, regs, caps);
    return ret;
}
