#ifndef AUDITD_CLIBXML2_SHIM_H
#define AUDITD_CLIBXML2_SHIM_H

/* Debian builds libxml2 with ICU; ICU's headers clash with Foundation's copy of
 * them ("'UErrorCode' has different definitions"). Nothing here needs ICU, so
 * hide it before any other libxml2 header is read. */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

/* xmlFree is a global function-pointer variable, which Swift 6 rejects as
 * shared mutable state; call it through a function instead. */
static inline void auditd_xmlFree(void *pointer) {
    xmlFree(pointer);
}

/* glibc's memrchr, declared here because its header hides it without _GNU_SOURCE:
 * finds the last '<' before the parser's position in one vectorised call. */
extern void *memrchr(const void *s, int c, size_t n);

static inline long auditd_last_index_of(const unsigned char *base, long from, long to, unsigned char byte) {
    if (to <= from) return -1;
    const unsigned char *hit = (const unsigned char *)memrchr(base + from, byte, (size_t)(to - from));
    return hit ? (long)(hit - base) : -1;
}

#endif
