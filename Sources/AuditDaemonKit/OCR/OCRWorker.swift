import AuditCore
import AuditOCR
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// OCR in a child process of its own (`auditd --ocr-worker BYTES`, the daemon's own binary):
/// Tesseract checks a deadline only while it recognises words, never during its layout
/// analysis, and holds what memory it likes — dense text ran 14–17 s under a 1 s budget and
/// 1 GB under a 256 MB limit, inside the daemon. The child is started when an audit first
/// asks for OCR and kept for the next; it is killed at the audit's OCR deadline and when the
/// client leaves, whatever phase Tesseract is in, and started again for the next audit. Its
/// data segment is limited (`RLIMIT_DATA`, `--ocr-memory-limit`), and that much is reserved
/// from the daemon's memory budget while it reads. A child that dies (damaged data, out of
/// its memory) is a reason the text rules give, never the daemon's end.
///
/// The protocol, over the child's standard input and output: a request is 8 little-endian
/// 32-bit numbers — `OCR1` (0x3152434F), width, height, the area's x, y, width and height,
/// and the screen's ``WritingSystems`` — then width × height × 4 bytes of RGBA; an answer is
/// a 32-bit length and that many bytes of JSON (``encode(_:)``). The worker loads the
/// languages a screen's writing systems need with English (an engine per set, the last two
/// kept), so Chinese data costs only the screens with Chinese text.
final class OCRWorker: @unchecked Sendable {
    /// The argument that makes `auditd` the worker.
    static let argument = "--ocr-worker"
    static let magic: UInt32 = 0x3152_434F

    private let memoryLimit: Int
    private let lock = Lock()
    private var child: (pid: pid_t, input: Int32, output: Int32)?
    private(set) var languages = ""
    /// The thread limit Tesseract's OpenMP runtime read in the worker (`nil`: none).
    private(set) var openMPThreads: String?

    init(memoryLimit: Int) { self.memoryLimit = memoryLimit }

    deinit { stop() }

    // MARK: The daemon's side

    /// What OCR reads on `area` of `image` within `seconds`; `shouldStop` is asked every
    /// 20 ms (the client left). Killed at the deadline or when asked to stop.
    func recognize(
        _ image: Screenshot, area: PixelRect, systems: WritingSystems = [], seconds: Double, shouldStop: @escaping @Sendable () -> Bool
    ) -> TextRecognition {
        lock.withLock { recognizeLocked(image, area: area, systems: systems, seconds: seconds, shouldStop: shouldStop) }
    }

    private func recognizeLocked(
        _ image: Screenshot, area: PixelRect, systems: WritingSystems, seconds: Double, shouldStop: @escaping @Sendable () -> Bool
    ) -> TextRecognition {
        let started = Timestamp.monotonic()
        func elapsed() -> Double { Timestamp.milliseconds(from: started) }
        func failed(_ reason: String) -> TextRecognition {
            TextRecognition(lines: [], languages: languages, incomplete: reason, milliseconds: elapsed())
        }
        if child == nil {
            if let problem = start() { return failed(problem) }
        }
        guard let worker = child else { return failed("OCR could not be started") }
        // The request: its head, then the pixels as they are.
        let head: [UInt32] = [
            Self.magic, UInt32(image.width), UInt32(image.height), UInt32(max(0, area.x)), UInt32(max(0, area.y)),
            UInt32(max(0, area.width)), UInt32(max(0, area.height)), systems.rawValue,
        ]
        var bytes = head.withUnsafeBytes { Array($0) }
        bytes.reserveCapacity(bytes.count + image.rgba.count)
        bytes.append(contentsOf: image.rgba)
        let deadline = started &+ UInt64(max(0.001, seconds) * 1e9)
        switch exchange(bytes, with: worker, until: deadline, shouldStop: shouldStop) {
        case .answer(let json):
            guard let recognition = Self.decode(json, languages: languages, milliseconds: elapsed()) else {
                stop()
                return failed("OCR's worker answered something unreadable")
            }
            return recognition
        case .stopped:
            stop()
            return failed("OCR stopped after \(Int(elapsed())) ms (the audit's time budget or the client going away)")
        case .died:
            let status = reap()
            return failed(Self.death(status, memoryLimit: memoryLimit))
        }
    }

    private enum Exchange {
        case answer([UInt8])
        case stopped
        case died
    }

    /// Writes the request and reads the answer, polling both ends against the deadline.
    private func exchange(_ request: [UInt8], with worker: (pid: pid_t, input: Int32, output: Int32), until deadline: UInt64, shouldStop: () -> Bool)
        -> Exchange
    {
        var written = 0
        var answer: [UInt8] = []
        var expected: Int?
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            if Timestamp.monotonic() >= deadline || shouldStop() { return .stopped }
            var fds = [pollfd(fd: worker.output, events: Int16(POLLIN), revents: 0)]
            if written < request.count { fds.append(pollfd(fd: worker.input, events: Int16(POLLOUT), revents: 0)) }
            let ready = poll(&fds, nfds_t(fds.count), 20)
            guard ready >= 0 || errno == EINTR else { return .died }
            if fds.count > 1, fds[1].revents & Int16(POLLERR | POLLHUP) != 0 { return .died }
            if fds.count > 1, fds[1].revents & Int16(POLLOUT) != 0 {
                let count = request.withUnsafeBytes { raw -> Int in
                    guard let base = raw.baseAddress else { return 0 }
                    return Glibc.write(worker.input, base + written, min(1 << 16, raw.count - written))
                }
                if count < 0 {
                    if errno == EAGAIN || errno == EINTR { continue }
                    return .died
                }
                written += count
            }
            if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(worker.output, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EAGAIN || errno == EINTR { continue }
                    return .died
                }
                if count == 0 { return .died }
                answer.append(contentsOf: buffer[..<count])
                if expected == nil, answer.count >= 4 {
                    expected = Int(answer.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) })
                }
                if let expected, answer.count >= 4 + expected { return .answer(Array(answer[4..<(4 + expected)])) }
            }
        }
    }

    /// Starts the child; nil when it runs, else why not.
    private func start() -> String? {
        var toChild: [Int32] = [-1, -1], fromChild: [Int32] = [-1, -1]
        guard pipe(&toChild) == 0 else { return "OCR could not be started (pipe: \(String(cString: strerror(errno))))" }
        guard pipe(&fromChild) == 0 else {
            close(toChild[0])
            close(toChild[1])
            return "OCR could not be started (pipe: \(String(cString: strerror(errno))))"
        }
        // Not inherited by anything else the daemon starts (dup2 clears it on the worker's own).
        for fd in toChild + fromChild { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let arguments = ["auditd", Self.argument, String(memoryLimit)]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var environment = Self.childEnvironment()
        defer { for pointer in environment { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/proc/self/exe", &actions, nil, &argv, &environment)
        close(toChild[0])
        close(fromChild[1])
        guard spawned == 0 else {
            close(toChild[1])
            close(fromChild[0])
            return "OCR could not be started (posix_spawn: \(String(cString: strerror(spawned))))"
        }
        _ = fcntl(toChild[1], F_SETFL, O_NONBLOCK)
        _ = fcntl(fromChild[0], F_SETFL, O_NONBLOCK)
        child = (pid, toChild[1], fromChild[0])
        // The worker says which languages it reads (or why it cannot) before anything else.
        switch exchange([], with: (pid, toChild[1], fromChild[0]), until: Timestamp.monotonic() &+ 60_000_000_000, shouldStop: { false }) {
        case .answer(let json):
            guard let parsed = try? JSONParser.parse(json), let languages = parsed["languages"]?.stringValue else {
                let reason = (try? JSONParser.parse(json))?["unavailable"]?.stringValue ?? "OCR's worker did not start"
                stop()
                return "OCR is not available: \(reason)"
            }
            self.languages = languages
            openMPThreads = parsed["openmp-threads"]?.intValue.map(String.init)
            return nil
        case .stopped:
            stop()
            return "OCR's worker did not start within 60 s"
        case .died:
            return "OCR is not available: " + Self.death(reap(), memoryLimit: memoryLimit, loading: true)
        }
    }

    /// Kills the child (if any) and forgets it.
    private func stop() {
        guard let worker = child else { return }
        kill(worker.pid, SIGKILL)
        _ = reap()
    }

    /// Waits for the child's end and forgets it; its wait status.
    private func reap() -> Int32 {
        guard let worker = child else { return 0 }
        var status: Int32 = 0
        while waitpid(worker.pid, &status, 0) < 0, errno == EINTR {}
        close(worker.input)
        close(worker.output)
        child = nil
        return status
    }

    /// Why the worker died, from its wait status: while `loading` its language data, or
    /// while reading a screenshot.
    static func death(_ status: Int32, memoryLimit: Int, loading: Bool = false) -> String {
        let signal = status & 0x7F
        guard signal != 0 else { return "OCR's worker ended (exit \((status >> 8) & 0xFF))" }
        let name = signal == SIGABRT ? "SIGABRT" : signal == SIGSEGV ? "SIGSEGV" : signal == SIGFPE ? "SIGFPE" : signal == SIGKILL ? "SIGKILL" : "signal \(signal)"
        if loading {
            return "Tesseract crashed (\(name)) loading its language data: the data is damaged; reinstall it (apt-get install --reinstall tesseract-ocr-eng)"
        }
        return "Tesseract crashed (\(name)) reading the screenshot: it ran out of its \(memoryLimit >> 20) MiB (--ocr-memory-limit), or its language data is damaged"
    }

    /// The environment of the worker: the daemon's, without Swift's crash backtracer (printing
    /// a crash's backtrace took 7 s, which the audit waited for). Each string is the caller's
    /// to free.
    static func childEnvironment() -> [UnsafeMutablePointer<CChar>?] {
        var environment: [UnsafeMutablePointer<CChar>?] = [strdup("SWIFT_BACKTRACE=enable=no")]
        var entry = environ
        while let variable = entry.pointee {
            if strncmp(variable, "SWIFT_BACKTRACE=", 16) != 0 { environment.append(strdup(variable)) }
            entry += 1
        }
        environment.append(nil)
        return environment
    }

    // MARK: The answer

    /// A recognition as the worker answers it.
    static func encode(_ recognition: TextRecognition) -> [UInt8] {
        func box(_ rect: PixelRect) -> JSON { .array([.int(rect.x), .int(rect.y), .int(rect.width), .int(rect.height)]) }
        let lines = recognition.lines.map { line in
            JSON.object([
                ("box", box(line.box)),
                ("words", .array(line.words.map { .object([("text", .string($0.text)), ("confidence", .number($0.confidence)), ("box", box($0.box))]) })),
            ])
        }
        return JSON.object([
            ("languages", .string(recognition.languages)), ("lines", .array(lines)), ("incomplete", .optional(recognition.incomplete)),
            ("unreadable", .int(Int(recognition.unreadable.rawValue))),
        ]).bytes
    }

    static func decode(_ bytes: [UInt8], languages: String, milliseconds: Double) -> TextRecognition? {
        guard let json = try? JSONParser.parse(bytes), let lines = json["lines"]?.arrayValue else { return nil }
        func box(_ value: JSON?) -> PixelRect? {
            guard let numbers = value?.arrayValue?.compactMap(\.intValue), numbers.count == 4 else { return nil }
            return PixelRect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
        }
        var read: [TextRecognition.Line] = []
        for line in lines {
            guard let lineBox = box(line["box"]) else { return nil }
            var words: [TextRecognition.Word] = []
            for word in line["words"]?.arrayValue ?? [] {
                guard let text = word["text"]?.stringValue, let confidence = word["confidence"]?.doubleValue, let wordBox = box(word["box"]) else { return nil }
                words.append(TextRecognition.Word(text: text, confidence: confidence, box: wordBox))
            }
            read.append(TextRecognition.Line(words: words, box: lineBox))
        }
        return TextRecognition(
            lines: read, languages: json["languages"]?.stringValue ?? languages, incomplete: json["incomplete"]?.stringValue,
            milliseconds: milliseconds, unreadable: WritingSystems(rawValue: UInt32(truncatingIfNeeded: json["unreadable"]?.intValue ?? 0)))
    }

    // MARK: The worker's side

    /// The worker: limits its data segment, loads Tesseract, says so, then answers requests
    /// until its input ends.
    static func child(memoryLimit: Int) -> Never {
        var limit = rlimit(rlim_cur: rlim_t(memoryLimit), rlim_max: rlim_t(memoryLimit))
        _ = setrlimit(Int32(RLIMIT_DATA.rawValue), &limit)
        let recognizer: TextRecognizer
        do {
            recognizer = try TextRecognizer()
        } catch {
            answer(JSON.object([("unavailable", .string(error.description))]).bytes)
            exit(0)
        }
        answer(
            JSON.object([("languages", .string(recognizer.languages)), ("openmp-threads", recognizer.openMPThreadLimit.map(JSON.int) ?? .null)]).bytes)
        // Engines for other language sets, made when a screen first needs one; the last two kept.
        var engines: [(languages: String, recognizer: TextRecognizer)] = [(recognizer.languages, recognizer)]
        while true {
            guard let head = readExactly(32) else { exit(0) }
            let numbers = head.withUnsafeBytes { raw in (0..<8).map { raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self) } }
            guard numbers[0] == magic, numbers[1] > 0, numbers[2] > 0, UInt64(numbers[1]) * UInt64(numbers[2]) <= 1 << 28 else { exit(2) }
            let width = Int(numbers[1]), height = Int(numbers[2])
            guard let rgba = readExactly(width * height * 4) else { exit(0) }
            let image = Screenshot(width: width, height: height, format: .png, rgba: rgba)
            let area = PixelRect(x: Int(numbers[3]), y: Int(numbers[4]), width: Int(numbers[5]), height: Int(numbers[6]))
            let systems = WritingSystems(rawValue: numbers[7])
            let (languages, unreadable) = TextRecognizer.languages(for: systems, base: recognizer.languages)
            var engine = engines.first { $0.languages == languages }?.recognizer
            if engine == nil {
                engine = try? TextRecognizer(languages: languages)
                if let made = engine {
                    engines.append((languages, made))
                    // The English engine (first) stays; the older of two others goes.
                    if engines.count > 2 { engines.remove(at: 1) }
                }
            }
            // The deadline is the daemon's: it kills the worker when it passes.
            let read = (engine ?? recognizer).recognize(image, area: area, seconds: 86_400)
            answer(
                encode(
                    TextRecognition(
                        lines: read.lines, languages: read.languages, incomplete: read.incomplete, milliseconds: read.milliseconds,
                        unreadable: engine == nil ? systems : unreadable)))
        }
    }

    private static func readExactly(_ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return Glibc.read(0, base + done, raw.count - done)
            }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { return nil }
            done += got
        }
        return bytes
    }

    private static func answer(_ bytes: [UInt8]) {
        var out = withUnsafeBytes(of: UInt32(bytes.count).littleEndian) { Array($0) }
        out.append(contentsOf: bytes)
        var done = 0
        while done < out.count {
            let wrote = out.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return Glibc.write(1, base + done, raw.count - done)
            }
            if wrote < 0, errno == EINTR { continue }
            guard wrote > 0 else { exit(0) }
            done += wrote
        }
    }
}
