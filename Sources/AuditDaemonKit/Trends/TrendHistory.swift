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

    /// One build of an app's trend: what its screens' findings are against each screen's
    /// last earlier audit. Computed by ``builds(_:store:)``, rendered late by ``json(_:store:)``;
    /// the metrics read the counts as they are.
    struct BuildTrend {
        var build: String
        var screens: Int
        var counts: [TrendClass: Int] = [:]
        /// Severity → class → count.
        var bySeverity: [String: [TrendClass: Int]] = [:]
        var notAudited: [String] = []
        var transcriptChanged: [String] = []
        /// The build asked for (`build=`): each finding with its class and screen, and how
        /// each changed transcript changed.
        var findings: [(kind: TrendClass, screen: String, finding: TrendStore.Finding)]?
        var transcriptDiffs: [(screen: String, before: String, after: String, change: SpeechDiff)] = []
    }

    /// The app's builds compared, in first-audit order — only the one asked for when the
    /// query names a build.
    static func builds(_ query: Query, store: TrendStore) throws(SQLiteError) -> Result<[BuildTrend], Problem> {
        let builds = try store.builds(app: query.app)
        guard !builds.isEmpty else { return .failure(.unknownApp(query.app)) }
        if let build = query.build, !builds.contains(build) { return .failure(.unknownBuild(build)) }
        let audits = try store.screenAudits(app: query.app, screen: query.screen)
        var last: [String: [String: TrendStore.Finding]] = [:]
        var ever: [String: Set<String>] = [:]
        var lastDigest: [String: String] = [:]
        var lastAudit: [String: Int64] = [:]
        var previousScreens: [String] = []
        var trends: [BuildTrend] = []
        for build in builds {
            let screens = audits[build] ?? []
            let detailed = build == query.build
            var trend = BuildTrend(build: build, screens: screens.count)
            if detailed { trend.findings = [] }
            func count(_ kind: TrendClass, _ finding: TrendStore.Finding, screen: String) {
                trend.counts[kind, default: 0] += 1
                trend.bySeverity[finding.severity, default: [:]][kind, default: 0] += 1
                if detailed { trend.findings?.append((kind, screen, finding)) }
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
                    trend.transcriptChanged.append(audit.screen)
                    if detailed, let previous = lastAudit[audit.screen], let before = try store.speech(audit: previous),
                        let after = try store.speech(audit: audit.seq)
                    {
                        trend.transcriptDiffs.append((audit.screen, earlier, digest, SpeechDiff(before: before, after: after)))
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
            trend.notAudited = previousScreens.filter { !names.contains($0) }
            previousScreens = names
            guard query.build == nil || detailed else { continue }
            trends.append(trend)
        }
        return .success(trends)
    }

    /// The trend as `GET /v1/trends` answers it.
    public static func json(_ query: Query, store: TrendStore) throws(SQLiteError) -> Result<JSON, Problem> {
        try builds(query, store: store).map { trends in
            var answer: [(String, JSON)] = [("app", .string(query.app))]
            if let screen = query.screen { answer.append(("screen", .string(screen))) }
            answer.append(("builds", .array(trends.map(json))))
            return .object(answer)
        }
    }

    /// One build's entry of the answer.
    static func json(_ trend: BuildTrend) -> JSON {
        var entry: [(String, JSON)] = [("build", .string(trend.build)), ("screens", .int(trend.screens))]
        for kind in TrendClass.allCases { entry.append((kind.rawValue, .int(trend.counts[kind] ?? 0))) }
        entry.append(("not-audited", .array(trend.notAudited.map(JSON.string))))
        entry.append(
            (
                "by-severity",
                .object(
                    trend.bySeverity.keys.sorted(by: severityOrder).map { severity in
                        (severity, .object(TrendClass.allCases.map { ($0.rawValue, .int(trend.bySeverity[severity]?[$0] ?? 0)) }))
                    })
            ))
        entry.append(("transcript-changed", .array(trend.transcriptChanged.map(JSON.string))))
        if let findings = trend.findings {
            entry.append(
                (
                    "findings",
                    .array(
                        findings.map { kind, screen, finding in
                            .object([
                                ("class", .string(kind.rawValue)), ("screen", .string(screen)), ("rule", .string(finding.rule)),
                                ("severity", .string(finding.severity)), ("fingerprint", .string(finding.fingerprint)),
                                ("defect", .optional(finding.defect)), ("path", .optional(finding.path)), ("message", .optional(finding.message)),
                            ])
                        })
                ))
            entry.append(
                (
                    "transcript-diff",
                    .array(
                        trend.transcriptDiffs.map { diff in
                            .object([
                                ("screen", .string(diff.screen)), ("before", .string(diff.before)), ("after", .string(diff.after)),
                                ("removed", .array(diff.change.removed.map(JSON.string))), ("added", .array(diff.change.added.map(JSON.string))),
                            ])
                        })
                ))
        }
        return .object(entry)
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
