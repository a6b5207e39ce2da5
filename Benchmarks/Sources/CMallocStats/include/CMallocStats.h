#ifndef CMALLOCSTATS_H
#define CMALLOCSTATS_H
#include <stddef.h>
/// Bytes currently allocated through malloc (glibc mallinfo2: uordblks + hblkhd), or 0.
size_t cmallocstats_bytes_in_use(void);
#endif
