// Tesseract's C API, from Debian's libtesseract-dev: OCR of screenshots
// (Sources/AuditOCR). Images are handed over as decoded RGBA bytes, so Leptonica's own
// image functions are not needed.
#include <tesseract/capi.h>
