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
    private let logger: Logger

    init(logger: Logger) { self.logger = logger }

    /// What OCR reads on `snapshot`'s screenshot within `seconds`.
    func recognize(_ mapping: ScreenshotMapping, seconds: Double, shouldStop: @escaping @Sendable () -> Bool) -> TextRecognition {
        let engine = lock.withLock {
            if loaded == nil {
                // One core for OCR: the daemon set OMP_THREAD_LIMIT=1 as it started
                // (``OpenMPThreadLimit``): Tesseract's OpenMP threads would otherwise spin
                // against the audits. The log says what the runtime read.
                // Damaged data would crash the daemon: a child tries it first.
                let made = Result { () throws(TextRecognizer.Unavailable) in
                    if let problem = OCRDataCheck.run() { throw problem }
                    return try TextRecognizer()
                }
                switch made {
                case .success(let recognizer):
                    logger.info(
                        "OCR loaded",
                        ["languages": recognizer.languages, "openmp-threads": recognizer.openMPThreadLimit.map(String.init) ?? "none"])
                case .failure(let problem):
                    logger.warning("OCR is not available", ["reason": problem.description])
                }
                loaded = made
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
