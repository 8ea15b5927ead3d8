#ifndef AUDITD_CSYSTEM_SHIM_H
#define AUDITD_CSYSTEM_SHIM_H

/* glibc's allocator controls, which Swift's Glibc module does not export. */
#include <malloc.h>

static inline int auditd_limit_malloc_arenas(int arenas) {
    return mallopt(M_ARENA_MAX, arenas);
}

static inline int auditd_malloc_trim(void) {
    return malloc_trim(0);
}

#endif
