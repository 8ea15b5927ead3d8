import AuditCore

/// How a finding of a build's screen compares with that screen's last earlier audit
/// (docs/trends.md).
public enum TrendClass: String, CaseIterable, Sendable {
    /// Not in the last earlier audit, nor in any before it.
    case new
    /// In the last earlier audit, not now (counted with the severity it had).
    case fixed
    /// In the last earlier audit and now.
    case persistent
    /// Not in the last earlier audit, but in an audit before it: fixed, then back.
    case regressed
    /// The screen's first audit: its findings are not "new".
    case first
}

/// An app's history, build by build, read from the trend index: for each build and each
/// screen audited in it (its last audit in that build), the findings compared by
/// fingerprint with that screen's last audit in an earlier build. Screens audited in the
/// previous build and not in this one are `not-audited`, never counted as fixed.
public enum TrendHistory {
    /// What a request asks: the app, and optionally one screen and one build.
    public struct Query: Sendable {
        public var app: String
        public var screen: String?
        public var build: String?
    }

    /// Why a trend cannot be answered.
    public enum Problem: Error {
        case unknownApp(String)
        case unknownBuild(String)
    }

    /// The trend as `GET /v1/trends` answers it.
    public static func json(_ query: Query, store: TrendStore) throws(SQLiteError) -> Result<JSON, Problem> {
        let builds = try store.builds(app: query.app)
        guard !builds.isEmpty else { return .failure(.unknownApp(query.app)) }
        if let build = query.build, !builds.contains(build) { return .failure(.unknownBuild(build)) }
        let audits = try store.screenAudits(app: query.app, screen: query.screen)
        var last: [String: [String: TrendStore.Finding]] = [:]
        var ever: [String: Set<String>] = [:]
        var lastDigest: [String: String] = [:]
        var lastAudit: [String: Int64] = [:]
        var previousScreens: [String] = []
        var entries: [JSON] = []
        for build in builds {
            let screens = audits[build] ?? []
            var counts: [TrendClass: Int] = [:]
            var bySeverity: [String: [TrendClass: Int]] = [:]
            var listed: [JSON] = []
            var transcriptChanged: [String] = []
            var transcriptDiffs: [JSON] = []
            let detailed = build == query.build
            func count(_ kind: TrendClass, _ finding: TrendStore.Finding, screen: String) {
                counts[kind, default: 0] += 1
                bySeverity[finding.severity, default: [:]][kind, default: 0] += 1
                if detailed {
                    listed.append(
                        .object([
                            ("class", .string(kind.rawValue)), ("screen", .string(screen)), ("rule", .string(finding.rule)),
                            ("severity", .string(finding.severity)), ("fingerprint", .string(finding.fingerprint)),
                            ("defect", .optional(finding.defect)), ("path", .optional(finding.path)), ("message", .optional(finding.message)),
                        ]))
                }
            }
            for audit in screens {
                let now = try store.findings(audit: audit.seq)
                var current: [String: TrendStore.Finding] = [:]
                for finding in now { current[finding.fingerprint] = finding }
                if let before = last[audit.screen] {
                    let seen = ever[audit.screen] ?? []
                    for finding in now {
                        count(before[finding.fingerprint] != nil ? .persistent : seen.contains(finding.fingerprint) ? .regressed : .new, finding, screen: audit.screen)
                    }
                    for finding in before.values.sorted(by: { $0.fingerprint < $1.fingerprint }) where current[finding.fingerprint] == nil {
                        count(.fixed, finding, screen: audit.screen)
                    }
                } else {
                    for finding in now { count(.first, finding, screen: audit.screen) }
                }
                let digest = try store.digest(audit: audit.seq)
                if let digest, let earlier = lastDigest[audit.screen], earlier != digest {
                    transcriptChanged.append(audit.screen)
                    if detailed, let previous = lastAudit[audit.screen], let before = try store.speech(audit: previous),
                        let after = try store.speech(audit: audit.seq)
                    {
                        let change = SpeechDiff(before: before, after: after)
                        transcriptDiffs.append(
                            .object([
                                ("screen", .string(audit.screen)), ("before", .string(earlier)), ("after", .string(digest)),
                                ("removed", .array(change.removed.map(JSON.string))), ("added", .array(change.added.map(JSON.string))),
                            ]))
                    }
                }
                if let digest {
                    lastDigest[audit.screen] = digest
                    lastAudit[audit.screen] = audit.seq
                }
                last[audit.screen] = current
                ever[audit.screen, default: []].formUnion(current.keys)
            }
            let names = screens.map(\.screen)
            let notAudited = previousScreens.filter { !names.contains($0) }
            previousScreens = names
            guard query.build == nil || detailed else { continue }
            var entry: [(String, JSON)] = [("build", .string(build)), ("screens", .int(screens.count))]
            for kind in TrendClass.allCases { entry.append((kind.rawValue, .int(counts[kind] ?? 0))) }
            entry.append(("not-audited", .array(notAudited.map(JSON.string))))
            entry.append(
                (
                    "by-severity",
                    .object(
                        bySeverity.keys.sorted(by: severityOrder).map { severity in
                            (severity, .object(TrendClass.allCases.map { ($0.rawValue, .int(bySeverity[severity]?[$0] ?? 0)) }))
                        })
                ))
            entry.append(("transcript-changed", .array(transcriptChanged.map(JSON.string))))
            if detailed {
                entry.append(("findings", .array(listed)))
                entry.append(("transcript-diff", .array(transcriptDiffs)))
            }
            entries.append(.object(entry))
        }
        var answer: [(String, JSON)] = [("app", .string(query.app))]
        if let screen = query.screen { answer.append(("screen", .string(screen))) }
        answer.append(("builds", .array(entries)))
        return .success(.object(answer))
    }

    /// Errors first, then warnings, notices, anything else by name.
    static func severityOrder(_ a: String, _ b: String) -> Bool {
        let rank = ["error": 0, "warning": 1, "notice": 2]
        return (rank[a] ?? 3, a) < (rank[b] ?? 3, b)
    }

    /// The baseline `auditctl audit --since-build` compares with: for each screen of the
    /// app, its last audit in `build` or a build before it, as a report (`snapshot`,
    /// `fingerprint_version`, `findings`), with `earlier`: the fingerprints seen in the
    /// screen's audits before that one and not in it (a finding back from those is
    /// regressed). `build` "latest" is the app's latest build other than `excluding`.
    public static func baseline(app: String, build: String, excluding: String?, store: TrendStore) throws(SQLiteError) -> Result<JSON, Problem> {
        let builds = try store.builds(app: app)
        guard !builds.isEmpty else { return .failure(.unknownApp(app)) }
        let chosen = build == "latest" ? builds.last(where: { $0 != excluding }) : build
        guard let chosen, let end = builds.firstIndex(of: chosen) else { return .failure(.unknownBuild(build)) }
        let audits = try store.screenAudits(app: app, screen: nil)
        var lastAudit: [String: (build: String, seq: Int64)] = [:]
        var earlierAudits: [String: [Int64]] = [:]
        for build in builds[...end] {
            for audit in audits[build] ?? [] {
                if let previous = lastAudit[audit.screen] { earlierAudits[audit.screen, default: []].append(previous.seq) }
                lastAudit[audit.screen] = (build, audit.seq)
            }
        }
        var reports: [JSON] = []
        for screen in lastAudit.keys.sorted() {
            guard let audit = lastAudit[screen] else { continue }
            let findings = try store.findings(audit: audit.seq)
            let present = Set(findings.map(\.fingerprint))
            var earlier = Set<String>()
            for seq in earlierAudits[screen] ?? [] {
                for finding in try store.findings(audit: seq) where !present.contains(finding.fingerprint) { earlier.insert(finding.fingerprint) }
            }
            reports.append(
                .object([
                    ("snapshot", .object([("app", .string(app)), ("build", .string(audit.build)), ("screen", .string(screen))])),
                    ("fingerprint_version", .int(Fingerprint.version)),
                    (
                        "findings",
                        .array(
                            findings.map { finding in
                                .object([
                                    ("rule", .string(finding.rule)), ("severity", .string(finding.severity)),
                                    ("message", .string(finding.message ?? "")), ("path", .optional(finding.path)),
                                    ("fingerprint", .string(finding.fingerprint)), ("defect", .optional(finding.defect)),
                                ])
                            })
                    ),
                    ("earlier", .array(earlier.sorted().map(JSON.string))),
                ]))
        }
        return .success(.object([("app", .string(app)), ("build", .string(chosen)), ("reports", .array(reports))]))
    }
}
