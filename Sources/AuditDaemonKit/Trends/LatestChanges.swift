import AuditCore

/// Per app, what its latest build changed against the builds before it — new, fixed and
/// regressed findings by severity (``TrendHistory``) — for `auditd_app_changes` in
/// `/metrics`. Recomputed by the trend index for each app it indexes audits of; read under
/// a lock by the metrics. Labels stay few: at most ``LatestBuilds/maxApps`` apps, no
/// screens or elements.
public final class LatestChanges: @unchecked Sendable {
    public struct Entry: Sendable, Equatable {
        public var build: String
        /// Severity → class → count, for the classes that say what changed.
        public var counts: [String: [String: Int]]
    }

    /// The classes exported: what changed with the latest build.
    static let classes: [TrendClass] = [.new, .fixed, .regressed]

    private let lock = Lock()
    private var entries: [String: Entry] = [:]

    public init() {}

    public var all: [(app: String, entry: Entry)] {
        lock.withLock { entries.keys.sorted().compactMap { app in entries[app].map { (app, $0) } } }
    }

    func set(_ app: String, _ entry: Entry) {
        lock.withLock {
            guard entries[app] != nil || entries.count < LatestBuilds.maxApps else { return }
            entries[app] = entry
        }
    }

    func clear() { lock.withLock { entries = [:] } }
}
