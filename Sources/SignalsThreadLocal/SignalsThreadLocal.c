#include "SignalsThreadLocal.h"

__thread void *_Nullable signals_thread_graph_slot SIGNALS_TLS_MODEL = 0;

#if !defined(__APPLE__)
#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#else
#include <sched.h>
#endif

// Marks the lock contended and sleeps until it is free, then holds it (marked contended:
// the release wakes the next waiter, if any).
void signals_lock_wait(uint32_t *_Nonnull word) {
    while (__atomic_exchange_n(word, 2, __ATOMIC_ACQUIRE) != 0) {
#if defined(__linux__)
        syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
#else
        sched_yield();
#endif
    }
}

void signals_lock_wake(uint32_t *_Nonnull word) {
#if defined(__linux__)
    syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
#else
    (void)word;
#endif
}
#endif
