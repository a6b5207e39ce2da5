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

// Loads an aligned 8-byte word, or copies `size` bytes, of a trivially copyable value that
// another thread may be writing, for a sequence-checked read (`DerivedNode.valueWithoutLock()`):
// the caller throws the copy away unless the component's sequence number was the same, and
// even, before and after it. Volatile loads, so that the copy does not become a `memcpy` call. Not
// instrumented by ThreadSanitizer (the race is the protocol's, and a torn copy is never
// used), and not `always_inline`: under ThreadSanitizer the attributes differ from the
// Swift caller's, which keeps it out of line and so uninstrumented; otherwise it inlines.
static inline __attribute__((no_sanitize("thread")))
unsigned long long signals_load_word_unsynchronized(const void *_Nonnull source) {
    return *(const volatile unsigned long long *)source;
}

static inline __attribute__((no_sanitize("thread")))
void signals_copy_unsynchronized(void *_Nonnull destination, const void *_Nonnull source, unsigned long size) {
    unsigned char *to = (unsigned char *)destination;
    const volatile unsigned char *from = (const volatile unsigned char *)source;
    for (unsigned long index = 0; index < size; index++) to[index] = from[index];
}

#endif
