/*
 * labgrade_hooks.c: call counting for instrumented student libraries.
 *
 * Linked into every library labgrade builds with -finstrument-functions. The hooks are
 * hidden so that the library binds to these and never to glibc's exported no-op versions
 * (the trap that silently yields zero counts). They write into a block the sandboxed child
 * maps MAP_SHARED and publishes through `labgrade_counters`, so the worker can read counts
 * and the depth reached even after the child died of a stack overflow.
 *
 * The layout mirrors `Counters` in reference/src/instrument.rs: change both together.
 * This file is compiled without -finstrument-functions.
 */
#include <stdint.h>

#define LG_MAX_FUNCS 32
#define LG_TRACE_LEN 4096
#define LG_MAGIC 0x4c41424752414445ULL

struct labgrade_counters_block {
    uint64_t magic;
    uint64_t nfuncs;
    uint64_t addr[LG_MAX_FUNCS];
    uint64_t calls[LG_MAX_FUNCS];
    int64_t depth[LG_MAX_FUNCS];
    int64_t max_depth[LG_MAX_FUNCS];
    int64_t total_depth;
    int64_t total_max_depth;
    uint64_t other_calls;
    uint64_t trace_len;
    uint32_t trace[LG_TRACE_LEN];
};

/* Set by the host (labgrade's sandboxed child) with dlsym before any student code runs. */
__attribute__((visibility("default")))
struct labgrade_counters_block *labgrade_counters = 0;

#define LG_HOOK __attribute__((visibility("hidden"), no_instrument_function))

LG_HOOK void __cyg_profile_func_enter(void *fn, void *site) {
    struct labgrade_counters_block *c = labgrade_counters;
    (void)site;
    if (!c || c->magic != LG_MAGIC) return;
    c->total_depth++;
    if (c->total_depth > c->total_max_depth) c->total_max_depth = c->total_depth;
    uint32_t index = 255;
    uint64_t n = c->nfuncs < LG_MAX_FUNCS ? c->nfuncs : LG_MAX_FUNCS;
    for (uint64_t i = 0; i < n; i++) {
        if (c->addr[i] == (uint64_t)(uintptr_t)fn) {
            c->calls[i]++;
            c->depth[i]++;
            if (c->depth[i] > c->max_depth[i]) c->max_depth[i] = c->depth[i];
            index = (uint32_t)i;
            break;
        }
    }
    if (index == 255) c->other_calls++;
    if (c->trace_len < LG_TRACE_LEN) {
        int64_t d = c->total_depth;
        if (d < 0) d = 0;
        if (d > 0xffffff) d = 0xffffff;
        c->trace[c->trace_len] = index | ((uint32_t)d << 8);
    }
    c->trace_len++;
}

LG_HOOK void __cyg_profile_func_exit(void *fn, void *site) {
    struct labgrade_counters_block *c = labgrade_counters;
    (void)site;
    if (!c || c->magic != LG_MAGIC) return;
    c->total_depth--;
    uint64_t n = c->nfuncs < LG_MAX_FUNCS ? c->nfuncs : LG_MAX_FUNCS;
    for (uint64_t i = 0; i < n; i++) {
        if (c->addr[i] == (uint64_t)(uintptr_t)fn) {
            c->depth[i]--;
            break;
        }
    }
}
