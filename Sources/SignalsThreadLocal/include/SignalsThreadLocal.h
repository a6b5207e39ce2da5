#ifndef SIGNALS_THREAD_LOCAL_H
#define SIGNALS_THREAD_LOCAL_H

// One pointer per thread for Signals' per-thread graph state (`Graph.current`).
//
// Swift has no thread-local variables; `pthread_getspecific` costs a call and ~20
// instructions, and every property read inside a derived closure needs the thread's state.
// A C thread-local read through these inline functions compiles, in the caller's module, to
// one load relative to the thread pointer. The initial-exec model keeps it one load in a
// shared library too (the variable takes 8 bytes of the static TLS block).
//
// Not owning: Signals keeps the state alive with a pthread key whose destructor clears this
// slot before releasing it (see `Graph.makeCurrent()`).

#if defined(__linux__) && !defined(__ANDROID__)
#define SIGNALS_TLS_MODEL __attribute__((tls_model("initial-exec")))
#else
#define SIGNALS_TLS_MODEL
#endif

extern __thread void *_Nullable signals_thread_graph_slot SIGNALS_TLS_MODEL;

static inline __attribute__((always_inline)) void *_Nullable signals_thread_graph(void) {
    return signals_thread_graph_slot;
}

static inline __attribute__((always_inline)) void signals_set_thread_graph(void *_Nullable graph) {
    signals_thread_graph_slot = graph;
}

// The lock of a graph component: one 32-bit word (0 free, 1 held, 2 held with threads
// waiting). Taking and releasing a free lock is one atomic instruction each, inlined into the
// caller; a thread that finds it held sleeps in the kernel (a futex on Linux,
// `os_unfair_lock` on Darwin). Not recursive; released by the thread that took it.
#include <stdint.h>

#if defined(__APPLE__)
#include <os/lock.h>

static inline __attribute__((always_inline)) int signals_lock_try(uint32_t *_Nonnull word) {
    return os_unfair_lock_trylock((os_unfair_lock_t)word);
}

static inline __attribute__((always_inline)) void signals_lock(uint32_t *_Nonnull word) {
    os_unfair_lock_lock((os_unfair_lock_t)word);
}

static inline __attribute__((always_inline)) void signals_unlock(uint32_t *_Nonnull word) {
    os_unfair_lock_unlock((os_unfair_lock_t)word);
}
#else
void signals_lock_wait(uint32_t *_Nonnull word);
void signals_lock_wake(uint32_t *_Nonnull word);

/// Takes the lock if it is free; returns whether it did.
static inline __attribute__((always_inline)) int signals_lock_try(uint32_t *_Nonnull word) {
    uint32_t expected = 0;
    return __atomic_compare_exchange_n(word, &expected, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static inline __attribute__((always_inline)) void signals_lock(uint32_t *_Nonnull word) {
    if (!signals_lock_try(word)) signals_lock_wait(word);
}

static inline __attribute__((always_inline)) void signals_unlock(uint32_t *_Nonnull word) {
    if (__atomic_exchange_n(word, 0, __ATOMIC_RELEASE) == 2) signals_lock_wake(word);
}
#endif

#endif
