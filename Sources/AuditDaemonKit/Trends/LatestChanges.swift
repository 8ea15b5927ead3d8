import AuditCore
import AuditTransport
import AuditHistory

/// Per app, what its latest build changed against the builds before it — new, fixed and
/// regressed findings by severity (``TrendHistory``) — for `auditd_app_changes` in
/// `/metrics`. Recomputed by the trend index for each app it indexes audits of; read under
/// a lock by the metrics, which give the apps `auditd_app_findings` follows
/// (``LatestBuilds``) and no other, so every per-app family has one set of labels. Holds
/// at most ``maxEntries`` apps, the least recently recomputed let go first.
package final class LatestChanges: @unchecked Sendable {
    package struct Entry: Sendable, Equatable {
        package var build: String
        /// Severity → class → count, for the classes that say what changed.
        package var counts: [String: [String: Int]]
    }

    /// The classes exported: what changed with the latest build.
    static let classes: [TrendClass] = [.new, .fixed, .regressed]

    private let lock = Lock()
    private var entries: [String: Entry] = [:]

    package init() {}

    package var all: [(app: String, entry: Entry)] {
        lock.withLock { entries.keys.sorted().compactMap { app in entries[app].map { (app, $0) } } }
    }

    /// The most apps kept: four times the apps the metrics follow (they take a quarter,
    /// ``LatestBuilds/maxApps``), so that the ones they follow are here while other apps
    /// come and go.
    static let maxEntries = 256

    private var order: [String] = []

    func set(_ app: String, _ entry: Entry) {
        lock.withLock {
            if entries[app] != nil {
                order.removeAll { $0 == app }
            } else if entries.count >= Self.maxEntries, let oldest = order.first {
                order.removeFirst()
                entries[oldest] = nil
            }
            order.append(app)
            entries[app] = entry
        }
    }

    func clear() {
        lock.withLock {
            entries = [:]
            order = []
        }
    }
}
