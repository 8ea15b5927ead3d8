import AuditCore
import AuditTransport

/// The daemon's counters, gauges and latency histogram, rendered in the Prometheus text
/// exposition format for `GET /metrics`.
package final class Metrics: @unchecked Sendable {
    /// Upper bounds of the audit-latency buckets, in seconds.
    package static let buckets: [Double] = [0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private let lock = Lock()
    private var requests: [String: Int] = [:]  // "route|status"
    private var audits: [Int: Int] = [:]  // status → count
    private var findings: [String: Int] = [:]  // "rule|severity"
    private var latencyCounts = [Int](repeating: 0, count: Metrics.buckets.count + 1)
    private var latencySum = 0.0
    private var latencyCount = 0
    private var phaseSeconds: [String: Double] = [:]
    private var latestBuilds = LatestBuilds()
    private var refused = 0
    private var forbidden = 0
    private var timeouts = 0
    private var followersDropped = 0
    private var budgetsExceeded = 0
    private var abandoned = 0
    private var spilledBytes = 0
    package private(set) var openConnections = 0

    /// The phases an answered audit's time is split into, in order (the service's stages):
    /// each has its series from the start, at zero.
    let phases: [String]

    package init(phases: [String] = []) { self.phases = phases }

    package func requestFinished(route: String, status: Int) {
        lock.withLock { requests["\(route)|\(status)", default: 0] += 1 }
    }

    /// Findings of one audit counted by `rule|severity`, the key of `auditd_findings_total`.
    /// Runs on the worker before the answer is sent, once per finding: tallied in a short
    /// list (a report has a few dozen rule and severity pairs), keys built once per pair.
    package static func findingCounts(_ report: AuditReport) -> [String: Int] {
        var tally: [(rule: String, severity: Severity, count: Int)] = []
        var last = -1
        for index in report.findings.indices {
            let rule = report.findings.ruleID(at: index)
            let severity = report.findings.severity(at: index)
            if last >= 0, tally[last].severity == severity, tally[last].rule == rule {
                tally[last].count += 1
                continue
            }
            let length = rule.utf8.count
            if let known = tally.firstIndex(where: { $0.severity == severity && $0.rule.utf8.count == length && $0.rule == rule }) {
                tally[known].count += 1
                last = known
            } else {
                last = tally.count
                tally.append((rule, severity, 1))
            }
        }
        var counts: [String: Int] = [:]
        for entry in tally { counts["\(entry.rule)|\(entry.severity.rawValue)", default: 0] += entry.count }
        return counts
    }

    package func auditFinished(status: Int, seconds: Double?, findingCounts: [String: Int] = [:]) {
        lock.withLock {
            audits[status, default: 0] += 1
            if let seconds {
                latencySum += seconds
                latencyCount += 1
                let bucket = Metrics.buckets.firstIndex { seconds <= $0 } ?? Metrics.buckets.count
                latencyCounts[bucket] += 1
            }
            findings.merge(findingCounts, uniquingKeysWith: +)
        }
    }

    /// Counts one audit toward its app's latest build (``LatestBuilds``).
    package func auditRecorded(app: String?, build: String?, screen: String?, findingCounts: [String: Int]) {
        var bySeverity: [Severity: Int] = [:]
        for (key, count) in findingCounts {
            guard let severity = key.split(separator: "|").last.flatMap({ Severity(rawValue: String($0)) }) else { continue }
            bySeverity[severity, default: 0] += count
        }
        lock.withLock { latestBuilds.record(app: app, build: build, screen: screen, counts: bySeverity) }
    }

    /// Adds the phases of one answered audit (its `Server-Timing`) to
    /// `auditd_audit_phase_seconds_total`: where the daemon's time goes, over time.
    func auditPhases(_ timing: ServerTiming) {
        lock.withLock {
            for phase in timing.phases { phaseSeconds[phase.name, default: 0] += phase.milliseconds / 1000 }
        }
    }

    package func connectionOpened() { lock.withLock { openConnections += 1 } }
    package func connectionClosed() { lock.withLock { openConnections -= 1 } }
    package func connectionRefused() { lock.withLock { refused += 1 } }
    package func peerForbidden() { lock.withLock { forbidden += 1 } }
    package func timedOut() { lock.withLock { timeouts += 1 } }
    package func followerDropped() { lock.withLock { followersDropped += 1 } }
    /// An audit answered with the rules its time budget left out reported incomplete.
    package func budgetExceeded() { lock.withLock { budgetsExceeded += 1 } }
    /// An audit stopped because its client went away.
    package func auditAbandoned() { lock.withLock { abandoned += 1 } }
    /// Bytes of an audit's written findings put in a scratch file while its snapshot was held.
    package func findingsSpilled(bytes: Int) { lock.withLock { spilledBytes += bytes } }

    /// The exposition text; gauges sampled by the caller are passed in.
    package func render(
        queueDepth: Int, inFlight: Int, workers: Int, journal: Journal?, ruleSets: Int, uptime: Double,
        memory: MemoryBudget? = nil, changes: LatestChanges? = nil
    ) -> String {
        lock.withLock {
            var out = ""
            func family(_ name: String, _ type: String, _ help: String) {
                out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
            }
            func escape(_ value: String) -> String {
                value.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"").replacingAll("\n", with: "\\n")
            }
            /// A family of one unlabelled sample.
            func single(_ name: String, _ type: String, _ help: String, _ value: String) {
                family(name, type, help)
                out += "\(name) \(value)\n"
            }
            /// A family counted by two labels, kept as `first|second` keys.
            func labelled(_ name: String, _ help: String, _ labels: (String, String), _ counts: [String: Int]) {
                family(name, "counter", help)
                for key in counts.keys.sorted() {
                    let parts = key.split(separator: "|", maxSplits: 1).map(String.init)
                    out += "\(name){\(labels.0)=\"\(escape(parts[0]))\",\(labels.1)=\"\(parts.count > 1 ? parts[1] : "")\"} \(counts[key] ?? 0)\n"
                }
            }
            family("auditd_build_info", "gauge", "Version of the running daemon.")
            out += "auditd_build_info{version=\"\(AuditCoreVersion.string)\"} 1\n"
            single("auditd_uptime_seconds", "gauge", "Seconds since the daemon started.", format(uptime))
            family("auditd_audits_total", "counter", "Audit requests by HTTP status.")
            for status in audits.keys.sorted() { out += "auditd_audits_total{status=\"\(status)\"} \(audits[status] ?? 0)\n" }
            labelled("auditd_http_requests_total", "HTTP requests by route and status.", ("route", "status"), requests)
            labelled("auditd_findings_total", "Findings reported, by rule and severity.", ("rule", "severity"), findings)
            family("auditd_audit_duration_seconds", "histogram", "Time to parse and audit one snapshot.")
            var cumulative = 0
            for (index, bound) in Metrics.buckets.enumerated() {
                cumulative += latencyCounts[index]
                out += "auditd_audit_duration_seconds_bucket{le=\"\(format(bound))\"} \(cumulative)\n"
            }
            cumulative += latencyCounts[Metrics.buckets.count]
            out += "auditd_audit_duration_seconds_bucket{le=\"+Inf\"} \(cumulative)\n"
            out += "auditd_audit_duration_seconds_sum \(format(latencySum))\nauditd_audit_duration_seconds_count \(latencyCount)\n"
            family(
                "auditd_audit_phase_seconds_total", "counter",
                "Time answered audits spent in each phase (\(phases.joined(separator: ", "))), as in their Server-Timing header.")
            for phase in phases {
                out += "auditd_audit_phase_seconds_total{phase=\"\(phase)\"} \(format(phaseSeconds[phase] ?? 0))\n"
            }
            family(
                "auditd_app_findings", "gauge",
                "Findings of each app's latest build by severity: the last audit of each of its screens (at most 64 apps; no screen labels).")
            let latest = latestBuilds.totals
            func labels(_ entry: (app: String, build: String, screens: Int, counts: [Severity: Int])) -> String {
                "app=\"\(escape(entry.app))\",build=\"\(escape(entry.build))\""
            }
            for entry in latest {
                for severity in [Severity.error, .warning, .notice] {
                    out += "auditd_app_findings{\(labels(entry)),severity=\"\(severity.rawValue)\"} \(entry.counts[severity] ?? 0)\n"
                }
            }
            family("auditd_app_screens", "gauge", "Screens audited in each app's latest build.")
            for entry in latest { out += "auditd_app_screens{\(labels(entry))} \(entry.screens)\n" }
            if let changes {
                family(
                    "auditd_app_changes", "gauge",
                    "Findings each app's latest build made new, fixed or regressed against its screens' last earlier audits, by severity (the trend index; at most 64 apps).")
                // The apps auditd_app_findings follows, and no other: one set of labels for
                // every per-app family.
                for (app, entry) in changes.all where latestBuilds.apps[app] != nil {
                    for severity in [Severity.error, .warning, .notice] {
                        for kind in LatestChanges.classes {
                            let value = entry.counts[severity.rawValue]?[kind.rawValue] ?? 0
                            out +=
                                "auditd_app_changes{app=\"\(escape(app))\",build=\"\(escape(entry.build))\",severity=\"\(severity.rawValue)\",change=\"\(kind.rawValue)\"} \(value)\n"
                        }
                    }
                }
            }
            var scalars: [(String, String, String, String)] = [
                ("auditd_queue_depth", "gauge", "Audits waiting for a worker.", String(queueDepth)),
                ("auditd_audits_in_flight", "gauge", "Audits running now.", String(inFlight)),
                ("auditd_workers", "gauge", "Size of the audit worker pool.", String(workers)),
                ("auditd_open_connections", "gauge", "Client connections open now.", String(openConnections)),
                ("auditd_connections_refused_total", "counter", "Connections refused over --max-connections.", String(refused)),
                ("auditd_forbidden_total", "counter", "Requests refused by peer credentials.", String(forbidden)),
                ("auditd_timeouts_total", "counter", "Connections cut off by the read or write timeout.", String(timeouts)),
                ("auditd_followers_dropped_total", "counter", "Follow streams ended because the client fell too far behind.", String(followersDropped)),
                ("auditd_audit_budget_exceeded_total", "counter", "Audits whose time budget ran out (rules reported incomplete).", String(budgetsExceeded)),
                ("auditd_audits_abandoned_total", "counter", "Audits stopped because their client went away.", String(abandoned)),
                ("auditd_findings_spilled_bytes_total", "counter", "Bytes of written findings spilled to disk while their snapshot was held.", String(spilledBytes)),
                ("auditd_rulesets", "gauge", "Rule sets loaded.", String(ruleSets)),
                ("auditd_app_audits_left_out_total", "counter", "Audits of apps past the 64 auditd_app_findings follows.", String(latestBuilds.appsLeftOut)),
            ]
            if let memory {
                scalars += [
                    ("auditd_memory_reserved_bytes", "gauge", "Bytes of request bodies, decoded screenshots and unsent answers held now (--memory-limit).", String(memory.inUse)),
                    ("auditd_memory_limit_bytes", "gauge", "The --memory-limit.", String(memory.limit)),
                    ("auditd_memory_refusals_total", "counter", "Requests refused with 503 memory-exhausted.", String(memory.refused)),
                ]
            }
            if let journal {
                let counters = journal.counters
                scalars += [
                    ("auditd_journal_seq", "gauge", "Last seq written to the journal.", String(journal.lastSeq)),
                    ("auditd_journal_records_total", "counter", "Records written to the journal.", String(counters.records)),
                    ("auditd_journal_flushes_total", "counter", "Group commits (write + fdatasync).", String(counters.flushes)),
                    ("auditd_journal_failures_total", "counter", "Failed journal writes (answered 507).", String(counters.failures)),
                ]
            }
            for (name, type, help, value) in scalars { single(name, type, help, value) }
            return out
        }
    }

    private func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
