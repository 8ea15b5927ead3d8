import AuditCore

/// The trend index's contents as trends read them: an app's builds in the order they
/// were first audited, the last audit of each screen in each build, and an audit's
/// findings. Used on the index's queue only (``TrendIndex/read(_:done:)``).
public struct TrendStore {
    let database: SQLiteDatabase
    /// The per-audit lookups a trend makes for every screen of every build, prepared once.
    private let findingsQuery: SQLiteDatabase.Statement
    private let digestQuery: SQLiteDatabase.Statement
    private let speechQuery: SQLiteDatabase.Statement

    init(database: SQLiteDatabase) throws(SQLiteError) {
        self.database = database
        findingsQuery = try database.prepare("SELECT packed FROM findings WHERE audit_seq = ?")
        digestQuery = try database.prepare("SELECT digest FROM audits WHERE seq = ?")
        speechQuery = try database.prepare("SELECT speech FROM audits WHERE seq = ?")
    }

    /// One finding as the index keeps it.
    public struct Finding: Sendable {
        public let fingerprint: String
        public let defect: String?
        public let rule: String
        public let severity: String
        public let path: String?
        public let message: String?
    }

    /// One screen's last audit in a build.
    public struct ScreenAudit: Sendable {
        public let screen: String
        public let seq: Int64
    }

    /// The app's builds, oldest first (by their first audit).
    public func builds(app: String) throws(SQLiteError) -> [String] {
        let query = try database.prepare("SELECT build FROM builds WHERE app = ? ORDER BY first_seq")
        try query.bind([.text(app)])
        var builds: [String] = []
        while try query.step() { builds.append(query.text(0) ?? "") }
        return builds
    }

    /// Per build, the last audit of each of its screens (of `screen` only, when given).
    public func screenAudits(app: String, screen: String?) throws(SQLiteError) -> [String: [ScreenAudit]] {
        let query = try database.prepare(
            screen == nil
                ? "SELECT build, screen, last_seq FROM screen_builds WHERE app = ? ORDER BY screen"
                : "SELECT build, screen, last_seq FROM screen_builds WHERE app = ? AND screen = ?")
        try query.bind(screen.map { [.text(app), .text($0)] } ?? [.text(app)])
        var byBuild: [String: [ScreenAudit]] = [:]
        while try query.step() {
            byBuild[query.text(0) ?? "", default: []].append(ScreenAudit(screen: query.text(1) ?? "", seq: query.integer(2)))
        }
        return byBuild
    }

    /// The findings of the audit at `seq`.
    public func findings(audit seq: Int64) throws(SQLiteError) -> [Finding] {
        try findingsQuery.firstRow([.integer(seq)]) { IndexPacking.unpack($0.text(0) ?? "") } ?? []
    }

    /// The transcript digest of the audit at `seq`, when it had one.
    public func digest(audit seq: Int64) throws(SQLiteError) -> String? {
        try digestQuery.firstRow([.integer(seq)]) { $0.text(0) }
    }

    /// What the screen reader said at each stop in the audit at `seq` (as the journal kept
    /// it: at most its first 1,000 stops), when the audit had a transcript.
    public func speech(audit seq: Int64) throws(SQLiteError) -> [String]? {
        try speechQuery.firstRow([.integer(seq)]) { $0.text(0).map(IndexPacking.unpackSpeech) }
    }
}
