import AuditCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes the trend index (docs/trends.md) from journal lines: its tables, and the records
/// of a batch of lines in one transaction with the seq they reach, so an index stopped
/// mid-write is at an earlier seq and goes on from there. For the last audit of each screen
/// in each build it keeps the app, build, screen and transcript digest, and each finding's
/// fingerprint, defect, rule, severity, path and message; an audit superseded by a later
/// one of its screen and build is let go. The daemon's ``TrendIndex`` feeds it the journal
/// as it grows; `auditctl trend --journal` feeds it a journal file (``indexing(journalAt:)``).
/// Not for concurrent use.
package final class TrendIndexWriter {
    /// The index's layout; another value in an existing file rebuilds it.
    package static let schemaVersion = "4"
    /// Journal bytes read per transaction.
    package static let batchBytes = 1 << 20

    package let database: SQLiteDatabase
    private let statements: Statements
    /// The seq the index has reached.
    package private(set) var indexedSeq: UInt64
    /// Apps whose audits were indexed since ``takeTouchedApps()`` last asked.
    private var touchedApps = Set<String>()
    /// Audits looked up by id in memory for a while, then in the table.
    private var audits: [String: Int64] = [:]

    /// Opens the index's tables in `database` (made when missing), at the seq it reached.
    package init(database: SQLiteDatabase) throws(SQLiteError) {
        let stored = try Self.meta(database)
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
            INSERT OR IGNORE INTO meta VALUES('schema', '\(TrendIndexWriter.schemaVersion)');
            INSERT OR IGNORE INTO meta VALUES('seq', '0');
            """)
        try Self.pruneSuperseded(database)
        self.database = database
        statements = try Statements(database)
        indexedSeq = stored.seq
    }

    /// The store trends read, over the same database.
    package func store() throws(SQLiteError) -> TrendStore { try TrendStore(database: database) }

    /// The apps indexed since the last call, and forgets them.
    package func takeTouchedApps() -> Set<String> {
        defer { touchedApps.removeAll() }
        return touchedApps
    }

    /// Whether `app` was indexed since it was last asked about; forgets it.
    package func takeTouched(_ app: String) -> Bool { touchedApps.remove(app) != nil }

    /// Whether any app was indexed since the last ``takeTouchedApps()``.
    package var hasTouchedApps: Bool { !touchedApps.isEmpty }

    /// Indexes `lines` (whole journal lines, each ended by a newline but perhaps the last)
    /// in one transaction; returns how many lines were not records (skipped).
    @discardableResult
    package func index(lines: UnsafeRawBufferPointer) throws(SQLiteError) -> Int {
        guard let base = lines.baseAddress, !lines.isEmpty else { return 0 }
        let result = try database.transaction { () throws(SQLiteError) -> (reached: UInt64, skipped: Int) in
            var batch = Batch(reached: indexedSeq)
            var start = 0
            while start < lines.count {
                // The line's end by `memchr`, not a byte loop.
                let newline = memchr(base + start, 0x0A, lines.count - start)
                let end = newline.map { base.distance(to: UnsafeRawPointer($0)) } ?? lines.count
                try index(line: UnsafeRawBufferPointer(rebasing: lines[start..<end]), batch: &batch)
                start = end + 1
            }
            try batch.flush(statements)
            try statements.setSeq.run([.text(String(batch.reached))])
            return (batch.reached, batch.skipped)
        }
        indexedSeq = result.reached
        if audits.count > 10_000 { audits.removeAll(keepingCapacity: true) }
        return result.skipped
    }

    /// An index of the journal file at `path` alone, in memory: what `auditctl trend
    /// --journal` answers from, no daemon needed. Read a batch at a time; a last line cut
    /// short (a journal being written) is left out.
    package static func indexing(journalAt path: String) throws(HistoryError) -> TrendIndexWriter {
        let writer: TrendIndexWriter
        do throws(SQLiteError) {
            writer = try TrendIndexWriter(database: try SQLiteDatabase(path: ":memory:"))
        } catch {
            throw HistoryError("cannot make an index in memory: \(error.description)")
        }
        // Every record the journal's files hold, rotated ones included (``JournalFiles``).
        try JournalFiles.forEachRecord(journal: path) { lines throws(HistoryError) in
            do throws(SQLiteError) {
                _ = try writer.index(lines: lines)
            } catch {
                throw HistoryError("cannot index \(path): \(error.description)")
            }
        }
        return writer
    }

    /// The schema and seq an index file holds (`nil` schema: no index yet).
    package static func meta(_ database: SQLiteDatabase) throws(SQLiteError) -> (schema: String?, seq: UInt64) {
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
        /// Lines that were not records (skipped).
        var skipped = 0

        mutating func flush(_ statements: Statements) throws(SQLiteError) {
            guard audit >= 0, !packed.isEmpty else { return }
            try statements.appendFindings.run([.integer(audit), .utf8(packed)])
            packed.removeAll(keepingCapacity: true)
        }
    }

    /// Indexes one journal line. A finding of the audit being read (the common case: an
    /// audit's records are written together) is packed from the line's bytes, no string
    /// made.
    private func index(line: UnsafeRawBufferPointer, batch: inout Batch) throws(SQLiteError) {
        guard !line.isEmpty else { return }
        guard let record = JournalLineFields(line), let seq = record.seq, seq > 0 else {
            batch.skipped += 1
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
