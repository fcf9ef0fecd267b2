// Counts the heap allocations of one thread while counting is on (sesame-bench decode and
// encode, issue 30): this target defines malloc, calloc, realloc, free and the aligned
// allocators, which the executable's symbols interpose over glibc's for the whole process, and
// forwards each to glibc's own (__libc_malloc, ...). Off, a call costs one thread-local load.
#ifndef ALLOCATION_COUNTER_H
#define ALLOCATION_COUNTER_H
#include <stddef.h>
#include <stdint.h>

/// Starts counting on the calling thread: the counts and the peak are reset to zero.
void allocation_counter_start(void);
/// Stops counting on the calling thread.
void allocation_counter_stop(void);
/// Allocations made on the calling thread since the last start (malloc, calloc, realloc,
/// posix_memalign, aligned_alloc, memalign).
uint64_t allocation_counter_allocations(void);
/// The largest number of bytes allocated on the calling thread since the last start and not
/// yet freed (by usable size, as malloc_usable_size reports it).
uint64_t allocation_counter_peak_bytes(void);
/// Whether this counter's malloc is the one the process calls (false: the counts are zero).
int allocation_counter_is_active(void);

#endif
