import AuditCore
import AuditOCR

/// The daemon's OCR engine (``TextRecognizer``), loaded when an audit first asks for OCR
/// (loading the language data takes a tenth of a second or more, and most daemons never
/// need it); used only from the OCR pool's one worker. An engine that cannot be loaded is
/// remembered with its reason, which each OCR audit's `text.*` rules then give as
/// incomplete.
final class LazyRecognizer: @unchecked Sendable {
    private let lock = Lock()
    private var loaded: Result<TextRecognizer, TextRecognizer.Unavailable>?

    /// What OCR reads on `snapshot`'s screenshot within `seconds`.
    func recognize(_ mapping: ScreenshotMapping, seconds: Double, shouldStop: @escaping @Sendable () -> Bool) -> TextRecognition {
        let engine = lock.withLock {
            if loaded == nil {
                // One core for OCR: the daemon started itself with OMP_THREAD_LIMIT=1
                // (``OpenMPThreadLimit``): Tesseract's OpenMP threads would otherwise spin
                // against the audits.
                loaded = Result { () throws(TextRecognizer.Unavailable) in try TextRecognizer() }
            }
            return loaded
        }
        switch engine {
        case .success(let recognizer):
            return recognizer.recognize(mapping, seconds: seconds, shouldStop: shouldStop)
        case .failure(let problem):
            return TextRecognition(lines: [], languages: "", incomplete: "OCR is not available: \(problem.description)", milliseconds: 0)
        case nil:
            return TextRecognition(lines: [], languages: "", incomplete: "OCR is not available", milliseconds: 0)
        }
    }
}
