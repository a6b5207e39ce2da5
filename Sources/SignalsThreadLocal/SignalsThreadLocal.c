#include "SignalsThreadLocal.h"

__thread void *_Nullable signals_thread_graph_slot SIGNALS_TLS_MODEL = 0;
