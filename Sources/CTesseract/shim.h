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

/// The functions of Tesseract's C API auditd calls, typed from the header
/// (`__typeof__` names a function's type without referring to its symbol).
typedef struct AuditdTesseractAPI {
    __typeof__(&TessBaseAPICreate) _Nonnull TessBaseAPICreate;
    __typeof__(&TessBaseAPIInit3) _Nonnull TessBaseAPIInit3;
    __typeof__(&TessBaseAPIDelete) _Nonnull TessBaseAPIDelete;
    __typeof__(&TessBaseAPIEnd) _Nonnull TessBaseAPIEnd;
    __typeof__(&TessBaseAPIClear) _Nonnull TessBaseAPIClear;
    __typeof__(&TessBaseAPISetPageSegMode) _Nonnull TessBaseAPISetPageSegMode;
    __typeof__(&TessBaseAPISetImage) _Nonnull TessBaseAPISetImage;
    __typeof__(&TessBaseAPISetRectangle) _Nonnull TessBaseAPISetRectangle;
    __typeof__(&TessBaseAPISetSourceResolution) _Nonnull TessBaseAPISetSourceResolution;
    __typeof__(&TessBaseAPIRecognize) _Nonnull TessBaseAPIRecognize;
    __typeof__(&TessBaseAPIGetIterator) _Nonnull TessBaseAPIGetIterator;
    __typeof__(&TessMonitorCreate) _Nonnull TessMonitorCreate;
    __typeof__(&TessMonitorDelete) _Nonnull TessMonitorDelete;
    __typeof__(&TessMonitorSetDeadlineMSecs) _Nonnull TessMonitorSetDeadlineMSecs;
    __typeof__(&TessMonitorSetCancelThis) _Nonnull TessMonitorSetCancelThis;
    __typeof__(&TessMonitorSetCancelFunc) _Nonnull TessMonitorSetCancelFunc;
    __typeof__(&TessResultIteratorDelete) _Nonnull TessResultIteratorDelete;
    __typeof__(&TessResultIteratorGetPageIterator) _Nonnull TessResultIteratorGetPageIterator;
    __typeof__(&TessResultIteratorGetUTF8Text) _Nonnull TessResultIteratorGetUTF8Text;
    __typeof__(&TessResultIteratorConfidence) _Nonnull TessResultIteratorConfidence;
    __typeof__(&TessPageIteratorBoundingBox) _Nonnull TessPageIteratorBoundingBox;
    __typeof__(&TessPageIteratorIsAtBeginningOf) _Nonnull TessPageIteratorIsAtBeginningOf;
    __typeof__(&TessPageIteratorNext) _Nonnull TessPageIteratorNext;
    __typeof__(&TessDeleteText) _Nonnull TessDeleteText;
} AuditdTesseractAPI;

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
    AUDITD_TESSERACT_FUNCTION(TessBaseAPICreate)
    AUDITD_TESSERACT_FUNCTION(TessBaseAPIInit3)
    AUDITD_TESSERACT_FUNCTION(TessBaseAPIDelete)
    AUDITD_TESSERACT_FUNCTION(TessBaseAPIEnd)
    AUDITD_TESSERACT_FUNCTION(TessBaseAPIClear)
    AUDITD_TESSERACT_FUNCTION(TessBaseAPISetPageSegMode)
    AUDITD_TESSERACT_FUNCTION(TessBaseAPISetImage)
    AUDITD_TESSERACT_FUNCTION(TessBaseAPISetRectangle)
    AUDITD_TESSERACT_FUNCTION(TessBaseAPISetSourceResolution)
    AUDITD_TESSERACT_FUNCTION(TessBaseAPIRecognize)
    AUDITD_TESSERACT_FUNCTION(TessBaseAPIGetIterator)
    AUDITD_TESSERACT_FUNCTION(TessMonitorCreate)
    AUDITD_TESSERACT_FUNCTION(TessMonitorDelete)
    AUDITD_TESSERACT_FUNCTION(TessMonitorSetDeadlineMSecs)
    AUDITD_TESSERACT_FUNCTION(TessMonitorSetCancelThis)
    AUDITD_TESSERACT_FUNCTION(TessMonitorSetCancelFunc)
    AUDITD_TESSERACT_FUNCTION(TessResultIteratorDelete)
    AUDITD_TESSERACT_FUNCTION(TessResultIteratorGetPageIterator)
    AUDITD_TESSERACT_FUNCTION(TessResultIteratorGetUTF8Text)
    AUDITD_TESSERACT_FUNCTION(TessResultIteratorConfidence)
    AUDITD_TESSERACT_FUNCTION(TessPageIteratorBoundingBox)
    AUDITD_TESSERACT_FUNCTION(TessPageIteratorIsAtBeginningOf)
    AUDITD_TESSERACT_FUNCTION(TessPageIteratorNext)
    AUDITD_TESSERACT_FUNCTION(TessDeleteText)
#undef AUDITD_TESSERACT_FUNCTION
    return NULL;
}
