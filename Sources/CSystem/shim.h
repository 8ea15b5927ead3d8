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

/* epoll and eventfd for the daemon's own event loop. `struct epoll_event` is packed on
   x86_64, which Swift cannot import faithfully: these wrappers take and give plain values. */
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <stdint.h>

static inline int auditd_epoll_create(void) {
    return epoll_create1(EPOLL_CLOEXEC);
}

static inline int auditd_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t token) {
    struct epoll_event event;
    event.events = events;
    event.data.u64 = token;
    return epoll_ctl(epfd, op, fd, &event);
}

/* Waits for at most `capacity` events (capacity <= 256); writes each one's token and
   event bits; returns their number, or -1 with errno. */
static inline int auditd_epoll_wait(int epfd, uint64_t *tokens, uint32_t *events, int capacity, int timeout_ms) {
    struct epoll_event ready[256];
    if (capacity > 256) capacity = 256;
    int count = epoll_wait(epfd, ready, capacity, timeout_ms);
    for (int i = 0; i < count; i++) {
        tokens[i] = ready[i].data.u64;
        events[i] = ready[i].events;
    }
    return count;
}

static inline int auditd_eventfd(void) {
    return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}

#endif
