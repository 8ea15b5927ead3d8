import AuditCore
import AuditHistory
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The journal's files: where they are made, opened, recovered after a crash (a torn last
/// line of any length, the last seq), checked for outside changes before each flush, and
/// rotated. Runs on the journal's queue.
extension Journal {
    /// The directory the journal's files are in.
    var directory: String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func makeDirectories(for path: String) throws(JournalError) {
        var components = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        components.removeLast()
        var current = path.hasPrefix("/") ? "" : "."
        for component in components where !component.isEmpty {
            current += "/" + component
            if mkdir(current, 0o750) != 0, errno != EEXIST {
                throw JournalError(errno: errno, operation: "mkdir \(current)")
            }
        }
    }

    func open() throws(JournalError) {
        // O_NONBLOCK: opening a FIFO for writing would otherwise wait for a reader forever.
        let opened = Glibc.open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, 0o640)
        guard opened >= 0 else {
            if errno == ENXIO { throw JournalError(errno: errno, operation: "open \(path) (a FIFO, not a file: give the journal a regular file)") }
            throw JournalError(errno: errno, operation: "open \(path)")
        }
        var info = stat()
        fstat(opened, &info)
        // A FIFO would block the flusher on every write (no reader); a regular file is
        // what the journal is. Character devices pass (/dev/full stands in for a full disk).
        let type = info.st_mode & S_IFMT
        guard type == S_IFREG || type == S_IFCHR else {
            close(opened)
            throw JournalError(errno: EINVAL, operation: "open \(path) (not a regular file: give the journal a file path)")
        }
        _ = fcntl(opened, F_SETFL, O_WRONLY | O_APPEND)
        fd = opened
        size = Int(info.st_size)
    }

    /// Truncates a torn last line (a crash mid-write), of any length, and returns the last
    /// seq, looking into rotated files when the current one holds none.
    func recover() throws(JournalError) -> UInt64 {
        if size > 0 {
            let input = Glibc.open(path, O_RDONLY | O_CLOEXEC)
            guard input >= 0 else { throw JournalError(errno: errno, operation: "open \(path)") }
            defer { close(input) }
            var last: UInt8 = 0
            if pread(input, &last, 1, off_t(size - 1)) == 1, last != 0x0A {
                let keepBytes = Journal.lastNewline(in: input, before: size).map { $0 + 1 } ?? 0
                logger.warning("journal: truncated a torn last line", ["path": path, "bytes": String(size - keepBytes)])
                if ftruncate(fd, off_t(keepBytes)) != 0 { throw JournalError(errno: errno, operation: "ftruncate \(path)") }
                size = keepBytes
                _ = fdatasync(fd)
            }
        }
        for file in files().reversed() {
            let input = Glibc.open(file, O_RDONLY | O_CLOEXEC)
            guard input >= 0 else { continue }
            defer { close(input) }
            var info = stat()
            fstat(input, &info)
            let length = file == path ? size : Int(info.st_size)
            if let value = Journal.lastSeq(in: input, length: length) { return value }
        }
        return 0
    }

    /// The seq of the last line of the first `length` bytes of `input` that has one,
    /// however long the lines are: lines are found from the end, and only the first bytes
    /// of each are read.
    static func lastSeq(in input: Int32, length: Int) -> UInt64? {
        var end = length
        // Skip the final newline: the last line ends there.
        var byte: UInt8 = 0
        if end > 0, pread(input, &byte, 1, off_t(end - 1)) == 1, byte == 0x0A { end -= 1 }
        while end > 0 {
            let start = lastNewline(in: input, before: end).map { $0 + 1 } ?? 0
            if let value = seq(ofLineAt: start, in: input, end: end) { return value }
            end = start - 1
        }
        return nil
    }

    /// The seq of the line starting at `start` (read from its first 32 bytes, not past
    /// `end`); nil when it has none.
    static func seq(ofLineAt start: Int, in input: Int32, end: Int) -> UInt64? {
        var prefix = [UInt8](repeating: 0, count: min(32, end - start))
        let got = prefix.withUnsafeMutableBytes { pread(input, $0.baseAddress, $0.count, off_t(start)) }
        return got > 0 ? seq(of: prefix[0..<got]) : nil
    }

    /// Where the lines after seq `since` start in `input`'s first `length` bytes, found by
    /// bisection over the file (the journal writes its lines in seq order): the offset of a
    /// line start before which every line has a seq of `since` or less — lines after it may
    /// still (within `window` bytes and a line), and the reader filters them. A catch-up of
    /// the trend index read the whole active file, up to the rotation size, to find the
    /// last seconds' lines. `window`: the search stops once narrowed to this many bytes.
    static func start(after since: UInt64, in input: Int32, length: Int, window: Int = 16 << 10) -> Int {
        var low = 0, high = length
        while high - low > window {
            let middle = low + (high - low) / 2
            guard let line = nextLineStart(in: input, from: middle, length: length), line < high else {
                high = middle
                continue
            }
            // A line without a seq (damage): read on from `low`, the reader filtering.
            guard let seq = seq(ofLineAt: line, in: input, end: length) else { break }
            if seq <= since { low = line + 1 } else { high = line }
        }
        // `low` is a line start, or just past the start of a line at or before `since`.
        return low == 0 ? 0 : nextLineStart(in: input, from: low, length: length) ?? length
    }

    /// The first line start at or after `offset` (a line starts after a newline), read in
    /// 4 KiB blocks; nil when no line starts before `length`.
    static func nextLineStart(in input: Int32, from offset: Int, length: Int) -> Int? {
        guard offset > 0 else { return 0 }
        var block = [UInt8](repeating: 0, count: 4 << 10)
        var at = offset - 1
        while at < length {
            let wanted = min(block.count, length - at)
            let got = block.withUnsafeMutableBytes { pread(input, $0.baseAddress, wanted, off_t(at)) }
            guard got > 0 else { return nil }
            if let index = block[0..<got].firstIndex(of: 0x0A) { return at + index + 1 < length ? at + index + 1 : nil }
            at += got
        }
        return nil
    }

    /// The offset of the last newline before `end` in `input`, read backwards in 64 KiB blocks.
    static func lastNewline(in input: Int32, before end: Int) -> Int? {
        var block = [UInt8](repeating: 0, count: 64 << 10)
        var upper = end
        while upper > 0 {
            let lower = max(0, upper - block.count)
            let got = block.withUnsafeMutableBytes { pread(input, $0.baseAddress, upper - lower, off_t(lower)) }
            guard got == upper - lower else { return nil }
            if let index = block[0..<got].lastIndex(of: 0x0A) { return lower + index }
            upper = lower
        }
        return nil
    }

    /// Before each flush, one `stat` of the path and one `fstat` of the open file: the file
    /// removed or replaced (an outside rotation) — a new one is started at `path`; or
    /// truncated (`logrotate copytruncate`, `: > journal`) — appends go to its real end
    /// anyway (O_APPEND), but a failed write must roll back to that end, not to the size
    /// known before (that filled the file with NUL bytes), and rotation must count from it.
    func checkFileBeforeFlush() {
        var current = stat(), open = stat()
        let exists = stat(path, &current) == 0
        guard fstat(fd, &open) == 0 else { return }
        if !exists || current.st_ino != open.st_ino || current.st_dev != open.st_dev {
            logger.warning("journal file was moved or removed; starting a new one", ["path": path])
            close(fd)
            do { try self.open() } catch { logger.error("journal reopen failed", ["error": error.description]) }
            return
        }
        let actual = Int(open.st_size)
        if actual != size {
            logger.warning(
                "journal file changed size outside auditd; continuing from its real end",
                ["path": path, "expected": String(size), "actual": String(actual)])
            size = actual
        }
    }

    func rotate() {
        close(fd)
        for index in stride(from: keep - 1, through: 1, by: -1) {
            rename("\(path).\(index)", "\(path).\(index + 1)")
        }
        rename(path, "\(path).1")
        logger.info("journal rotated", ["path": path, "keep": String(keep)])
        do { try open() } catch { logger.error("journal reopen after rotation failed", ["error": error.description]) }
    }

    /// The journal files, oldest first, as every reader of a journal finds them
    /// (``JournalFiles``).
    func files() -> [String] { JournalFiles.paths(journal: path, keep: keep) }
}
