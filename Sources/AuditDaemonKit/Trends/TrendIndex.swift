import AuditCore
import AuditTransport
import AuditHistory
import Dispatch
import Foundation

/// The daemon's trend index (docs/trends.md): an SQLite database beside the journal,
/// written by the history library's ``TrendIndexWriter`` (what it holds is said there) and
/// read by ``TrendHistory``. Trends read those few rows instead of the journal, so a query
/// costs what the app's history holds, not what the journal does.
///
/// The journal stays the record: the index is brought up to the journal's durable end
/// before each query, and every few seconds while audits arrive, on a queue of its own
/// (audits never wait for it). It is rebuilt from the journal when missing, damaged, of
/// another schema, or ahead of the journal (a journal replaced). Each batch of records is
/// one transaction with the seq it reaches, so a crash mid-write leaves an index at an
/// earlier seq, caught up at the next start. What rotation removed from the journal stays
/// in the index until the index is rebuilt.
package final class TrendIndex: @unchecked Sendable {
    /// Journal bytes read per transaction while catching up.
    static let batchBytes = TrendIndexWriter.batchBytes

    package let path: String
    let journal: Journal
    let logger: Logger
    /// Everything below is touched only on this queue.
    let queue = DispatchQueue(label: "auditd.trends", qos: .utility)
    private var writer: TrendIndexWriter?
    private var indexedSeq: UInt64 { writer?.indexedSeq ?? 0 }
    private var catchUpScheduled = false
    private var lastRefresh: UInt64 = 0
    /// Seconds between recomputations of the latest changes from the background.
    static let refreshSeconds = 30.0
    /// Each app's latest build against the ones before it, for `/metrics`.
    package let latestChanges = LatestChanges()

    /// The index of `journal`, at `path` (by default the journal's path + `.index.sqlite`).
    package init(path: String? = nil, journal: Journal, logger: Logger) {
        self.path = path ?? journal.path + ".index.sqlite"
        self.journal = journal
        self.logger = logger
    }

    /// Opens (or rebuilds) the index and catches up with the journal, in the background.
    package func start() {
        queue.async { _ = self.current() }
    }

    /// Catches up soon (coalesced): called as audits are journalled.
    package func journalAdvanced() {
        queue.async { self.scheduleCatchUp(after: 2) }
    }

    /// Journal bytes a catch-up from the background reads before it lets the cores go for
    /// a moment (``pauseSeconds``): under full load two seconds of audits are half a
    /// second of indexing, and taken at once they held a core the audits waited for (the
    /// slowest request 45–74 ms against 22 without the index).
    static let backgroundBytes = 1 << 20
    static let pauseSeconds = 0.01

    /// On the queue: a background catch-up in `seconds` (coalesced), a batch at a time.
    private func scheduleCatchUp(after seconds: Double) {
        guard !catchUpScheduled else { return }
        catchUpScheduled = true
        queue.asyncAfter(deadline: .now() + seconds) {
            self.catchUpScheduled = false
            let before = self.indexedSeq
            if case .success(let store) = self.current(maxBytes: Self.backgroundBytes) {
                do throws(SQLiteError) {
                    try self.refreshTouchedApps(store, forced: false)
                } catch {
                    self.logger.log(.warning, "trend index: the latest changes were not recomputed", ["error": error.description])
                }
            }
            // Further behind: the next batch after a pause — while batches make progress
            // (a failing index is retried at the next audit, not in a loop).
            if self.indexedSeq > before, self.journal.lastSeq > self.indexedSeq { self.scheduleCatchUp(after: Self.pauseSeconds) }
        }
    }

    /// Runs `body` with the index brought up to the journal's durable end, on the index's
    /// queue; `done` gets its result.
    /// The metrics' latest changes of the app asked about (`app`) are brought up before the
    /// answer, those of the other apps just indexed after it: a query waits for no other
    /// app.
    package func read<T: Sendable>(
        app: String? = nil, _ body: @escaping @Sendable (TrendStore) throws(SQLiteError) -> T, done: @escaping @Sendable (Result<T, SQLiteError>) -> Void
    ) {
        queue.async {
            switch self.current() {
            case .failure(let error): done(.failure(error))
            case .success(let store):
                do throws(SQLiteError) {
                    if let app, self.writer?.takeTouched(app) == true { try self.refreshChanges(of: app, store) }
                    done(.success(try body(store)))
                } catch {
                    done(.failure(error))
                }
                do throws(SQLiteError) {
                    try self.refreshTouchedApps(store, forced: true)
                } catch {
                    self.logger.log(.warning, "trend index: the latest changes were not recomputed", ["error": error.description])
                }
            }
        }
    }

    /// The seq the index has reached (for tests and `/metrics`), read on its queue.
    package var seq: UInt64 { queue.sync { indexedSeq } }

    // MARK: On the queue

    /// The store, opened and caught up; a damaged index is rebuilt once.
    /// `maxBytes`: journal bytes to index at most (the rest at the next catch-up).
    private func current(maxBytes: Int = .max) -> Result<TrendStore, SQLiteError> {
        do throws(SQLiteError) {
            return .success(try openAndCatchUp(maxBytes: maxBytes))
        } catch  where error.isCorrupt {
            logger.log(.warning, "trend index damaged: rebuilding it from the journal", ["path": path, "error": error.description])
            close()
            removeFiles()
            do throws(SQLiteError) {
                return .success(try openAndCatchUp(maxBytes: maxBytes))
            } catch {
                return .failure(error)
            }
        } catch {
            return .failure(error)
        }
    }

    private func openAndCatchUp(maxBytes: Int) throws(SQLiteError) -> TrendStore {
        if writer == nil { try open() }
        guard let writer else { throw SQLiteError(code: 1, message: "trend index not open") }
        try catchUp(writer, maxBytes: maxBytes)
        return try writer.store()
    }

    /// What each app's latest build changed, for /metrics: recomputed from that build's
    /// screens, at most every `refreshSeconds` from the background catch-up (an app audited
    /// without pause would have it recomputed every two seconds), and after a query's answer
    /// (`forced`).
    private func refreshTouchedApps(_ store: TrendStore, forced: Bool) throws(SQLiteError) {
        let now = DispatchTime.now().uptimeNanoseconds
        guard let writer, writer.hasTouchedApps, forced || now &- lastRefresh >= UInt64(Self.refreshSeconds * 1e9) else { return }
        for app in writer.takeTouchedApps().sorted() { try refreshChanges(of: app, store) }
        lastRefresh = now
    }

    /// Opens the index's file for this daemon alone. Exclusive locking before the first
    /// access: SQLite then keeps the write-ahead log's index in the daemon's memory instead
    /// of a mapped `-shm` file beside the database — a mapped file truncated underneath
    /// (logrotate's `copytruncate` on `findings.jsonl*`) killed the daemon with SIGBUS. The
    /// daemon is the index's only user (``WriterLock``); nothing else may open it while it
    /// runs.
    static func openExclusive(_ path: String) throws(SQLiteError) -> SQLiteDatabase {
        let database = try SQLiteDatabase(path: path)
        try database.execute("PRAGMA locking_mode=EXCLUSIVE")
        return database
    }

    private func open() throws(SQLiteError) {
        createPrivately()
        var database = try Self.openExclusive(path)
        let stored = try TrendIndexWriter.meta(database)
        let journalSeq = journal.lastSeq
        if stored.schema != nil && stored.schema != TrendIndexWriter.schemaVersion || stored.seq > journalSeq {
            let reason = stored.seq > journalSeq ? "ahead of the journal (seq \(stored.seq) > \(journalSeq))" : "of another schema"
            logger.log(.info, "trend index \(reason): rebuilding it from the journal", ["path": path])
            database = try Self.reopenEmpty(path, closing: database)
        }
        writer = try TrendIndexWriter(database: database)
    }

    /// Lets go of `database` (closed as it is released) and opens an empty file in its place.
    private static func reopenEmpty(_ path: String, closing database: consuming SQLiteDatabase) throws(SQLiteError) -> SQLiteDatabase {
        _ = consume database
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o640])
        return try openExclusive(path)
    }

    /// The app's latest build's new, fixed and regressed findings by severity.
    private func refreshChanges(of app: String, _ store: TrendStore) throws(SQLiteError) {
        guard let build = try store.latestBuild(app: app) else { return }
        let latest = try TrendHistory.trend(of: build, app: app, screen: nil, detailed: false, store: store)
        var counts: [String: [String: Int]] = [:]
        for (severity, classes) in latest.bySeverity {
            for kind in LatestChanges.classes { counts[severity, default: [:]][kind.rawValue] = classes[kind] ?? 0 }
        }
        latestChanges.set(app, LatestChanges.Entry(build: latest.build, counts: counts))
    }

    private func close() {
        latestChanges.clear()
        writer = nil
    }

    /// The index holds what the journal does: readable by the journal's readers only
    /// (SQLite gives its -wal and -shm files the database file's mode).
    private func createPrivately() {
        guard !FileManager.default.fileExists(atPath: path) else { return }
        _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o640])
    }

    private func removeFiles() {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// Reads the journal's durable records after the index's seq, a batch per transaction.
    private func catchUp(_ writer: TrendIndexWriter, maxBytes: Int) throws(SQLiteError) {
        guard journal.lastSeq > writer.indexedSeq else { return }
        // The backlog is taken on the journal's queue, which never waits for this one.
        let taken = DispatchSemaphore(value: 0)
        let box = Locked<JournalBacklog?>(nil)
        journal.backlog(since: writer.indexedSeq, then: nil) { backlog, _ in
            box.set(backlog)
            taken.signal()
        }
        taken.wait()
        guard let backlog = box.get() else { return }
        var lines: [UInt8] = []
        var more = true
        var read = 0
        while more, read < maxBytes {
            lines.removeAll(keepingCapacity: true)
            more = backlog.fill(&lines, limit: Self.batchBytes)
            read += lines.count
            guard !lines.isEmpty else { continue }
            // (`withUnsafeBytes` rethrows untyped: the error is carried out by value.)
            let outcome: Result<Int, SQLiteError> = lines.withUnsafeBytes { all in
                do throws(SQLiteError) {
                    return .success(try writer.index(lines: all))
                } catch {
                    return .failure(error)
                }
            }
            let skipped = try outcome.get()
            if skipped > 0 { logger.log(.warning, "trend index: a journal line is not a record; skipped", ["lines": String(skipped)]) }
        }
    }
}
