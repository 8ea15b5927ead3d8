import AuditCore

/// Per app, its latest build's findings by severity, for `auditd_app_findings` (issue 30):
/// the last audit of each screen of that build counts. A build is an app's latest from its
/// first audit on (builds are compared by arrival, not by their names); an audit of an
/// earlier build does not bring it back. Labels stay few: one build per app, at most
/// ``maxApps`` apps (audits of further apps are counted in ``appsLeftOut``), no screens.
struct LatestBuilds {
    static let maxApps = LatestChanges.maxEntries / 4

    struct App {
        var build: String
        /// Severity counts of each screen's last audit in `build`.
        var screens: [String: [Severity: Int]] = [:]
        /// Builds this app has had before `build`: an audit of one of them is old news.
        var earlier: Set<String> = []
    }

    private(set) var apps: [String: App] = [:]
    private(set) var appsLeftOut = 0

    mutating func record(app: String?, build: String?, screen: String?, counts: [Severity: Int]) {
        guard let app, !app.isEmpty else { return }
        let build = build ?? ""
        let screen = screen ?? ""
        if var known = apps[app] {
            if known.build != build {
                guard !known.earlier.contains(build) else { return }
                // The earlier builds an app keeps in mind are bounded too.
                if known.earlier.count >= 256 { known.earlier.removeAll() }
                known.earlier.insert(known.build)
                known.build = build
                known.screens = [:]
            }
            known.screens[screen] = counts
            apps[app] = known
        } else {
            guard apps.count < Self.maxApps else {
                appsLeftOut += 1
                return
            }
            apps[app] = App(build: build, screens: [screen: counts])
        }
    }

    /// Each app's latest build and its findings by severity, summed over its screens.
    var totals: [(app: String, build: String, screens: Int, counts: [Severity: Int])] {
        apps.keys.sorted().compactMap { app in
            guard let entry = apps[app] else { return nil }
            var counts: [Severity: Int] = [:]
            for screen in entry.screens.values { counts.merge(screen, uniquingKeysWith: +) }
            return (app, entry.build, entry.screens.count, counts)
        }
    }
}
