#if canImport(Glibc)
import Glibc
#endif

/// Tesseract's OpenMP runtime reads `OMP_THREAD_LIMIT` once, when it is loaded: with
/// Tesseract, on the first OCR audit (`AuditOCR`'s `TesseractLibrary` opens it then).
/// Unlimited, its threads spin and yield against the audits' on two cores — one phone
/// screenshot took 10–12 s of OCR (7 s of it in the kernel) against 1.5 s with one thread.
/// So the daemon sets it to 1 as it starts, before any thread of its own exists (setting a
/// variable is not safe beside threads that read the environment). An operator's own
/// value is kept. (While Tesseract was linked, the runtime was loaded before `main`, and
/// the daemon had to start itself again with the variable set.)
enum OpenMPThreadLimit {
    static let variable = "OMP_THREAD_LIMIT"

    /// Sets the variable to 1 unless it is set; call before any thread is started.
    static func ensureSet() {
        guard getenv(variable) == nil else { return }
        setenv(variable, "1", 1)
    }
}
