/*
 * labgrade's own adapter for the handouts' functions written with C++ types (not student
 * code; students never compile or edit it).
 *
 * The C handouts pass a string as genlib's char *, a board as bool board[][N], an array as
 * int sums[]: memory labgrade can make from Rust. The C++ handouts and most courses write
 * the same parameters with C++ types:
 *     void RecursivePermute(std::string s, int k);
 *     bool ExhaustiveSolve(puzzleT puzzle, const std::string & lettersToAssign);
 *     bool Solve(Grid<bool> & board, int col);
 *     bool SolveSujiko(std::vector<std::vector<int>> & board, const Vector<int> & sums);
 * Those cannot be made outside C++, so labgrade compiles this file beside a C++ submission
 * (with the submission's own include path: the same Grid and Vector it uses) and calls the
 * student's function through it. Under the Itanium C++ ABI (every g++ and clang++ target
 * labgrade runs on) a class parameter, by value or by reference, travels as the address of
 * an object the caller owns (a class with a non-trivial copy constructor is passed by value
 * through a temporary the caller makes and destroys), so the adapter makes one object per
 * such parameter from labgrade's memory, passes its address where the function reads it, and
 * leaves every other argument exactly as labgrade made it.
 *
 * forms[i] says how parameter i is passed (src/problems/kit/cpp_form.rs): 0 as labgrade
 * passes it; else the low 4 bits are the container (1 std::string, 2 Grid<T>, 3
 * std::vector<std::vector<T>>, 4 Vector<T>, 5 std::vector<T>), bits 0x30 the element type
 * (0x10 bool, 0x20 char, 0x30 int), and 0x80 means a non-const reference, whose contents
 * are copied back into labgrade's memory after the call (regs[i] points at it: caps[i]
 * bytes, dims[2i] rows of dims[2i + 1] cells; an array is one row).
 *
 * It is compiled plain (never counted), so every call counted is the student's.
 */

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "grid.h"
#include "vector.h"

namespace {

typedef uint64_t (*lg_six)(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);

/* The handout's puzzleT: three char * rows passed by value (cryptarithm.h). */
struct lg_rows {
    char *rows[3];
};
typedef uint64_t (*lg_rows_five)(lg_rows, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);

/* One parameter the adapter makes, and how it goes back into labgrade's memory. */
struct lg_param {
    virtual ~lg_param() {}
    virtual void *address() = 0;
    virtual void copy_back(unsigned char *memory) = 0;
};

template <typename T>
T lg_cell(const unsigned char *memory, size_t i) {
    T v;
    std::memcpy(&v, memory + i * sizeof(T), sizeof(T));
    return v;
}

template <typename T>
void lg_set_cell(unsigned char *memory, size_t i, T v) {
    std::memcpy(memory + i * sizeof(T), &v, sizeof(T));
}

struct lg_string : lg_param {
    std::string text;
    size_t cap;
    lg_string(const unsigned char *memory, size_t c)
        : text(reinterpret_cast<const char *>(memory)), cap(c) {}
    void *address() { return &text; }
    void copy_back(unsigned char *memory) {
        if (cap == 0) return;
        size_t n = text.size() < cap - 1 ? text.size() : cap - 1;
        std::memcpy(memory, text.data(), n);
        memory[n] = '\0';
    }
};

template <typename T>
struct lg_grid : lg_param {
    Grid<T> grid;
    int rows, cols;
    lg_grid(const unsigned char *memory, int r, int c) : grid(r, c), rows(r), cols(c) {
        for (int i = 0; i < r; i++)
            for (int j = 0; j < c; j++) grid[i][j] = lg_cell<T>(memory, (size_t) i * c + j);
    }
    void *address() { return &grid; }
    void copy_back(unsigned char *memory) {
        for (int i = 0; i < rows; i++)
            for (int j = 0; j < cols; j++) lg_set_cell<T>(memory, (size_t) i * cols + j, grid[i][j]);
    }
};

template <typename T>
struct lg_std_grid : lg_param {
    std::vector<std::vector<T> > grid;
    size_t rows, cols;
    lg_std_grid(const unsigned char *memory, size_t r, size_t c)
        : grid(r, std::vector<T>(c)), rows(r), cols(c) {
        for (size_t i = 0; i < r; i++)
            for (size_t j = 0; j < c; j++) grid[i][j] = lg_cell<T>(memory, i * c + j);
    }
    void *address() { return &grid; }
    void copy_back(unsigned char *memory) {
        for (size_t i = 0; i < rows && i < grid.size(); i++)
            for (size_t j = 0; j < cols && j < grid[i].size(); j++)
                lg_set_cell<T>(memory, i * cols + j, grid[i][j]);
    }
};

template <typename T>
struct lg_vector : lg_param {
    Vector<T> vector;
    int n;
    lg_vector(const unsigned char *memory, int count) : n(count) {
        for (int i = 0; i < count; i++) vector.add(lg_cell<T>(memory, i));
    }
    void *address() { return &vector; }
    void copy_back(unsigned char *memory) {
        for (int i = 0; i < n && i < vector.size(); i++) lg_set_cell<T>(memory, i, vector[i]);
    }
};

template <typename T>
struct lg_std_vector : lg_param {
    std::vector<T> vector;
    lg_std_vector(const unsigned char *memory, size_t count) {
        for (size_t i = 0; i < count; i++) vector.push_back(lg_cell<T>(memory, i));
    }
    void *address() { return &vector; }
    void copy_back(unsigned char *memory) {
        for (size_t i = 0; i < vector.size(); i++) lg_set_cell<T>(memory, i, vector[i]);
    }
};

template <typename T>
lg_param *lg_container(int container, const unsigned char *memory, size_t rows, size_t cols) {
    switch (container) {
    case 2: return new lg_grid<T>(memory, (int) rows, (int) cols);
    case 3: return new lg_std_grid<T>(memory, rows, cols);
    case 4: return new lg_vector<T>(memory, (int) (rows * cols));
    case 5: return new lg_std_vector<T>(memory, rows * cols);
    default: return 0;
    }
}

lg_param *lg_make(unsigned char form, const unsigned char *memory, uint64_t cap,
                  uint64_t rows, uint64_t cols) {
    int container = form & 0x0f;
    if (container == 1) return new lg_string(memory, cap);
    switch (form & 0x30) {
    case 0x10: return lg_container<bool>(container, memory, rows, cols);
    case 0x20: return lg_container<char>(container, memory, rows, cols);
    case 0x30: return lg_container<int>(container, memory, rows, cols);
    default: return 0;
    }
}

/* The parameters of one call: labgrade's arguments, with each made one's address. */
struct lg_call {
    lg_param *made[6];
    uint64_t args[6];
    const unsigned char *forms;
    const uint64_t *regs;

    lg_call(const unsigned char *f, const uint64_t *r, const uint64_t *caps,
            const uint64_t *dims)
        : forms(f), regs(r) {
        for (int i = 0; i < 6; i++) {
            made[i] = 0;
            args[i] = regs[i];
            if (forms[i] != 0 && regs[i] != 0) {
                made[i] = lg_make(forms[i], reinterpret_cast<const unsigned char *>(regs[i]),
                                  caps[i], dims[2 * i], dims[2 * i + 1]);
                if (made[i]) args[i] = reinterpret_cast<uint64_t>(made[i]->address());
            }
        }
    }

    /* Copies back what the function left in the parameters it takes by reference. */
    ~lg_call() {
        for (int i = 0; i < 6; i++) {
            if (made[i] && (forms[i] & 0x80))
                made[i]->copy_back(reinterpret_cast<unsigned char *>(regs[i]));
            delete made[i];
        }
    }
};

} // namespace

extern "C" uint64_t labgrade_kit_call_cpp(void *fn, const unsigned char *forms,
                                          const uint64_t *regs, const uint64_t *caps,
                                          const uint64_t *dims) {
    lg_call call(forms, regs, caps, dims);
    const uint64_t *a = call.args;
    return ((lg_six) fn)(a[0], a[1], a[2], a[3], a[4], a[5]);
}

/* The same, for a function whose first parameter is the three-row puzzle by value. */
extern "C" uint64_t labgrade_kit_call_cpp_rows(void *fn, lg_rows first,
                                               const unsigned char *forms,
                                               const uint64_t *regs, const uint64_t *caps,
                                               const uint64_t *dims) {
    lg_call call(forms, regs, caps, dims);
    const uint64_t *a = call.args;
    return ((lg_rows_five) fn)(first, a[1], a[2], a[3], a[4], a[5]);
}
