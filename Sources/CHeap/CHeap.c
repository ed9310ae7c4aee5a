#include "CHeap.h"

#if defined(__GLIBC__)
#include <malloc.h>

void sitegen_return_freed_memory(void) {
    // Fixed thresholds also switch off glibc's dynamic raising of them.
    mallopt(M_TRIM_THRESHOLD, 1 << 20);   // give back free memory above the heap top beyond 1 MiB
    mallopt(M_MMAP_THRESHOLD, 64 << 10);  // blocks of 64 KiB or more get their own mapping
}

void sitegen_trim_heap(void) {
    malloc_trim(0);
}
#else
void sitegen_return_freed_memory(void) {}
void sitegen_trim_heap(void) {}
#endif
