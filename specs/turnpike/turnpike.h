/*
 * File: turnpike.h
 * ----------------
 * The interface labgrade grades in a turnpike submission (Weiss, Data Structures
 * and Algorithm Analysis in C, Figures 10.64 and 10.65).
 *
 * YOU WRITE
 *
 *   int turnpike(int x[], dist_set D, unsigned int n);
 *   int place(int x[], dist_set D, unsigned int n, int left, int right);
 *
 * exactly as the two figures do. x has n + 1 ints and the points go in x[1..n]
 * (x[0] is unused, as in the text; x is not initialized when turnpike is called).
 * D holds the n(n-1)/2 distances between the points, a multiset: the same
 * distance may be there several times.
 *
 *   - turnpike returns TRUE (1) when it finds the points: then x[1] = 0, x[1..n]
 *     is in nondecreasing order, and D is empty.
 *   - It returns FALSE (0) when no point set has these distances: then x is
 *     undefined and D must be exactly as it was given, every copy of every
 *     distance (the text's promise: "the distance array D will be untouched").
 *     Note that Figure 10.64 alone does not keep that promise: it removes x[n],
 *     x[n-1] and x[n] - x[n-1] and returns place's FALSE without putting them back.
 *   - place first tries x[Right] = dmax, then x[Left] = x[n] - dmax. A placement
 *     is feasible when every distance |x[j] - p| to the points already placed
 *     (1 <= j < Left, Right < j <= n) is in D *in the correct quantity*: if two
 *     of them are 4, D must hold two 4s (the worked example's "x3 = 4 is
 *     impossible, because D only has one occurrence of 4"). Figure 10.65's line 4
 *     only asks "is in D"; checking with contains() alone is not enough. One way
 *     that reads like the figure: delete each distance as you find it, and if one
 *     is missing put back the ones you already deleted.
 *   - When the recursive call fails, place puts back exactly the distances it
 *     removed (lines 9-11 and 18-20) before trying anything else: that is a
 *     backtrack. For the text's example D = {1,2,2,2,3,3,3,4,5,5,5,6,7,8,10},
 *     turnpike finds {0,3,5,6,8,10} with exactly one backtrack (x4 = 7 fails).
 *
 * Like the text, turnpike presumes "that a check has already been made to ensure
 * that |D| = n(n-1)/2": labgrade is the caller and makes it. It never calls
 * turnpike with such a D, nor with a distance that is zero or negative, nor with
 * n < 3. A D of the right size that no point set produces is a graded case.
 *
 * THE DISTANCE SET IS LABGRADE'S
 *
 * D is labgrade's: every operation below calls back into labgrade, which answers
 * it and records it. That record is what is graded besides your answer: the
 * number of place calls, the order in which your search places points, the
 * backtracks, and D after the call. So use only these operations on D (no copy
 * of D of your own), named as the pseudocode reads:
 *
 *   find_max(D)          the largest distance            (the text's find_max)
 *   delete_max(D)        removes and returns the largest (the text's delete_max)
 *   contains(d, D)       1 if d is in D, else 0          (the text's "d in D")
 *   delete_dist(d, D)    removes ONE copy of d           (the text's delete(d, D))
 *   insert_dist(d, D)    adds one copy of d              (the text's insert(d, D))
 *   is_empty(D)          1 if D holds nothing            (the text's "D is empty")
 *   dist_size(D)         number of distances, copies included
 *   dist_count(d, D)     how many copies of d are in D (0 if none): a quantity
 *                        check can ask it instead of deleting and putting back
 *
 * (delete is a C++ keyword, hence delete_dist and, to match, insert_dist.)
 *
 * A DISTANCE SET OF YOUR OWN
 *
 * Two forms need nothing more: a turnpike written on a plain int array,
 *
 *   int turnpike(int x[], int D[], unsigned int n);      (n may be an int)
 *
 * is handed the n(n-1)/2 distances in increasing order, in an array of its own
 * that it may change as it likes (mark a removed distance, move others); and a
 * C++ turnpike on std::multiset<int> (by value or reference) is handed one that
 * holds them. Any other distance set of your own (an array with its size, your
 * own struct) needs this one function, which labgrade calls instead of turnpike:
 *
 *   int labgrade_turnpike(int x[], const int distances[], unsigned int count,
 *                         unsigned int n);
 *
 * distances holds the count = n(n-1)/2 distances (in no particular order): build
 * your D from them, call your turnpike with x and n, and return what it returns.
 * For example, with a sorted array and a size:
 *
 *   int labgrade_turnpike(int x[], const int distances[], unsigned int count,
 *                         unsigned int n) {
 *       int *D = malloc(count * sizeof *D);
 *       memcpy(D, distances, count * sizeof *D);
 *       qsort(D, count, sizeof *D, compare_ints);
 *       int size = count, found = turnpike(x, D, &size, n);
 *       free(D);
 *       return found;
 *   }
 *
 * labgrade then grades the answer (TRUE or FALSE, and the points), and the calls and
 * depth of place; what happens to D and the order of the search cannot be seen from
 * outside your D, so those cases are not-observable for you (never a fail).
 * Misuse does not crash: find_max or delete_max on an empty D answer 0, and
 * delete_dist of a distance that is not in D does nothing; but labgrade records
 * it and it costs the case that checks D.
 *
 * The wrappers call through the table of function pointers in the struct, so your
 * library needs no symbol from labgrade. Build: gcc -std=c11 -Wall -O2 (C++ works
 * too: this header declares turnpike and place extern "C"). Keep the names
 * turnpike and place, not static: labgrade calls turnpike and counts both.
 */

#ifndef LABGRADE_TURNPIKE_H
#define LABGRADE_TURNPIKE_H

#ifdef __cplusplus
extern "C" {
#endif

#ifndef TRUE
#define TRUE 1
#endif
#ifndef FALSE
#define FALSE 0
#endif

/* The distance set: a pointer to labgrade's struct below. */
typedef struct lg_dist_set *dist_set;

/* Its operations (labgrade fills the table; call the wrappers instead). */
struct lg_dist_ops {
    int (*find_max)(dist_set D);
    int (*delete_max)(dist_set D);
    int (*contains)(dist_set D, int d);
    void (*delete_dist)(dist_set D, int d);
    void (*insert_dist)(dist_set D, int d);
    int (*is_empty)(dist_set D);
    unsigned int (*size)(dist_set D);
    unsigned int (*count)(dist_set D, int d);
};

struct lg_dist_set {
    const struct lg_dist_ops *ops;
    void *impl; /* labgrade's own state: do not touch */
};

/* Never counted as your calls, wherever this header is. */
#define LG_WRAPPER static inline __attribute__((no_instrument_function, unused))

LG_WRAPPER int find_max(dist_set D) { return D->ops->find_max(D); }
LG_WRAPPER int delete_max(dist_set D) { return D->ops->delete_max(D); }
LG_WRAPPER int contains(int d, dist_set D) { return D->ops->contains(D, d); }
LG_WRAPPER void delete_dist(int d, dist_set D) { D->ops->delete_dist(D, d); }
LG_WRAPPER void insert_dist(int d, dist_set D) { D->ops->insert_dist(D, d); }
LG_WRAPPER int is_empty(dist_set D) { return D->ops->is_empty(D); }
LG_WRAPPER unsigned int dist_size(dist_set D) { return D->ops->size(D); }
LG_WRAPPER unsigned int dist_count(int d, dist_set D) { return D->ops->count(D, d); }

#undef LG_WRAPPER

/* Figure 10.64: x[1..n] from D; TRUE with D empty, or FALSE with D as given. */
int turnpike(int x[], dist_set D, unsigned int n);

/* Figure 10.65: places x[left..right]; on FALSE, D is as it was on entry. */
int place(int x[], dist_set D, unsigned int n, int left, int right);

/* The adapter of a distance set of your own (see above): declared here so that a C++ file
   that includes this header defines it with C linkage. Without the header, in C++, its name
   is mangled; labgrade finds it by its name either way. */
int labgrade_turnpike(int x[], const int distances[], unsigned int count, unsigned int n);

#ifdef __cplusplus
}
#endif

#endif /* LABGRADE_TURNPIKE_H */
