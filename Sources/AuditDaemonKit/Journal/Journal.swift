import AuditCore
import AuditTransport
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a journal write failed (answered 507).
package struct JournalError: Error, Sendable, CustomStringConvertible {
    package var errno: Int32
    package var operation: String
    package var description: String { "\(operation): \(String(cString: strerror(errno)))" }
}

/// The findings journal (docs/API.md): JSON Lines, one record a line, each with an
/// increasing `seq`, a `time` and a `type`. Appends from concurrent audits are batched
/// into one write (a single `writev` when it fits) and one `fdatasync` (group commit): appends that arrive while a batch
/// is being synced form the next batch, taken by the same flusher without a new hand-off.
/// A caller hears back only after its records are on disk. Recovers a torn last line at start, rotates at a size limit
/// (`findings.jsonl.1…N`, friendly to `tail -F`), survives disk-full and the file being
/// removed or rotated underneath.
package final class Journal: @unchecked Sendable {
    package typealias Completion = @Sendable (Result<ClosedRange<UInt64>, JournalError>) -> Void
    /// Receives newly durable lines; returns false to stop following.
    package typealias Follower = @Sendable ([UInt8]) -> Bool

    package let path: String
    package let maxBytes: Int
    package let keep: Int
    let logger: Logger
    /// Every field below is touched only on this queue (also by the extensions in
    /// Journal+Files.swift and Journal+Reading.swift).
    let queue = DispatchQueue(label: "auditd.journal")
    var fd: Int32 = -1
    var size = 0
    var seq: UInt64 = 0
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
    var followers: [Int: Follower] = [:]
    var nextFollower = 0
    /// Statistics for /metrics.
    private let statistics = Lock()
    private var _flushes = 0
    private var _records = 0
    private var _failures = 0
    private var _lastSeq: UInt64 = 0

    package init(path: String, maxBytes: Int, keep: Int, logger: Logger) throws(JournalError) {
        self.path = path
        self.maxBytes = maxBytes
        self.keep = max(1, keep)
        self.logger = logger
        try Journal.makeDirectories(for: path)
        try open()
        seq = try recover()
        _lastSeq = seq
        identity = JournalIdentity.load(journal: path, lastSeq: seq)
    }

    /// Which journal this is (``JournalIdentity``): the same for as long as its seq goes
    /// on, another when it begins again at 1. `GET /v1/findings` gives it (`Journal-Id`).
    package private(set) var identity = ""

    deinit { if fd >= 0 { close(fd) } }

    package var lastSeq: UInt64 { statistics.withLock { _lastSeq } }
    package var counters: (flushes: Int, records: Int, failures: Int) { statistics.withLock { (_flushes, _records, _failures) } }

    // MARK: Writing

    /// Appends the entry's records (`seq`, `time` are put first in each) and calls
    /// `completion` once they are written and flushed to disk: on `completionQueue` when
    /// given (the completions of one batch for the same queue run there together, in
    /// order, in one hand-off), else on the journal's queue.
    package func append(_ entry: any JournalEntry, completionQueue: (any CompletionExecutor)? = nil, completion: @escaping Completion) {
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
    package func setCommitDelay(microseconds: Int, whileRunning running: @escaping @Sendable () -> Int) {
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
            for segment in segments(of: batch) { flush(Array(segment)) }
        }
    }

    /// The batch cut where the file would pass ``maxBytes``: each piece is written (and
    /// the file rotated after it) before the next, so one large batch does not land in
    /// one file. An entry's records stay together: a file passes the limit by at most one
    /// entry.
    private func segments(of batch: [Pending]) -> [ArraySlice<Pending>] {
        var pieces: [ArraySlice<Pending>] = []
        var start = 0, projected = size
        for (index, item) in batch.enumerated() {
            projected += item.entry.byteCount
            if projected >= maxBytes {
                pieces.append(batch[start...index])
                start = index + 1
                projected = 0
            }
        }
        if start < batch.count { pieces.append(batch[start...]) }
        return pieces
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
        checkFileBeforeFlush()
        let startSeq = seq
        var time: [UInt8] = Array(#","time":"#.utf8)
        JSON.string(Timestamp.iso8601(Timestamp.now())).write(to: &time)
        time.append(UInt8(ascii: ","))
        // Each record goes out as three runs: a joint — the `}` and newline ending the
        // record before, then `{"seq":N,"time":"…",` — its head (its app, build and screen,
        // shared by an entry's records) and its body, the two written from where their
        // entry keeps them (`writev`), not copied into one buffer first: at 100,000
        // elements that buffer was 14 MB of fresh memory for every audit. (Four runs a
        // record before, the end of a record apart from the start of the next: the kernel
        // walked a third more runs.)
        let records = batch.reduce(0) { $0 + $1.entry.recordCount }
        var joints: [UInt8] = []
        var jointEnds: [Int] = []
        joints.reserveCapacity(records * (time.count + 30) + 2)
        jointEnds.reserveCapacity(records)
        for record in 0..<records {
            if record > 0 { joints.append(contentsOf: [UInt8(ascii: "}"), 0x0A]) }
            joints.append(contentsOf: #"{"seq":"#.utf8)
            JSON.writeInt(Int(seq) + record + 1, to: &joints)
            joints.append(contentsOf: time)
            jointEnds.append(joints.count)
        }
        if records > 0 { joints.append(contentsOf: [UInt8(ascii: "}"), 0x0A]) }
        var ranges: [ClosedRange<UInt64>] = []
        // Followers get the lines as one buffer, built only when somebody follows.
        var copy: [UInt8]? = followers.isEmpty ? nil : []
        let sizeBefore = size
        var written = 0
        var failure: JournalError?
        joints.withUnsafeBytes { joints in
            var vectors: [iovec] = []
            vectors.reserveCapacity(records * 3 + 1)
            func add(_ run: UnsafeRawBufferPointer) {
                guard let base = run.baseAddress, run.count > 0 else { return }
                vectors.append(iovec(iov_base: UnsafeMutableRawPointer(mutating: base), iov_len: run.count))
                written += run.count
                copy?.append(contentsOf: run)
            }
            var record = 0
            // Every entry's pieces stay valid while the next entries lend theirs, so the
            // whole batch goes out together: in one call when it can, as a single `write`
            // did (a process killed between two calls would leave half a line).
            func gather(from item: Int) {
                guard item < batch.count else {
                    add(UnsafeRawBufferPointer(rebasing: joints[(jointEnds.last ?? 0)...]))
                    failure = writeAll(&vectors, bytes: written)
                    return
                }
                batch[item].entry.withRecordPieces { piece in
                    let first = seq + 1
                    for index in 0..<batch[item].entry.recordCount {
                        add(UnsafeRawBufferPointer(rebasing: joints[(record == 0 ? 0 : jointEnds[record - 1])..<jointEnds[record]]))
                        record += 1
                        seq += 1
                        let pieces = piece(index)
                        add(pieces.head)
                        add(pieces.body)
                    }
                    ranges.append(first...max(first, seq))
                    gather(from: item + 1)
                }
            }
            gather(from: 0)
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
        let maximum = 1024  // IOV_MAX on Linux
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

    /// Waits for every pending append to be flushed.
    package func drain() {
        queue.sync {
            let batch = takePending()
            if !batch.isEmpty { flush(batch) }
        }
    }
}
