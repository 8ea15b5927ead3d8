#ifndef AUDITD_CSYSTEM_SHIM_H
#define AUDITD_CSYSTEM_SHIM_H

/* glibc's allocator controls, which Swift's Glibc module does not export. */
#include <malloc.h>

static inline int auditd_limit_malloc_arenas(int arenas) {
    return mallopt(M_ARENA_MAX, arenas);
}

/* A fixed mmap threshold: blocks this large or larger (snapshot bodies, reports) get
   their own mapping and go back to the system when freed. glibc otherwise raises the
   threshold after the first large free, and later large blocks stay in the heap. */
static inline int auditd_fix_mmap_threshold(int bytes) {
    return mallopt(M_MMAP_THRESHOLD, bytes);
}

static inline int auditd_malloc_trim(void) {
    return malloc_trim(0);
}

#endif
