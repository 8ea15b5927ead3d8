import AuditCore
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a journal write failed (answered 507).
public struct JournalError: Error, Sendable, CustomStringConvertible {
    public var errno: Int32
    public var operation: String
    public var description: String { "\(operation): \(String(cString: strerror(errno)))" }
}

/// The findings journal (SPEC §4): JSON Lines, one record a line, each with an
/// increasing `seq`, a `time` and a `type`. Appends from concurrent audits are batched
/// into one write (a single `writev` when it fits) and one `fdatasync` (group commit): appends that arrive while a batch
/// is being synced form the next batch, taken by the same flusher without a new hand-off.
/// A caller hears back only after its records are on disk. Recovers a torn last line at start, rotates at a size limit
/// (`findings.jsonl.1…N`, friendly to `tail -F`), survives disk-full and the file being
/// removed or rotated underneath.
public final class Journal: @unchecked Sendable {
    public typealias Completion = @Sendable (Result<ClosedRange<UInt64>, JournalError>) -> Void
    /// Receives newly durable lines; returns false to stop following.
    public typealias Follower = @Sendable ([UInt8]) -> Bool

    public let path: String
    public let maxBytes: Int
    public let keep: Int
    private let logger: Logger
    /// Every field below is touched only on this queue.
    private let queue = DispatchQueue(label: "auditd.journal")
    private var fd: Int32 = -1
    private var size = 0
    private var seq: UInt64 = 0
    private typealias Pending = (entry: any JournalEntry, queue: (any CompletionExecutor)?, completion: Completion)
    /// Appends waiting for the flusher, and whether it is running; under `pendingLock`, the
    /// only state appenders touch.
    private let pendingLock = Lock()
    private var pending: [Pending] = []
    private var flushing = false
    /// Group commit: while more writers run than have appended, wait this long before a
    /// sync so that their records share it (as PostgreSQL's `commit_delay`).
    private var commitDelay: UInt32 = 0
    private var writersRunning: (@Sendable () -> Int)?
    private var followers: [Int: Follower] = [:]
    private var nextFollower = 0
    /// Statistics for /metrics.
    private let statistics = Lock()
    private var _flushes = 0
    private var _records = 0
    private var _failures = 0
    private var _lastSeq: UInt64 = 0

    public init(path: String, maxBytes: Int, keep: Int, logger: Logger) throws(JournalError) {
        self.path = path
        self.maxBytes = maxBytes
        self.keep = max(1, keep)
        self.logger = logger
        try Journal.makeDirectories(for: path)
        try open()
        seq = try recover()
        _lastSeq = seq
    }

    deinit { if fd >= 0 { close(fd) } }

    public var lastSeq: UInt64 { statistics.withLock { _lastSeq } }
    public var counters: (flushes: Int, records: Int, failures: Int) { statistics.withLock { (_flushes, _records, _failures) } }

    // MARK: Writing

    /// Appends the entry's records (`seq`, `time` are put first in each) and calls
    /// `completion` once they are written and flushed to disk: on `completionQueue` when
    /// given (the completions of one batch for the same queue run there together, in
    /// order, in one hand-off), else on the journal's queue.
    public func append(_ entry: any JournalEntry, completionQueue: (any CompletionExecutor)? = nil, completion: @escaping Completion) {
        let startFlusher: Bool = pendingLock.withLock {
            pending.append((entry, completionQueue, completion))
            if flushing { return false }
            flushing = true
            return true
        }
        if startFlusher { queue.async { self.flushPending() } }
    }

    /// Before each sync, while `running()` (the writers busy now, the ones that appended
    /// included) exceeds the appends waiting, waits `microseconds` so that the others'
    /// records join the batch: fewer syncs under load, at most that much more latency.
    public func setCommitDelay(microseconds: Int, whileRunning running: @escaping @Sendable () -> Int) {
        pendingLock.withLock {
            commitDelay = UInt32(clamping: max(0, microseconds))
            writersRunning = running
        }
    }

    /// Sleeps in short slices, up to the commit delay, while more writers run than have
    /// appended; returns at once when nothing is waiting or everyone has appended.
    private func waitForOtherWriters() {
        let (delay, running) = pendingLock.withLock { (commitDelay, writersRunning) }
        guard delay > 0, let running else { return }
        let slice = max(50, delay / 8)
        var waited: UInt32 = 0
        while waited < delay {
            let waiting = pendingLock.withLock { pending.count }
            guard waiting > 0, running() > waiting else { return }
            usleep(min(slice, delay - waited))
            waited += slice
        }
    }

    /// The flusher: writes batches until no append is waiting.
    private func flushPending() {
        while true {
            waitForOtherWriters()
            let batch = takePending()
            if batch.isEmpty { return }
            flush(batch)
        }
    }

    /// The appends waiting, taken as one batch; with none, the flusher is done.
    private func takePending() -> [Pending] {
        pendingLock.withLock {
            let batch = pending
            pending.removeAll(keepingCapacity: true)
            if batch.isEmpty { flushing = false }
            return batch
        }
    }

    private func flush(_ batch: [Pending]) {
        reopenIfMoved()
        noticeOutsideTruncation()
        let startSeq = seq
        var time: [UInt8] = Array(#","time":"#.utf8)
        JSON.string(Timestamp.iso8601(Timestamp.now())).write(to: &time)
        time.append(UInt8(ascii: ","))
        // The journal's own bytes around each record: `{"seq":N,"time":"…",` before it,
        // `}` and a newline after; the records' fields are written from where their
        // entries keep them (`writev`), not copied into one buffer first — at 100,000
        // elements that buffer was 14 MB of fresh memory for every audit.
        var openings: [UInt8] = []
        var openingEnds: [Int] = []
        var ranges: [ClosedRange<UInt64>] = []
        for item in batch {
            let first = seq + 1
            for _ in 0..<item.entry.recordCount {
                seq += 1
                openings.append(contentsOf: #"{"seq":"#.utf8)
                JSON.int(Int(seq)).write(to: &openings)
                openings.append(contentsOf: time)
                openingEnds.append(openings.count)
            }
            ranges.append(first...max(first, seq))
        }
        let closing: [UInt8] = [UInt8(ascii: "}"), 0x0A]
        // Followers get the lines as one buffer, built only when somebody follows.
        var copy: [UInt8]? = followers.isEmpty ? nil : []
        let sizeBefore = size
        var written = 0
        var failure: JournalError?
        openings.withUnsafeBytes { openings in
            closing.withUnsafeBytes { closing in
                var vectors: [iovec] = []
                vectors.reserveCapacity(batch.reduce(0) { $0 + $1.entry.recordCount * 4 })
                var record = 0
                func add(_ run: UnsafeRawBufferPointer) {
                    guard let base = run.baseAddress, run.count > 0 else { return }
                    vectors.append(iovec(iov_base: UnsafeMutableRawPointer(mutating: base), iov_len: run.count))
                    written += run.count
                    copy?.append(contentsOf: run)
                }
                // Every entry's pieces stay valid while the next entries lend theirs, so
                // the whole batch goes out together: in one call when it can, as a single
                // `write` did (a process killed between two calls would leave half a line).
                func gather(from item: Int) {
                    guard item < batch.count else {
                        failure = writeAll(&vectors, bytes: written)
                        return
                    }
                    batch[item].entry.withRecordPieces { piece in
                        for index in 0..<batch[item].entry.recordCount {
                            add(UnsafeRawBufferPointer(rebasing: openings[(record == 0 ? 0 : openingEnds[record - 1])..<openingEnds[record]]))
                            record += 1
                            let pieces = piece(index)
                            add(pieces.head)
                            add(pieces.body)
                            add(closing)
                        }
                        gather(from: item + 1)
                    }
                }
                gather(from: 0)
            }
        }
        if let failure = failure ?? sync() {
            // Leave the file as it was and give the numbers back: nothing was acknowledged.
            _ = ftruncate(fd, off_t(sizeBefore))
            size = sizeBefore
            seq = startSeq
            statistics.withLock { _failures += 1 }
            logger.error("journal write failed", ["path": path, "error": failure.description])
            complete(batch, with: batch.map { _ in .failure(failure) })
            return
        }
        size += written
        statistics.withLock {
            _flushes += 1
            _records += Int(seq - startSeq)
            _lastSeq = seq
        }
        // Rotate before answering, so a client that got its 200 sees the files as they are.
        if size >= maxBytes { rotate() }
        complete(batch, with: ranges.map { .success($0) })
        if let copy {
            for (id, follower) in followers where !follower(copy) { followers[id] = nil }
        }
    }

    /// Calls each completion with its result: in place, or together on their queue.
    private func complete(_ batch: [Pending], with results: [Result<ClosedRange<UInt64>, JournalError>]) {
        var elsewhere: [ObjectIdentifier: (queue: any CompletionExecutor, calls: [@Sendable () -> Void])] = [:]
        for (item, result) in zip(batch, results) {
            guard let target = item.queue else {
                item.completion(result)
                continue
            }
            let completion = item.completion
            elsewhere[ObjectIdentifier(target), default: (target, [])].calls.append { completion(result) }
        }
        for (_, group) in elsewhere {
            let calls = group.calls
            group.queue.run { for call in calls { call() } }
        }
    }

    /// Writes every run of `vectors` (`bytes` in all) in order, resuming where a short
    /// write stopped: in one `writev` when they fit in one (`IOV_MAX` runs), else — up to
    /// 1 MiB — copied together into one `write`, else by `writev` calls of `IOV_MAX` runs.
    private func writeAll(_ vectors: inout [iovec], bytes: Int) -> JournalError? {
        let maximum = 1024 // IOV_MAX on Linux
        if vectors.count > maximum, bytes <= 1 << 20 {
            var joined: [UInt8] = []
            joined.reserveCapacity(bytes)
            for vector in vectors {
                joined.append(contentsOf: UnsafeRawBufferPointer(start: vector.iov_base, count: vector.iov_len))
            }
            return joined.withUnsafeBytes { joined in
                var single = [iovec(iov_base: UnsafeMutableRawPointer(mutating: joined.baseAddress), iov_len: joined.count)]
                return writeAll(&single, bytes: joined.count)
            }
        }
        var next = 0
        while next < vectors.count {
            let count = min(vectors.count - next, maximum)
            let result = vectors.withUnsafeBufferPointer { writev(fd, $0.baseAddress.map { $0 + next }, Int32(count)) }
            if result < 0 {
                if errno == EINTR { continue }
                return JournalError(errno: errno, operation: "write \(path)")
            }
            if result == 0 { return JournalError(errno: EIO, operation: "write \(path) (no progress)") }
            // Skip the runs written whole; trim the one written in part.
            var remaining = result
            while remaining > 0, next < vectors.count {
                if remaining >= vectors[next].iov_len {
                    remaining -= vectors[next].iov_len
                    next += 1
                } else {
                    vectors[next].iov_base = vectors[next].iov_base.map { $0 + remaining }
                    vectors[next].iov_len -= remaining
                    remaining = 0
                }
            }
        }
        return nil
    }

    private func sync() -> JournalError? {
        fdatasync(fd) == 0 ? nil : JournalError(errno: errno, operation: "fdatasync \(path)")
    }

    // MARK: Reading and following

    /// The durable records with a seq greater than `since`, as a ``JournalBacklog`` read
    /// in pieces by its one consumer (the files are opened now, so rotation later does not
    /// move them); with `follower`, also registers it for the records written from now on
    /// — in one step on the journal's queue, so no record is missed or repeated between
    /// the two. `done` gets the backlog and the follower's id.
    public func backlog(since: UInt64, then follower: Follower?, done: @escaping @Sendable (JournalBacklog, Int?) -> Void) {
        queue.async {
            var sources: [JournalBacklog.Source] = []
            for file in self.files() {
                let input = Glibc.open(file, O_RDONLY | O_CLOEXEC)
                guard input >= 0 else { continue }
                var info = stat()
                fstat(input, &info)
                // The file being written: only what is durable (no flush runs now).
                let length = file == self.path ? min(Int(info.st_size), self.size) : Int(info.st_size)
                // Whole files of older records are skipped without being read.
                if let last = Journal.lastSeq(in: input, length: length), last <= since {
                    close(input)
                    continue
                }
                sources.append(JournalBacklog.Source(fd: input, length: length))
            }
            var id: Int?
            if let follower {
                self.nextFollower += 1
                self.followers[self.nextFollower] = follower
                id = self.nextFollower
            }
            done(JournalBacklog(sources: sources, since: since), id)
        }
    }

    /// Stops a follower (the client went away).
    public func unfollow(_ id: Int) {
        queue.async { self.followers[id] = nil }
    }

    /// The journal files, oldest first.
    private func files() -> [String] {
        var result: [String] = []
        for index in stride(from: keep, through: 1, by: -1) where access("\(path).\(index)", F_OK) == 0 {
            result.append("\(path).\(index)")
        }
        result.append(path)
        return result
    }

    /// The seq of a journal line, read from its `{"seq":N,` prefix.
    static func seq<Line: Collection>(of line: Line) -> UInt64? where Line.Element == UInt8 {
        let prefix = Array("{\"seq\":".utf8)
        guard line.starts(with: prefix) else { return nil }
        var value: UInt64 = 0
        var digits = 0
        for byte in line.dropFirst(prefix.count) {
            guard byte >= 0x30, byte <= 0x39 else { break }
            value = value &* 10 &+ UInt64(byte - 0x30)
            digits += 1
        }
        return digits > 0 ? value : nil
    }

    // MARK: Files

    private static func makeDirectories(for path: String) throws(JournalError) {
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

    private func open() throws(JournalError) {
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
    private func recover() throws(JournalError) -> UInt64 {
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
            var prefix = [UInt8](repeating: 0, count: min(32, end - start))
            let got = prefix.withUnsafeMutableBytes { pread(input, $0.baseAddress, $0.count, off_t(start)) }
            if got > 0, let value = seq(of: prefix[0..<got]) { return value }
            end = start - 1
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

    /// Someone truncated the file (`logrotate copytruncate`, `: > journal`): appends go to
    /// its real end anyway (O_APPEND), but a failed write must roll back to that end, not
    /// to the size known before — that would fill the file with NUL bytes — and rotation
    /// must count from it.
    private func noticeOutsideTruncation() {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return }
        let actual = Int(info.st_size)
        if actual != size {
            logger.warning("journal file changed size outside auditd; continuing from its real end",
                           ["path": path, "expected": String(size), "actual": String(actual)])
            size = actual
        }
    }

    /// The file was removed or replaced (an outside rotation): start a new one at `path`.
    private func reopenIfMoved() {
        var current = stat(), open = stat()
        let exists = stat(path, &current) == 0
        fstat(fd, &open)
        if !exists || current.st_ino != open.st_ino || current.st_dev != open.st_dev {
            logger.warning("journal file was moved or removed; starting a new one", ["path": path])
            close(fd)
            do { try self.open() } catch { logger.error("journal reopen failed", ["error": error.description]) }
        }
    }

    private func rotate() {
        close(fd)
        for index in stride(from: keep - 1, through: 1, by: -1) {
            rename("\(path).\(index)", "\(path).\(index + 1)")
        }
        rename(path, "\(path).1")
        logger.info("journal rotated", ["path": path, "keep": String(keep)])
        do { try open() } catch { logger.error("journal reopen after rotation failed", ["error": error.description]) }
    }

    /// Waits for every pending append to be flushed.
    public func drain() {
        queue.sync {
            let batch = takePending()
            if !batch.isEmpty { flush(batch) }
        }
    }
}
