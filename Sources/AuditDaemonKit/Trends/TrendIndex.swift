import AuditCore
import Dispatch
import Foundation

/// The trend index (docs/trends.md): an SQLite database beside the journal that holds,
/// for every audit, its app, build, screen and transcript digest, and each finding's
/// fingerprint, defect, rule, severity, path and message — with, per app, its builds in
/// the order they were first audited and the last audit of each screen in each build.
/// Trends read those few rows instead of the journal, so a query costs what the app's
/// history holds, not what the journal does.
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
    static let schemaVersion = "1"
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
        queue.async {
            guard !self.catchUpScheduled else { return }
            self.catchUpScheduled = true
            self.queue.asyncAfter(deadline: .now() + 2) {
                self.catchUpScheduled = false
                _ = self.current()
            }
        }
    }

    /// Runs `body` with the index brought up to the journal's durable end, on the index's
    /// queue; `done` gets its result.
    public func read<T: Sendable>(_ body: @escaping @Sendable (TrendStore) throws(SQLiteError) -> T, done: @escaping @Sendable (Result<T, SQLiteError>) -> Void) {
        queue.async {
            switch self.current() {
            case .failure(let error): done(.failure(error))
            case .success(let store):
                do throws(SQLiteError) {
                    done(.success(try body(store)))
                } catch {
                    done(.failure(error))
                }
            }
        }
    }

    /// The seq the index has reached (for tests and `/metrics`), read on its queue.
    public var seq: UInt64 { queue.sync { indexedSeq } }

    // MARK: On the queue

    /// The store, opened and caught up; a damaged index is rebuilt once.
    private func current() -> Result<TrendStore, SQLiteError> {
        do throws(SQLiteError) {
            return .success(try openAndCatchUp())
        } catch  where error.isCorrupt {
            logger.log(.warning, "trend index damaged: rebuilding it from the journal", ["path": path, "error": error.description])
            close()
            removeFiles()
            do throws(SQLiteError) {
                return .success(try openAndCatchUp())
            } catch {
                return .failure(error)
            }
        } catch {
            return .failure(error)
        }
    }

    private func openAndCatchUp() throws(SQLiteError) -> TrendStore {
        if database == nil { try open() }
        guard let database, let statements else { throw SQLiteError(code: 1, message: "trend index not open") }
        try catchUp(database, statements)
        let store = TrendStore(database: database)
        if !touchedApps.isEmpty {
            for app in touchedApps.sorted() { try refreshChanges(of: app, store) }
            touchedApps.removeAll()
        }
        return store
    }

    private func open() throws(SQLiteError) {
        createPrivately()
        var opened: SQLiteDatabase? = try SQLiteDatabase(path: path)
        var stored = (schema: String?.none, seq: UInt64(0))
        if let first = opened { stored = try Self.meta(first) }
        let journalSeq = journal.lastSeq
        if stored.schema != nil && stored.schema != Self.schemaVersion || stored.seq > journalSeq {
            let reason = stored.seq > journalSeq ? "ahead of the journal (seq \(stored.seq) > \(journalSeq))" : "of another schema"
            logger.log(.info, "trend index \(reason): rebuilding it from the journal", ["path": path])
            opened = nil
            removeFiles()
            createPrivately()
            opened = try SQLiteDatabase(path: path)
            stored = (nil, 0)
        }
        guard let database = opened else { return }
        try database.execute(
            """
            PRAGMA journal_mode=WAL;
            PRAGMA synchronous=NORMAL;
            CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS audits(seq INTEGER PRIMARY KEY, audit TEXT NOT NULL, app TEXT NOT NULL, build TEXT,
                screen TEXT NOT NULL, time TEXT, digest TEXT);
            CREATE INDEX IF NOT EXISTS audits_by_id ON audits(audit);
            CREATE TABLE IF NOT EXISTS findings(audit_seq INTEGER NOT NULL, fingerprint TEXT NOT NULL, defect TEXT, rule TEXT NOT NULL,
                severity TEXT NOT NULL, path TEXT, message TEXT);
            CREATE INDEX IF NOT EXISTS findings_by_audit ON findings(audit_seq);
            CREATE TABLE IF NOT EXISTS builds(app TEXT NOT NULL, build TEXT NOT NULL, first_seq INTEGER NOT NULL,
                PRIMARY KEY(app, build)) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS screen_builds(app TEXT NOT NULL, build TEXT NOT NULL, screen TEXT NOT NULL,
                last_seq INTEGER NOT NULL, PRIMARY KEY(app, build, screen)) WITHOUT ROWID;
            INSERT OR IGNORE INTO meta VALUES('schema', '\(Self.schemaVersion)');
            INSERT OR IGNORE INTO meta VALUES('seq', '0');
            """)
        statements = try Statements(database)
        indexedSeq = stored.seq
        self.database = database
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
        guard case .success(let answer) = try TrendHistory.json(TrendHistory.Query(app: app), store: store),
            let latest = answer["builds"]?.arrayValue?.last, let build = latest["build"]?.stringValue
        else { return }
        var counts: [String: [String: Int]] = [:]
        for (severity, classes) in latest["by-severity"]?.objectValue ?? [] {
            for kind in LatestChanges.classes { counts[severity, default: [:]][kind.rawValue] = classes[kind.rawValue]?.intValue ?? 0 }
        }
        latestChanges.set(app, LatestChanges.Entry(build: build, counts: counts))
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
    private func catchUp(_ database: SQLiteDatabase, _ statements: Statements) throws(SQLiteError) {
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
        while more {
            lines.removeAll(keepingCapacity: true)
            more = backlog.fill(&lines, limit: Self.batchBytes)
            guard !lines.isEmpty else { continue }
            let reached = try database.transaction { () throws(SQLiteError) -> UInt64 in
                var reached = indexedSeq
                var start = 0
                while start < lines.count {
                    let end = lines[start...].firstIndex(of: 0x0A) ?? lines.count
                    if let seq = try index(line: Array(lines[start..<end]), statements, audits: &audits) { reached = max(reached, seq) }
                    start = end + 1
                }
                try statements.setSeq.run([.text(String(reached))])
                return reached
            }
            indexedSeq = reached
            // A batch's audits are looked up by id only until the next batch.
            if audits.count > 10_000 { audits.removeAll(keepingCapacity: true) }
        }
    }

    /// Indexes one journal line; returns its seq.
    private func index(line: [UInt8], _ statements: Statements, audits: inout [String: Int64]) throws(SQLiteError) -> UInt64? {
        guard let record = try? JSONParser.parse(line), let seq = record["seq"]?.intValue, seq > 0 else {
            logger.log(.warning, "trend index: a journal line is not a record; skipped")
            return nil
        }
        let type = record["type"]?.stringValue
        guard type == "audit" || type == "finding", let audit = record["audit"]?.stringValue else { return UInt64(seq) }
        let app = record["app"]?.stringValue ?? ""
        let build = record["build"]?.stringValue
        let screen = record["screen"]?.stringValue ?? ""
        if type == "audit" {
            try statements.insertAudit.run([
                .integer(Int64(seq)), .text(audit), .text(app), .optional(build), .text(screen), .optional(record["time"]?.stringValue),
                .optional(record["transcript"]?["digest"]?.stringValue),
            ])
            audits[audit] = Int64(seq)
            if let build {
                touchedApps.insert(app)
                try statements.insertBuild.run([.text(app), .text(build), .integer(Int64(seq))])
                try statements.upsertScreenBuild.run([.text(app), .text(build), .text(screen), .integer(Int64(seq))])
            }
        } else {
            var auditSeq = audits[audit]
            if auditSeq == nil {
                try statements.findAudit.bind([.text(audit)])
                if try statements.findAudit.step() { auditSeq = statements.findAudit.integer(0) }
            }
            guard let auditSeq, let fingerprint = record["fingerprint"]?.stringValue else { return UInt64(seq) }
            try statements.insertFinding.run([
                .integer(auditSeq), .text(fingerprint), .optional(record["defect"]?.stringValue), .text(record["rule"]?.stringValue ?? ""),
                .text(record["severity"]?.stringValue ?? ""), .optional(record["path"]?.stringValue), .optional(record["message"]?.stringValue),
            ])
        }
        return UInt64(seq)
    }

    /// The statements catching up runs, prepared once per connection.
    private struct Statements {
        let insertAudit: SQLiteDatabase.Statement
        let insertFinding: SQLiteDatabase.Statement
        let insertBuild: SQLiteDatabase.Statement
        let upsertScreenBuild: SQLiteDatabase.Statement
        let findAudit: SQLiteDatabase.Statement
        let setSeq: SQLiteDatabase.Statement

        init(_ database: SQLiteDatabase) throws(SQLiteError) {
            insertAudit = try database.prepare("INSERT OR REPLACE INTO audits VALUES(?, ?, ?, ?, ?, ?, ?)")
            insertFinding = try database.prepare("INSERT INTO findings VALUES(?, ?, ?, ?, ?, ?, ?)")
            insertBuild = try database.prepare("INSERT OR IGNORE INTO builds VALUES(?, ?, ?)")
            upsertScreenBuild = try database.prepare(
                "INSERT INTO screen_builds VALUES(?, ?, ?, ?) ON CONFLICT(app, build, screen) DO UPDATE SET last_seq = excluded.last_seq")
            findAudit = try database.prepare("SELECT seq FROM audits WHERE audit = ?")
            setSeq = try database.prepare("UPDATE meta SET value = ? WHERE key = 'seq'")
        }
    }
}
