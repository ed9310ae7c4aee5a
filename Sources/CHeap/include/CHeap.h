#ifndef CHEAP_H
#define CHEAP_H

/// Makes glibc's malloc hand freed memory back to the system promptly: a build frees a
/// great deal as it streams polls through, and by default glibc keeps most of it (raising
/// the trim threshold as it goes), and keep one heap per core rather than eight. A no-op
/// where malloc is not glibc's. Called before any thread starts.
void sitegen_return_freed_memory(void);

/// Returns the free pages inside malloc's heaps to the system now (malloc_trim), e.g.
/// after a poll file's parse tree and pages are freed. A no-op where malloc is not glibc's.
void sitegen_trim_heap(void);

#endif
