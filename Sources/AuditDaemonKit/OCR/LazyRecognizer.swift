import AuditCore
import AuditTransport
import AuditOCR

/// The daemon's OCR (``OCRWorker``): a worker process started when an audit first asks for
/// OCR (loading the language data takes a tenth of a second or more, and most daemons never
/// need it), used only from the OCR pool's one worker. While it reads, its memory limit
/// (`--ocr-memory-limit`) is reserved from the daemon's budget (`--memory-limit`): OCR's
/// memory counts with the bodies and screenshots it competes with. An OCR that cannot run
/// gives its reason, which the audit's `text.*` rules then give as incomplete.
final class LazyRecognizer: @unchecked Sendable {
    private let worker: OCRWorker
    private let memory: MemoryBudget
    private let memoryLimit: Int
    private let logger: Logger
    private let lock = Lock()
    private var announced = false

    init(logger: Logger, memoryLimit: Int, memory: MemoryBudget) {
        self.logger = logger
        self.memoryLimit = memoryLimit
        self.memory = memory
        worker = OCRWorker(memoryLimit: memoryLimit)
    }

    /// What OCR reads on `snapshot`'s screenshot within `seconds`, with the languages its
    /// text's writing systems need (``WritingSystems/of(_:)``).
    func recognize(
        _ mapping: ScreenshotMapping, systems: WritingSystems = [], seconds: Double, shouldStop: @escaping @Sendable () -> Bool
    ) -> TextRecognition {
        let reservation = MemoryReservation(memory)
        defer { reservation.release() }
        guard reservation.grow(to: memoryLimit) else {
            let mib = { (bytes: Int) in bytes >> 20 }
            return TextRecognition(
                lines: [], languages: "",
                incomplete:
                    "OCR needs \(mib(memoryLimit)) MiB (--ocr-memory-limit) and the daemon holds \(mib(memory.inUse)) of its \(mib(memory.limit)) MiB (--memory-limit)",
                milliseconds: 0)
        }
        let result = worker.recognize(mapping.screenshot, area: mapping.usable, systems: systems, seconds: seconds, shouldStop: shouldStop)
        lock.withLock {
            // One line when OCR first works, and one each time it cannot run.
            switch result.incomplete {
            case nil where !announced:
                announced = true
                logger.info("OCR loaded", ["languages": result.languages, "openmp-threads": worker.openMPThreads ?? "none", "process": "worker"])
            case let reason? where !reason.hasPrefix("OCR stopped"):
                logger.warning("OCR is not available", ["reason": reason])
            default:
                break
            }
        }
        return result
    }
}
