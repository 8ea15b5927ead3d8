// Tesseract's C API, from Debian's libtesseract-dev: OCR of screenshots
// (Sources/AuditOCR). Images are handed over as decoded RGBA bytes, so Leptonica's own
// image functions are not needed.
//
// The library is not linked: it is opened with dlopen when an audit first asks for OCR
// (`auditd_tesseract_load`). Linked, it and the 44 libraries it brings (curl, NSS,
// Kerberos, LDAP, libarchive, TIFF, WebP, ...) were mapped into every auditd at start,
// about 8 MB of resident memory that most daemons never use.
#include <dlfcn.h>
#include <stddef.h>
#include <tesseract/capi.h>

/// The functions of Tesseract's C API auditd calls, listed once: the table's fields and
/// the loader below are both made from this list, so neither can miss one.
#define AUDITD_TESSERACT_FUNCTIONS(X) \
    X(TessBaseAPICreate) \
    X(TessBaseAPIInit3) \
    X(TessBaseAPIDelete) \
    X(TessBaseAPIEnd) \
    X(TessBaseAPIClear) \
    X(TessBaseAPISetPageSegMode) \
    X(TessBaseAPISetImage) \
    X(TessBaseAPISetRectangle) \
    X(TessBaseAPISetSourceResolution) \
    X(TessBaseAPIRecognize) \
    X(TessBaseAPIGetIterator) \
    X(TessMonitorCreate) \
    X(TessMonitorDelete) \
    X(TessMonitorSetDeadlineMSecs) \
    X(TessMonitorSetCancelThis) \
    X(TessMonitorSetCancelFunc) \
    X(TessResultIteratorDelete) \
    X(TessResultIteratorGetPageIterator) \
    X(TessResultIteratorGetUTF8Text) \
    X(TessResultIteratorConfidence) \
    X(TessPageIteratorBoundingBox) \
    X(TessPageIteratorIsAtBeginningOf) \
    X(TessPageIteratorNext) \
    X(TessDeleteText)

/// The table of those functions, typed from the header (`__typeof__` names a function's
/// type without referring to its symbol).
#define AUDITD_TESSERACT_FIELD(name) __typeof__(&name) _Nonnull name;
typedef struct AuditdTesseractAPI {
    AUDITD_TESSERACT_FUNCTIONS(AUDITD_TESSERACT_FIELD)
    /// OpenMP's `omp_get_thread_limit`, from the runtime Tesseract brings (libgomp), when
    /// it has one: what the runtime read from `OMP_THREAD_LIMIT` as it was loaded.
    int (*_Nullable omp_get_thread_limit)(void);
} AuditdTesseractAPI;
#undef AUDITD_TESSERACT_FIELD

/// Opens `library` (RTLD_LOCAL: its symbols stay out of the process's namespace) and
/// fills `api` with its functions. Returns NULL when every function was found; else
/// why not, in words: dlerror's message, or the name of the function missing (the
/// library is then closed again). A library loaded whole is never closed: the engine
/// lives as long as the process.
static inline const char *_Nullable auditd_tesseract_load(const char *_Nonnull library, AuditdTesseractAPI *_Nonnull api) {
    void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        return reason != NULL ? reason : "dlopen failed";
    }
#define AUDITD_TESSERACT_FUNCTION(name)                                     \
    if ((api->name = (__typeof__(api->name))dlsym(handle, #name)) == NULL) { \
        dlclose(handle);                                                    \
        return "the library has no " #name;                                 \
    }
    AUDITD_TESSERACT_FUNCTIONS(AUDITD_TESSERACT_FUNCTION)
#undef AUDITD_TESSERACT_FUNCTION
    // Looked up through the library's handle, which searches what it depends on too.
    api->omp_get_thread_limit = (int (*)(void))dlsym(handle, "omp_get_thread_limit");
    return NULL;
}
