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
 *
 * Rust crates are counted by `mcount` at the end: rustc has no -finstrument-functions, but
 * `-Z instrument-mcount` calls `mcount()` at the entry of every function it compiles.
 */
#include <stdint.h>
#include <sys/mman.h>

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
    /* Byte size of each tracked function (Rust builds only: see mcount below). */
    uint64_t size[LG_MAX_FUNCS];
    /* Calls of the hooks made by hand (see labgrade_hand_called_enter below). */
    uint64_t forged;
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
        /* The depth of the tracked functions alone, as the reference counts it: a helper
           of the student's own (a Swap, an inline StringLength) between two tracked frames
           must not make the traces part. Only the kept events pay for the sum. */
        int64_t d = 0;
        for (uint64_t i = 0; i < n; i++) d += c->depth[i];
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

/*
 * The counting build compiles the student's sources with
 * -D__cyg_profile_func_enter=labgrade_hand_called_enter (and _exit likewise): the calls the
 * compiler inserts name the real hooks above (macros do not reach them), while a call the
 * student's code writes by hand (to make a loop count as recursion) lands here, and is
 * recorded as forging the counts instead of counted.
 */
LG_HOOK void labgrade_hand_called_enter(void *fn, void *site) {
    struct labgrade_counters_block *c = labgrade_counters;
    (void)fn;
    (void)site;
    if (c && c->magic == LG_MAGIC) c->forged++;
}

LG_HOOK void labgrade_hand_called_exit(void *fn, void *site) {
    labgrade_hand_called_enter(fn, site);
}

/*
 * mcount: the entry hook of a Rust crate built with `-Z instrument-mcount`
 * (and frame pointers). It is called at the entry of every function rustc compiled for the
 * crate, std's generic code included, and has no exit counterpart. So:
 *
 * - only the tracked functions count: the one whose code holds the return address
 *   (addr[i] <= ret < addr[i] + size[i]); every other function (helpers, std's generics) is
 *   ignored, and the trace and total depth see the tracked functions only;
 * - depth comes from a shadow stack of the tracked frames' stack positions: a frame at or
 *   below the current call's position has returned (the stack grows down; a sibling call
 *   reuses its predecessor's position), so it is popped before the new one is pushed.
 *
 * mcount itself is a few instructions of assembly that keep every argument register (gcc's
 * -pg calls it before the function has read its arguments; rustc's call is an ordinary one)
 * and pass the return address and the caller's stack pointer to the C body. x86-64 only:
 * elsewhere there is no mcount here, and the probe says counting is off.
 *
 * The shadow stack is mapped on first use and grows by doubling (a 40,000-deep maze search
 * needs 640 KiB), so C builds, which never call mcount, pay nothing.
 */
struct lg_frame {
    uintptr_t sp;
    uint64_t index;
};
static struct lg_frame *lg_shadow;
static uint64_t lg_shadow_len, lg_shadow_cap;

static int lg_shadow_push(uintptr_t sp, uint64_t index) {
    if (lg_shadow_len == lg_shadow_cap) {
        uint64_t cap = lg_shadow_cap ? lg_shadow_cap * 2 : 4096;
        void *p = mmap(0, cap * sizeof(struct lg_frame), PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) return 0;
        struct lg_frame *n = p;
        for (uint64_t k = 0; k < lg_shadow_len; k++) n[k] = lg_shadow[k];
        if (lg_shadow) munmap(lg_shadow, lg_shadow_cap * sizeof(struct lg_frame));
        lg_shadow = n;
        lg_shadow_cap = cap;
    }
    lg_shadow[lg_shadow_len].sp = sp;
    lg_shadow[lg_shadow_len].index = index;
    lg_shadow_len++;
    return 1;
}

/* The body of mcount: `ret` is the return address into the entered function, `sp` the
   stack pointer it called mcount with. */
LG_HOOK void labgrade_mcount_enter(uintptr_t ret, uintptr_t sp) {
    struct labgrade_counters_block *c = labgrade_counters;
    if (!c || c->magic != LG_MAGIC) return;
    uint64_t n = c->nfuncs < LG_MAX_FUNCS ? c->nfuncs : LG_MAX_FUNCS;
    uint64_t index = LG_MAX_FUNCS;
    for (uint64_t i = 0; i < n; i++) {
        if (c->size[i] && ret - (uintptr_t)c->addr[i] < c->size[i]) {
            index = i;
            break;
        }
    }
    if (index == LG_MAX_FUNCS) return;
    while (lg_shadow_len && lg_shadow[lg_shadow_len - 1].sp <= sp) {
        lg_shadow_len--;
        c->depth[lg_shadow[lg_shadow_len].index]--;
        c->total_depth--;
    }
    if (!lg_shadow_push(sp, index)) return;
    c->total_depth++;
    if (c->total_depth > c->total_max_depth) c->total_max_depth = c->total_depth;
    c->calls[index]++;
    c->depth[index]++;
    if (c->depth[index] > c->max_depth[index]) c->max_depth[index] = c->depth[index];
    if (c->trace_len < LG_TRACE_LEN) {
        int64_t d = c->total_depth;
        if (d > 0xffffff) d = 0xffffff;
        c->trace[c->trace_len] = (uint32_t)index | ((uint32_t)d << 8);
    }
    c->trace_len++;
}

#if defined(__x86_64__)
__asm__(
    ".text\n"
    ".globl mcount\n"
    ".hidden mcount\n"
    ".type mcount, @function\n"
    "mcount:\n"
    "    push %rbp\n"
    "    mov %rsp, %rbp\n"
    "    push %rax\n"
    "    push %rcx\n"
    "    push %rdx\n"
    "    push %rsi\n"
    "    push %rdi\n"
    "    push %r8\n"
    "    push %r9\n"
    "    push %r10\n"
    "    push %r11\n"
    "    sub $136, %rsp\n"
    "    movdqu %xmm0, 0(%rsp)\n"
    "    movdqu %xmm1, 16(%rsp)\n"
    "    movdqu %xmm2, 32(%rsp)\n"
    "    movdqu %xmm3, 48(%rsp)\n"
    "    movdqu %xmm4, 64(%rsp)\n"
    "    movdqu %xmm5, 80(%rsp)\n"
    "    movdqu %xmm6, 96(%rsp)\n"
    "    movdqu %xmm7, 112(%rsp)\n"
    "    mov 8(%rbp), %rdi\n"
    "    lea 16(%rbp), %rsi\n"
    "    call labgrade_mcount_enter\n"
    "    movdqu 0(%rsp), %xmm0\n"
    "    movdqu 16(%rsp), %xmm1\n"
    "    movdqu 32(%rsp), %xmm2\n"
    "    movdqu 48(%rsp), %xmm3\n"
    "    movdqu 64(%rsp), %xmm4\n"
    "    movdqu 80(%rsp), %xmm5\n"
    "    movdqu 96(%rsp), %xmm6\n"
    "    movdqu 112(%rsp), %xmm7\n"
    "    add $136, %rsp\n"
    "    pop %r11\n"
    "    pop %r10\n"
    "    pop %r9\n"
    "    pop %r8\n"
    "    pop %rdi\n"
    "    pop %rsi\n"
    "    pop %rdx\n"
    "    pop %rcx\n"
    "    pop %rax\n"
    "    pop %rbp\n"
    "    ret\n"
    ".size mcount, .-mcount\n");
#endif
