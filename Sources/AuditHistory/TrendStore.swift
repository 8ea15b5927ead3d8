import AuditCore

/// The trend index's contents as trends read them: an app's builds in the order they
/// were first audited, the last audit of each screen in each build, an audit's findings,
/// and in which builds each screen showed each fingerprint. Every lookup is by key, so a
/// build's trend costs what that build's screens hold, not what the app's history does.
/// Used on the index's queue only (``TrendIndex/read(_:done:)``).
public struct TrendStore {
    let database: SQLiteDatabase
    /// The lookups a trend makes for every screen of a build, prepared once per query.
    private let findingsQuery: SQLiteDatabase.Statement
    private let digestQuery: SQLiteDatabase.Statement
    private let speechQuery: SQLiteDatabase.Statement
    private let previousAuditQuery: SQLiteDatabase.Statement
    private let seenBeforeQuery: SQLiteDatabase.Statement
    private let nextSeenQuery: SQLiteDatabase.Statement
    private let screensQuery: SQLiteDatabase.Statement
    private let lastAuditQuery: SQLiteDatabase.Statement

    init(database: SQLiteDatabase) throws(SQLiteError) {
        self.database = database
        findingsQuery = try database.prepare("SELECT packed FROM findings WHERE audit_seq = ? ORDER BY part")
        digestQuery = try database.prepare("SELECT digest FROM audits WHERE seq = ?")
        speechQuery = try database.prepare("SELECT speech FROM audits WHERE seq = ?")
        previousAuditQuery = try database.prepare(
            "SELECT build, last_seq, build_seq FROM screen_builds WHERE app = ? AND screen = ? AND build_seq < ? ORDER BY build_seq DESC LIMIT 1")
        lastAuditQuery = try database.prepare(
            "SELECT build, last_seq, build_seq FROM screen_builds WHERE app = ? AND screen = ? AND build_seq <= ? ORDER BY build_seq DESC LIMIT 1")
        seenBeforeQuery = try database.prepare(
            "SELECT 1 FROM seen WHERE app = ? AND screen = ? AND fingerprint = ? AND build_seq < ? LIMIT 1")
        nextSeenQuery = try database.prepare(
            "SELECT fingerprint, build_seq FROM seen WHERE app = ? AND screen = ? AND fingerprint > ? ORDER BY fingerprint, build_seq LIMIT 1")
        screensQuery = try database.prepare("SELECT screen, last_seq FROM screen_builds WHERE app = ? AND build = ? ORDER BY screen")
    }

    /// One finding as the index keeps it.
    public struct Finding: Sendable {
        public let fingerprint: String
        public let defect: String?
        public let rule: String
        public let severity: String
        public let path: String?
        public let message: String?
        /// The element's id, when it has one.
        public let element: String?
    }

    /// One screen's last audit in a build.
    public struct ScreenAudit: Sendable {
        public let screen: String
        public let seq: Int64
    }

    /// One build of an app: its name, the seq of its first audit (its place in the app's
    /// order) and when that audit was.
    public struct Build: Sendable, Equatable {
        public let name: String
        public let firstSeq: Int64
        public let firstTime: String?
    }

    private func readBuild(_ row: SQLiteDatabase.Statement) -> Build {
        Build(name: row.text(0) ?? "", firstSeq: row.integer(1), firstTime: row.text(2))
    }

    /// The app's builds, oldest first (by their first audit).
    public func builds(app: String) throws(SQLiteError) -> [Build] {
        let query = try database.prepare("SELECT build, first_seq, first_time FROM builds WHERE app = ? ORDER BY first_seq")
        try query.bind([.text(app)])
        var builds: [Build] = []
        while try query.step() { builds.append(readBuild(query)) }
        return builds
    }

    /// The build named `name` of the app, if it was audited.
    public func build(app: String, named name: String) throws(SQLiteError) -> Build? {
        try database.prepare("SELECT build, first_seq, first_time FROM builds WHERE app = ? AND build = ?")
            .firstRow([.text(app), .text(name)], readBuild)
    }

    /// The app's latest build (first audited last), other than `excluding`.
    public func latestBuild(app: String, excluding: String? = nil) throws(SQLiteError) -> Build? {
        try database.prepare(
            "SELECT build, first_seq, first_time FROM builds WHERE app = ? AND build IS NOT ? ORDER BY first_seq DESC LIMIT 1"
        ).firstRow([.text(app), .optional(excluding)], readBuild)
    }

    /// The build first audited just before `build`.
    public func previousBuild(app: String, before build: Build) throws(SQLiteError) -> Build? {
        try database.prepare(
            "SELECT build, first_seq, first_time FROM builds WHERE app = ? AND first_seq < ? ORDER BY first_seq DESC LIMIT 1"
        ).firstRow([.text(app), .integer(build.firstSeq)], readBuild)
    }

    /// The apps with a build audited, by name.
    public func apps() throws(SQLiteError) -> [String] {
        let query = try database.prepare("SELECT DISTINCT app FROM builds ORDER BY app")
        var apps: [String] = []
        while try query.step() { apps.append(query.text(0) ?? "") }
        return apps
    }

    /// The last audit of each screen audited in `build` (of `screen` only, when given).
    public func screens(app: String, build: String, screen: String? = nil) throws(SQLiteError) -> [ScreenAudit] {
        try screensQuery.bind([.text(app), .text(build)])
        var audits: [ScreenAudit] = []
        while try screensQuery.step() {
            let name = screensQuery.text(0) ?? ""
            if screen == nil || screen == name { audits.append(ScreenAudit(screen: name, seq: screensQuery.integer(1))) }
        }
        return audits
    }

    /// Every screen the app has had audited.
    public func screens(app: String) throws(SQLiteError) -> [String] {
        let query = try database.prepare("SELECT DISTINCT screen FROM screen_builds WHERE app = ? ORDER BY screen")
        try query.bind([.text(app)])
        var screens: [String] = []
        while try query.step() { screens.append(query.text(0) ?? "") }
        return screens
    }

    /// The screen's last audit in the latest build before `build` in which it was audited.
    public func previousAudit(app: String, screen: String, before build: Build) throws(SQLiteError) -> (build: String, seq: Int64, buildSeq: Int64)? {
        try previousAuditQuery.firstRow([.text(app), .text(screen), .integer(build.firstSeq)]) { ($0.text(0) ?? "", $0.integer(1), $0.integer(2)) }
    }

    /// The screen's last audit in `build` or the latest build before it in which it was.
    public func lastAudit(app: String, screen: String, atOrBefore build: Build) throws(SQLiteError) -> (build: String, seq: Int64, buildSeq: Int64)? {
        try lastAuditQuery.firstRow([.text(app), .text(screen), .integer(build.firstSeq)]) { ($0.text(0) ?? "", $0.integer(1), $0.integer(2)) }
    }

    /// Whether the screen showed `fingerprint` in a build before the one first audited at
    /// `buildSeq`.
    public func seen(app: String, screen: String, fingerprint: String, before buildSeq: Int64) throws(SQLiteError) -> Bool {
        try seenBeforeQuery.firstRow([.text(app), .text(screen), .text(fingerprint), .integer(buildSeq)]) { _ in true } ?? false
    }

    /// The fingerprints the screen showed in builds before the one first audited at
    /// `buildSeq`: one lookup per fingerprint the screen ever showed (each found by the
    /// index, from the one before it), not one per build.
    public func fingerprintsSeen(app: String, screen: String, before buildSeq: Int64) throws(SQLiteError) -> Set<String> {
        var found = Set<String>()
        var after = ""
        while let (fingerprint, first) = try nextSeenQuery.firstRow([.text(app), .text(screen), .text(after)], { ($0.text(0) ?? "", $0.integer(1)) }) {
            if first < buildSeq { found.insert(fingerprint) }
            after = fingerprint
        }
        return found
    }

    /// The findings of the audit at `seq`, from its parts in order.
    public func findings(audit seq: Int64) throws(SQLiteError) -> [Finding] {
        try findingsQuery.rows([.integer(seq)]) { IndexPacking.unpack($0.text(0) ?? "") }.flatMap { $0 }
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
