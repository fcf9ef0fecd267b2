// See include/AllocationCounter.h.
#include "AllocationCounter.h"
#include <errno.h>
#include <malloc.h>
#include <stdlib.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void __libc_free(void *pointer);
extern void *__libc_memalign(size_t alignment, size_t size);

static __thread int counting;
static __thread uint64_t allocations;
static __thread int64_t live;
static __thread int64_t peak;
static volatile int interposed;

static void counted(void *pointer) {
    if (!counting || pointer == NULL) return;
    allocations += 1;
    live += (int64_t)malloc_usable_size(pointer);
    if (live > peak) peak = live;
}

static void released(void *pointer) {
    if (!counting || pointer == NULL) return;
    live -= (int64_t)malloc_usable_size(pointer);
}

void *malloc(size_t size) {
    interposed = 1;
    void *pointer = __libc_malloc(size);
    counted(pointer);
    return pointer;
}

void *calloc(size_t count, size_t size) {
    void *pointer = __libc_calloc(count, size);
    counted(pointer);
    return pointer;
}

void *realloc(void *pointer, size_t size) {
    released(pointer);
    void *moved = __libc_realloc(pointer, size);
    counted(moved);
    return moved;
}

void free(void *pointer) {
    released(pointer);
    __libc_free(pointer);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL && size != 0) return ENOMEM;
    counted(pointer);
    *result = pointer;
    return 0;
}

void *aligned_alloc(size_t alignment, size_t size) {
    void *pointer = __libc_memalign(alignment, size);
    counted(pointer);
    return pointer;
}

void *memalign(size_t alignment, size_t size) {
    void *pointer = __libc_memalign(alignment, size);
    counted(pointer);
    return pointer;
}

void allocation_counter_start(void) {
    allocations = 0;
    live = 0;
    peak = 0;
    counting = 1;
}

void allocation_counter_stop(void) { counting = 0; }

uint64_t allocation_counter_allocations(void) { return allocations; }

uint64_t allocation_counter_peak_bytes(void) { return peak > 0 ? (uint64_t)peak : 0; }

int allocation_counter_is_active(void) {
    void *volatile probe = malloc(1);
    free(probe);
    return interposed;
}
