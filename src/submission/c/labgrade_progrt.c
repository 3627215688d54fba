/*
 * labgrade_progrt.c: linked into programs labgrade builds from sources, so that a runaway
 * recursion in a program is told apart from any other segfault.
 *
 * A constructor notes roughly where the main stack starts and installs a SIGSEGV handler on
 * an alternate stack. When the faulting address lies within the stack limit below that point
 * (plus a margin), the handler writes a marker line to the stack-overflow file descriptor
 * (LABGRADE_MARK_FD, opened by labgrade and kept out of the student's way) and dies of
 * SIGSEGV as it would have anyway.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#define LG_MARK_FD 1023

static uintptr_t lg_stack_top;
static uintptr_t lg_stack_limit;
static char lg_altstack[64 * 1024];

__attribute__((no_instrument_function))
static void lg_segv(int sig, siginfo_t *info, void *ctx) {
    (void)ctx;
    uintptr_t addr = (uintptr_t)info->si_addr;
    uintptr_t low = lg_stack_top > lg_stack_limit + (1u << 20) ? lg_stack_top - lg_stack_limit - (1u << 20) : 0;
    if (addr >= low && addr <= lg_stack_top) {
        static const char msg[] = "stack-overflow\n";
        ssize_t r = write(LG_MARK_FD, msg, sizeof msg - 1);
        (void)r;
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

__attribute__((constructor, no_instrument_function))
static void lg_install(void) {
    int here;
    struct rlimit rl;
    stack_t ss;
    struct sigaction sa;
    lg_stack_top = (uintptr_t)&here + 4096;
    if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
        lg_stack_limit = (uintptr_t)rl.rlim_cur;
    else
        lg_stack_limit = 8u << 20;
    memset(&ss, 0, sizeof ss);
    ss.ss_sp = lg_altstack;
    ss.ss_size = sizeof lg_altstack;
    sigaltstack(&ss, 0);
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = lg_segv;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, 0);
}
