#if canImport(Glibc)
import Glibc
#endif

/// Tesseract's OpenMP runtime reads `OMP_THREAD_LIMIT` once, when the library is loaded:
/// with Tesseract, on the first OCR audit (`AuditOCR`'s `TesseractLibrary`), when the
/// daemon's threads are running and setting a variable is no longer safe. Unlimited, its
/// threads spin and yield against the audits' on two cores — one phone screenshot took
/// 10–12 s of OCR (7 s of it in the kernel) against 1.5 s with one thread. So the daemon,
/// started without the variable, sets it to 1 and starts itself again (the same process:
/// systemd and the tests see one pid). An operator's own value is kept.
enum OpenMPThreadLimit {
    static let variable = "OMP_THREAD_LIMIT"

    /// Returns when the variable is set; otherwise replaces the process with itself, the
    /// variable set (and returns only if that fails: OCR is then slower, nothing else).
    static func ensureSet() {
        guard getenv(variable) == nil else { return }
        setenv(variable, "1", 1)
        execv("/proc/self/exe", CommandLine.unsafeArgv)
    }
}
