/*
 * labgrade_probe.c: compiled WITH -finstrument-functions into every instrumented library.
 * The sandboxed child calls it once before the case and requires exactly one counted call
 * at its address: proof that the hooks in this library are live (not glibc's no-ops).
 */
__attribute__((visibility("default"), noinline))
int labgrade_probe(int x) {
    return x + 1;
}
