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

#endif
