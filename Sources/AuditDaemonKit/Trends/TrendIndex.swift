import AuditCore
import Dispatch
import Foundation

/// The trend index (docs/trends.md): an SQLite database beside the journal that holds,
/// for the last audit of each screen in each build, its app, build, screen and transcript
/// digest, and each finding's fingerprint, defect, rule, severity, path and message — with,
/// per app, its builds in the order they were first audited. Trends read those few rows
/// instead of the journal, so a query costs what the app's history holds, not what the
/// journal does; an audit superseded by a later one of its screen and build is let go.
///
/// The journal stays the record: the index is brought up to the journal's durable end
/// before each query, and every few seconds while audits arrive, on a queue of its own
/// (audits never wait for it). It is rebuilt from the journal when missing, damaged, of
/// another schema, or ahead of the journal (a journal replaced). Each batch of records is
/// one transaction with the seq it reaches, so a crash mid-write leaves an index at an
/// earlier seq, caught up at the next start. What rotation removed from the journal stays
/// in the index until the index is rebuilt.
public final class TrendIndex: @unchecked Sendable {
    /// The index's layout; another value in an existing file rebuilds it.
    static let schemaVersion = "4"
    /// Journal bytes read per transaction while catching up.
    static let batchBytes = 1 << 20

    public let path: String
    let journal: Journal
    let logger: Logger
    /// Everything below is touched only on this queue.
    let queue = DispatchQueue(label: "auditd.trends", qos: .utility)
    private var database: SQLiteDatabase?
    private var indexedSeq: UInt64 = 0
    private var statements: Statements?
    private var catchUpScheduled = false
    /// Apps whose audits the last catch-up indexed: their latest changes are recomputed.
    private var touchedApps = Set<String>()
    private var lastRefresh: UInt64 = 0
    /// Seconds between recomputations of the latest changes from the background.
    static let refreshSeconds = 30.0
    /// Each app's latest build against the ones before it, for `/metrics`.
    public let latestChanges = LatestChanges()

    /// The index of `journal`, at `path` (by default the journal's path + `.index.sqlite`).
    public init(path: String? = nil, journal: Journal, logger: Logger) {
        self.path = path ?? journal.path + ".index.sqlite"
        self.journal = journal
        self.logger = logger
    }

    /// Opens (or rebuilds) the index and catches up with the journal, in the background.
    public func start() {
        queue.async { _ = self.current() }
    }

    /// Catches up soon (coalesced): called as audits are journalled.
    public func journalAdvanced() {
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
    public func read<T: Sendable>(
        app: String? = nil, _ body: @escaping @Sendable (TrendStore) throws(SQLiteError) -> T, done: @escaping @Sendable (Result<T, SQLiteError>) -> Void
    ) {
        queue.async {
            switch self.current() {
            case .failure(let error): done(.failure(error))
            case .success(let store):
                do throws(SQLiteError) {
                    if let app, self.touchedApps.remove(app) != nil { try self.refreshChanges(of: app, store) }
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
    public var seq: UInt64 { queue.sync { indexedSeq } }

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
        if database == nil { try open() }
        guard let database, let statements else { throw SQLiteError(code: 1, message: "trend index not open") }
        try catchUp(database, statements, maxBytes: maxBytes)
        return try TrendStore(database: database)
    }

    /// What each app's latest build changed, for /metrics: recomputed from that build's
    /// screens, at most every `refreshSeconds` from the background catch-up (an app audited
    /// without pause would have it recomputed every two seconds), and after a query's answer
    /// (`forced`).
    private func refreshTouchedApps(_ store: TrendStore, forced: Bool) throws(SQLiteError) {
        let now = DispatchTime.now().uptimeNanoseconds
        guard !touchedApps.isEmpty, forced || now &- lastRefresh >= UInt64(Self.refreshSeconds * 1e9) else { return }
        for app in touchedApps.sorted() { try refreshChanges(of: app, store) }
        touchedApps.removeAll()
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
        var opened: SQLiteDatabase? = try Self.openExclusive(path)
        var stored = (schema: String?.none, seq: UInt64(0))
        if let first = opened { stored = try Self.meta(first) }
        let journalSeq = journal.lastSeq
        if stored.schema != nil && stored.schema != Self.schemaVersion || stored.seq > journalSeq {
            let reason = stored.seq > journalSeq ? "ahead of the journal (seq \(stored.seq) > \(journalSeq))" : "of another schema"
            logger.log(.info, "trend index \(reason): rebuilding it from the journal", ["path": path])
            opened = nil
            removeFiles()
            createPrivately()
            opened = try Self.openExclusive(path)
            stored = (nil, 0)
        }
        guard let database = opened else { return }
        try database.execute(
            """
            PRAGMA journal_mode=WAL;
            PRAGMA synchronous=NORMAL;
            CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS audits(seq INTEGER PRIMARY KEY, audit TEXT NOT NULL, app TEXT NOT NULL, build TEXT,
                screen TEXT NOT NULL, time TEXT, digest TEXT, speech TEXT);
            CREATE INDEX IF NOT EXISTS audits_by_id ON audits(audit);
            CREATE TABLE IF NOT EXISTS findings(audit_seq INTEGER NOT NULL, part INTEGER NOT NULL, packed TEXT NOT NULL,
                PRIMARY KEY(audit_seq, part)) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS builds(app TEXT NOT NULL, build TEXT NOT NULL, first_seq INTEGER NOT NULL,
                first_time TEXT, PRIMARY KEY(app, build)) WITHOUT ROWID;
            CREATE INDEX IF NOT EXISTS builds_in_order ON builds(app, first_seq);
            CREATE TABLE IF NOT EXISTS screen_builds(app TEXT NOT NULL, build TEXT NOT NULL, screen TEXT NOT NULL,
                last_seq INTEGER NOT NULL, build_seq INTEGER NOT NULL, PRIMARY KEY(app, build, screen)) WITHOUT ROWID;
            CREATE INDEX IF NOT EXISTS screen_builds_in_order ON screen_builds(app, screen, build_seq);
            CREATE TABLE IF NOT EXISTS seen(app TEXT NOT NULL, screen TEXT NOT NULL, fingerprint TEXT NOT NULL,
                build_seq INTEGER NOT NULL, PRIMARY KEY(app, screen, fingerprint, build_seq)) WITHOUT ROWID;
            INSERT OR IGNORE INTO meta VALUES('schema', '\(Self.schemaVersion)');
            INSERT OR IGNORE INTO meta VALUES('seq', '0');
            """)
        try Self.pruneSuperseded(database)
        statements = try Statements(database)
        indexedSeq = stored.seq
        self.database = database
    }

    /// Once per index: lets go of what an index made before superseded audits were let
    /// go of as they came (session 25) still holds — every audit but the last of each
    /// screen in each build, which is all trends read. Their pages are reused by later
    /// audits (the file does not shrink).
    private static func pruneSuperseded(_ database: SQLiteDatabase) throws(SQLiteError) {
        let done = try database.prepare("SELECT value FROM meta WHERE key = 'superseded-pruned'").firstRow([]) { $0.text(0) }
        guard done == nil else { return }
        try database.transaction { () throws(SQLiteError) in
            try database.execute(
                """
                DELETE FROM findings WHERE audit_seq NOT IN (SELECT last_seq FROM screen_builds);
                DELETE FROM audits WHERE seq NOT IN (SELECT last_seq FROM screen_builds);
                INSERT OR REPLACE INTO meta VALUES('superseded-pruned', '1');
                """)
        }
    }

    static func meta(_ database: SQLiteDatabase) throws(SQLiteError) -> (schema: String?, seq: UInt64) {
        let exists = try database.prepare("SELECT count(*) FROM sqlite_master WHERE type='table' AND name='meta'")
        guard try exists.step(), exists.integer(0) > 0 else { return (nil, 0) }
        let read = try database.prepare("SELECT key, value FROM meta")
        var schema: String?
        var seq: UInt64 = 0
        while try read.step() {
            switch read.text(0) {
            case "schema": schema = read.text(1)
            case "seq": seq = read.text(1).flatMap { UInt64($0) } ?? 0
            default: break
            }
        }
        return (schema, seq)
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
        touchedApps = []
        statements = nil
        database = nil
        indexedSeq = 0
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
    private func catchUp(_ database: SQLiteDatabase, _ statements: Statements, maxBytes: Int) throws(SQLiteError) {
        guard journal.lastSeq > indexedSeq else { return }
        // The backlog is taken on the journal's queue, which never waits for this one.
        let taken = DispatchSemaphore(value: 0)
        let box = Locked<JournalBacklog?>(nil)
        journal.backlog(since: indexedSeq, then: nil) { backlog, _ in
            box.set(backlog)
            taken.signal()
        }
        taken.wait()
        guard let backlog = box.get() else { return }
        var lines: [UInt8] = []
        var more = true
        var audits: [String: Int64] = [:]
        var read = 0
        while more, read < maxBytes {
            lines.removeAll(keepingCapacity: true)
            more = backlog.fill(&lines, limit: Self.batchBytes)
            read += lines.count
            guard !lines.isEmpty else { continue }
            let reached = try database.transaction { () throws(SQLiteError) -> UInt64 in
                var batch = Batch(reached: indexedSeq)
                // (`withUnsafeBytes` rethrows untyped: the error is carried out by value.)
                let failure: SQLiteError? = lines.withUnsafeBytes { all in
                    guard let base = all.baseAddress else { return nil }
                    var start = 0
                    while start < all.count {
                        // The line's end by `memchr`, not a byte loop.
                        let newline = memchr(base + start, 0x0A, all.count - start)
                        let end = newline.map { base.distance(to: UnsafeRawPointer($0)) } ?? all.count
                        do throws(SQLiteError) {
                            try index(line: UnsafeRawBufferPointer(rebasing: all[start..<end]), statements, audits: &audits, batch: &batch)
                        } catch {
                            return error
                        }
                        start = end + 1
                    }
                    return nil
                }
                if let failure { throw failure }
                try batch.flush(statements)
                try statements.setSeq.run([.text(String(batch.reached))])
                return batch.reached
            }
            indexedSeq = reached
            // Audits are looked up by id in memory for a while, then in the table.
            if audits.count > 10_000 { audits.removeAll(keepingCapacity: true) }
        }
    }

    /// What one transaction has gathered: the seq reached, and the findings of the audit
    /// being read, packed, written when the next audit starts or the batch ends.
    private struct Batch {
        var reached: UInt64
        /// The audit being read: its seq (-1 when its findings are left out: it names no
        /// build, or is unknown) and its id's bytes as the journal writes them.
        var audit: Int64 = -1
        var auditID: [UInt8] = []
        var packed: [UInt8] = []
        /// The audit's app, screen and build (as its build's first seq): each finding's
        /// fingerprint is noted as seen there.
        var place: [SQLiteValue] = []

        mutating func flush(_ statements: Statements) throws(SQLiteError) {
            guard audit >= 0, !packed.isEmpty else { return }
            try statements.appendFindings.run([.integer(audit), .utf8(packed)])
            packed.removeAll(keepingCapacity: true)
        }
    }

    /// Indexes one journal line. A finding of the audit being read (the common case: an
    /// audit's records are written together) is packed from the line's bytes, no string
    /// made.
    private func index(line: UnsafeRawBufferPointer, _ statements: Statements, audits: inout [String: Int64], batch: inout Batch) throws(SQLiteError) {
        guard !line.isEmpty else { return }
        guard let record = JournalLineFields(line), let seq = record.seq, seq > 0 else {
            logger.log(.warning, "trend index: a journal line is not a record; skipped")
            return
        }
        batch.reached = max(batch.reached, UInt64(seq))
        guard let auditID = record.raw(.audit) else { return }
        if record.is(.type, "finding") {
            guard record.raw(.fingerprint) != nil else { return }
            if !batch.auditID.withUnsafeBytes({ $0.hasSameBytes(as: auditID) }) {
                try batch.flush(statements)
                batch.audit = -1
                batch.auditID = Array(auditID)
                guard let id = record[.audit] else { return }
                var owner = audits[id]
                if owner == nil { owner = try statements.findAudit.firstRow([.text(id)]) { $0.integer(0) } }
                // Findings of an audit that names no build are not in trends.
                guard let owner,
                    let place = try statements.findPlace.firstRow(
                        [.integer(owner)],
                        { row in
                            [SQLiteValue.text(row.text(0) ?? ""), .text(row.text(1) ?? ""), .integer(row.integer(2))]
                        })
                else { return }
                batch.audit = owner
                batch.place = place
            }
            guard batch.audit >= 0 else { return }
            IndexPacking.append(record, to: &batch.packed)
            if let fingerprint = record[.fingerprint] {
                try statements.insertSeen.run([batch.place[0], batch.place[1], .text(fingerprint), batch.place[2]])
            }
        } else if record.is(.type, "audit"), let id = record[.audit] {
            try batch.flush(statements)
            batch.audit = -1
            batch.auditID = Array(auditID)
            // An audit that names no build is in no trend: nothing of it is kept (its
            // findings, read next, find no audit and are passed over).
            guard let build = record[.build] else { return }
            let app = record[.app] ?? ""
            let screen = record[.screen] ?? ""
            try statements.insertAudit.run([
                .integer(Int64(seq)), .text(id), .text(app), .text(build), .text(screen), .optional(record[.time]), .optional(record.digest),
                .optional(record.speech.map(IndexPacking.packSpeech)),
            ])
            audits[id] = Int64(seq)
            touchedApps.insert(app)
            try statements.insertBuild.run([.text(app), .text(build), .integer(Int64(seq)), .optional(record[.time])])
            let buildSeq = try statements.findBuildSeq.firstRow([.text(app), .text(build)]) { $0.integer(0) } ?? Int64(seq)
            // Trends read the last audit of each screen in each build: the one before it is
            // let go (its findings were all indexed, an audit's records being written
            // together). The index then grows with builds and screens, not with audits —
            // a screen audited again and again in one build held every audit's findings
            // (about 45 KB an audit on the soak's mix, 1.08 GB after 24,000 audits).
            let identity: [SQLiteValue] = [.text(app), .text(build), .text(screen)]
            if let earlier = try statements.findScreenBuild.firstRow(identity, { $0.integer(0) }), earlier != Int64(seq) {
                try statements.deleteFindings.run([.integer(earlier)])
                try statements.deleteAudit.run([.integer(earlier)])
                // What the screen showed in this build is the new audit's alone.
                try statements.deleteSeen.run([.text(app), .text(screen), .integer(buildSeq)])
            }
            try statements.upsertScreenBuild.run(identity + [.integer(Int64(seq)), .integer(buildSeq)])
            batch.audit = Int64(seq)
            batch.place = [.text(app), .text(screen), .integer(buildSeq)]
        }
    }

    /// The statements catching up runs, prepared once per connection.
    private struct Statements {
        let insertAudit: SQLiteDatabase.Statement
        let appendFindings: SQLiteDatabase.Statement
        let findPlace: SQLiteDatabase.Statement
        let insertBuild: SQLiteDatabase.Statement
        let findBuildSeq: SQLiteDatabase.Statement
        let insertSeen: SQLiteDatabase.Statement
        let deleteSeen: SQLiteDatabase.Statement
        let upsertScreenBuild: SQLiteDatabase.Statement
        let findScreenBuild: SQLiteDatabase.Statement
        let deleteFindings: SQLiteDatabase.Statement
        let deleteAudit: SQLiteDatabase.Statement
        let findAudit: SQLiteDatabase.Statement
        let setSeq: SQLiteDatabase.Statement

        init(_ database: SQLiteDatabase) throws(SQLiteError) {
            insertAudit = try database.prepare("INSERT OR REPLACE INTO audits VALUES(?, ?, ?, ?, ?, ?, ?, ?)")
            // A finding-heavy audit read over several batches gets a part per batch: its
            // row was rewritten whole for each megabyte read before (quadratic).
            appendFindings = try database.prepare(
                "INSERT INTO findings SELECT ?1, coalesce(max(part) + 1, 0), ?2 FROM findings WHERE audit_seq = ?1")
            findPlace = try database.prepare(
                "SELECT a.app, a.screen, b.first_seq FROM audits a JOIN builds b ON b.app = a.app AND b.build = a.build WHERE a.seq = ?")
            insertBuild = try database.prepare("INSERT OR IGNORE INTO builds VALUES(?, ?, ?, ?)")
            findBuildSeq = try database.prepare("SELECT first_seq FROM builds WHERE app = ? AND build = ?")
            insertSeen = try database.prepare("INSERT OR IGNORE INTO seen VALUES(?, ?, ?, ?)")
            deleteSeen = try database.prepare("DELETE FROM seen WHERE app = ? AND screen = ? AND build_seq = ?")
            upsertScreenBuild = try database.prepare(
                "INSERT INTO screen_builds VALUES(?, ?, ?, ?, ?) ON CONFLICT(app, build, screen) DO UPDATE SET last_seq = excluded.last_seq")
            findScreenBuild = try database.prepare("SELECT last_seq FROM screen_builds WHERE app = ? AND build = ? AND screen = ?")
            deleteFindings = try database.prepare("DELETE FROM findings WHERE audit_seq = ?")
            deleteAudit = try database.prepare("DELETE FROM audits WHERE seq = ?")
            findAudit = try database.prepare("SELECT seq FROM audits WHERE audit = ?")
            setSeq = try database.prepare("UPDATE meta SET value = ? WHERE key = 'seq'")
        }
    }
}
