import AuditModel
import CTesseract
import Dispatch
import Foundation

/// OCR of a snapshot's screenshot with Tesseract's C API (docs/ocr.md): one engine per
/// recognizer, loaded once and reused (loading the English data takes a tenth of a second
/// or more), fed the decoded RGBA pixels directly, stopped at a deadline. Not for concurrent
/// use: the daemon keeps one behind a serial queue of its own.
public final class TextRecognizer: @unchecked Sendable {
    /// Where Tesseract's language data lives on Debian, newest first; `AUDITD_OCR_DATA`
    /// names another directory, tried first.
    static var dataDirectories: [String] {
        (ProcessInfo.processInfo.environment["AUDITD_OCR_DATA"].map { [$0] } ?? [])
            + ["/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata"]
    }
    /// The words recognised with less confidence are dropped (0–100).
    public static let minimumConfidence = 60.0

    public let languages: String
    private let handle: OpaquePointer
    private let api: AuditdTesseractAPI
    private let lock = NSLock()

    /// Why a recognizer cannot be made: no language data, or the engine refused it.
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String

        public init(description: String) { self.description = description }
    }

    /// An engine reading `languages` (`eng`, `eng+chi_sim`); by default English and every
    /// other language installed of those `AUDITD_OCR_LANGUAGES` names.
    public init(languages: String? = nil) throws(Unavailable) {
        let wanted = languages ?? ProcessInfo.processInfo.environment["AUDITD_OCR_LANGUAGES"] ?? "eng"
        guard let directory = Self.dataDirectories.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            throw Unavailable(description: "no Tesseract language data (install tesseract-ocr-eng: scripts/setup does)")
        }
        let missing = wanted.split(separator: "+").filter { !FileManager.default.fileExists(atPath: "\(directory)/\($0).traineddata") }
        guard missing.isEmpty else {
            throw Unavailable(
                description: "no Tesseract data for \(missing.joined(separator: ", ")) in \(directory) (install tesseract-ocr-\(missing[0]))")
        }
        let api = try TesseractLibrary.api.get()
        guard let engine = api.TessBaseAPICreate() else { throw Unavailable(description: "Tesseract could not be started") }
        guard api.TessBaseAPIInit3(engine, directory, wanted) == 0 else {
            api.TessBaseAPIDelete(engine)
            throw Unavailable(description: "Tesseract could not load \(wanted) from \(directory)")
        }
        // A screen is sparse text in boxes, not a page of paragraphs.
        api.TessBaseAPISetPageSegMode(engine, PSM_SPARSE_TEXT)
        handle = engine
        self.api = api
        self.languages = wanted
    }

    /// The Tesseract languages that read each writing system, in order of preference.
    static let systemLanguages: [(system: WritingSystems, languages: [String])] = [
        (.han, ["chi_sim", "chi_tra"]), (.kana, ["jpn"]), (.hangul, ["kor"]),
    ]

    /// The languages to read a screen whose text is in `systems` with: `base` (English, or
    /// `AUDITD_OCR_LANGUAGES`) and the installed data for each system; and the systems no
    /// installed data reads (their Debian packages: `tesseract-ocr-chi-sim`, …).
    public static func languages(for systems: WritingSystems, base: String? = nil) -> (languages: String, unreadable: WritingSystems) {
        var wanted = (base ?? ProcessInfo.processInfo.environment["AUDITD_OCR_LANGUAGES"] ?? "eng").split(separator: "+").map(String.init)
        var unreadable: WritingSystems = []
        let directory = dataDirectories.first { FileManager.default.fileExists(atPath: $0) }
        for (system, languages) in systemLanguages where systems.contains(system) {
            let installed = languages.filter { language in
                directory.map { FileManager.default.fileExists(atPath: "\($0)/\(language).traineddata") } ?? false
            }
            // Simplified Chinese data reads most traditional characters too: one is enough.
            if let first = installed.first {
                if !wanted.contains(first) { wanted.append(first) }
            } else {
                unreadable.insert(system)
            }
        }
        return (wanted.joined(separator: "+"), unreadable)
    }

    /// How many threads Tesseract's OpenMP runtime allows itself (`omp_get_thread_limit`),
    /// `nil` when the library has no OpenMP runtime. The runtime reads `OMP_THREAD_LIMIT`
    /// once, as it is loaded with the library.
    public var openMPThreadLimit: Int? { api.omp_get_thread_limit.map { Int($0()) } }

    deinit {
        api.TessBaseAPIEnd(handle)
        api.TessBaseAPIDelete(handle)
    }

    /// The lines read on `screenshot`'s usable area, stopping at `deadline` (seconds from
    /// now); `shouldStop` is asked as the engine goes (the client left).
    public func recognize(_ mapping: ScreenshotMapping, seconds deadline: Double, shouldStop: @escaping @Sendable () -> Bool = { false })
        -> TextRecognition
    {
        recognize(mapping.screenshot, area: mapping.usable, seconds: deadline, shouldStop: shouldStop)
    }

    /// The lines read on `area` of `image`.
    public func recognize(_ image: Screenshot, area: PixelRect, seconds deadline: Double, shouldStop: @escaping @Sendable () -> Bool = { false })
        -> TextRecognition
    {
        lock.lock()
        defer { lock.unlock() }
        let started = DispatchTime.now().uptimeNanoseconds
        guard area.width > 0, area.height > 0 else {
            return TextRecognition(lines: [], languages: languages, incomplete: "the screenshot has no usable area", milliseconds: 0)
        }
        var stopped = false
        image.rgba.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            api.TessBaseAPISetImage(handle, base.assumingMemoryBound(to: UInt8.self), Int32(image.width), Int32(image.height), 4, Int32(image.width * 4))
            api.TessBaseAPISetRectangle(handle, Int32(area.x), Int32(area.y), Int32(area.width), Int32(area.height))
            api.TessBaseAPISetSourceResolution(handle, 300)
            let monitor = api.TessMonitorCreate()
            defer { api.TessMonitorDelete(monitor) }
            api.TessMonitorSetDeadlineMSecs(monitor, Int32(max(1, min(Double(Int32.max), deadline * 1000))))
            let stop = Box(shouldStop)
            let context = Unmanaged.passRetained(stop)
            defer { context.release() }
            api.TessMonitorSetCancelThis(monitor, context.toOpaque())
            api.TessMonitorSetCancelFunc(monitor) { this, _ in
                guard let this else { return false }
                return Unmanaged<Box<@Sendable () -> Bool>>.fromOpaque(this).takeUnretainedValue().value()
            }
            stopped = api.TessBaseAPIRecognize(handle, monitor) != 0
        }
        let lines = stopped ? [] : readLines()
        api.TessBaseAPIClear(handle)
        let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
        let reason = stopped ? "OCR stopped after \(Int(milliseconds)) ms (the audit's time budget or the client going away)" : nil
        return TextRecognition(lines: lines, languages: languages, incomplete: reason, milliseconds: milliseconds)
    }

    /// The recognised words, grouped by line, confident ones only.
    private func readLines() -> [TextRecognition.Line] {
        guard let iterator = api.TessBaseAPIGetIterator(handle) else { return [] }
        defer { api.TessResultIteratorDelete(iterator) }
        let page = api.TessResultIteratorGetPageIterator(iterator)
        var lines: [TextRecognition.Line] = []
        var words: [TextRecognition.Word] = []
        func box(_ level: TessPageIteratorLevel) -> PixelRect? {
            var left: Int32 = 0, top: Int32 = 0, right: Int32 = 0, bottom: Int32 = 0
            guard api.TessPageIteratorBoundingBox(page, level, &left, &top, &right, &bottom) != 0 else { return nil }
            return PixelRect(x: Int(left), y: Int(top), width: Int(right - left), height: Int(bottom - top))
        }
        func endLine() {
            guard !words.isEmpty else { return }
            lines.append(TextRecognition.Line(words: words, box: PixelRect.union(of: words.map(\.box))))
            words = []
        }
        repeat {
            if api.TessPageIteratorIsAtBeginningOf(page, RIL_TEXTLINE) != 0 { endLine() }
            guard let raw = api.TessResultIteratorGetUTF8Text(iterator, RIL_WORD) else { continue }
            let text = String(cString: raw).trimmingCharacters(in: .whitespacesAndNewlines)
            api.TessDeleteText(raw)
            let confidence = Double(api.TessResultIteratorConfidence(iterator, RIL_WORD))
            guard !text.isEmpty, confidence >= Self.minimumConfidence, let wordBox = box(RIL_WORD) else { continue }
            words.append(TextRecognition.Word(text: text, confidence: confidence, box: wordBox))
        } while api.TessPageIteratorNext(page, RIL_WORD) != 0
        endLine()
        return lines
    }
}

/// A value handed to C as a context pointer.
final class Box<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
