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
///
/// Each build is computed from what it needs alone — its screens' audits, each screen's
/// audit in the build before, and whether a fingerprint was seen in a build before that —
/// all looked up by key, so the trend of one build (`build=`, `build=latest`) costs what
/// that build's screens hold whatever the history's length.
public enum TrendHistory {
    /// What a request asks: the app, and optionally one screen and one build (`latest`:
    /// the app's latest build).
    public struct Query: Sendable {
        public var app: String
        public var screen: String?
        public var build: String?

        package init(app: String, screen: String? = nil, build: String? = nil) {
            self.app = app
            self.screen = screen
            self.build = build
        }
    }

    /// Why a trend cannot be answered.
    public enum Problem: Error {
        case unknownApp(String)
        case unknownBuild(String)

        /// What went wrong, as the daemon and auditctl both say it.
        package var message: String {
            switch self {
            case .unknownApp(let app): "no build of app \"\(app)\" has been audited"
            case .unknownBuild(let build): "no audit of build \"\(build)\" for this app"
            }
        }

        /// How to fix it.
        package var hint: String {
            switch self {
            case .unknownApp: "audits name their build with build= (or --build)"
            case .unknownBuild: "GET /v1/trends?app=A (auditctl trend --app A) lists its builds"
            }
        }
    }

    /// One build of an app's trend: what its screens' findings are against each screen's
    /// last earlier audit. Computed by ``trend(of:app:screen:detailed:store:)``, rendered
    /// late by ``json(_:)``; the metrics read the counts as they are.
    package struct BuildTrend {
        package var build: String
        /// When the build's first audit was (the journal's time, RFC 3339).
        var firstAudited: String?
        var screens: Int
        var counts: [TrendClass: Int] = [:]
        /// Severity → class → count.
        package var bySeverity: [String: [TrendClass: Int]] = [:]
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
        if let name = query.build {
            let build = name == "latest" ? try store.latestBuild(app: query.app) : try store.build(app: query.app, named: name)
            guard let build else {
                let known = try store.latestBuild(app: query.app) != nil
                return .failure(known ? .unknownBuild(name) : .unknownApp(query.app))
            }
            return .success([try trend(of: build, app: query.app, screen: query.screen, detailed: true, store: store)])
        }
        let builds = try store.builds(app: query.app)
        guard !builds.isEmpty else { return .failure(.unknownApp(query.app)) }
        var trends: [BuildTrend] = []
        for build in builds { trends.append(try trend(of: build, app: query.app, screen: query.screen, detailed: false, store: store)) }
        return .success(trends)
    }

    /// One build's trend, from its screens' audits, each screen's audit in the build
    /// before it, and the screen's fingerprints seen earlier (regressed).
    package static func trend(of build: TrendStore.Build, app: String, screen: String?, detailed: Bool, store: TrendStore) throws(SQLiteError) -> BuildTrend {
        let screens = try store.screens(app: app, build: build.name, screen: screen)
        var trend = BuildTrend(build: build.name, firstAudited: build.firstTime, screens: screens.count)
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
            guard let previous = try store.previousAudit(app: app, screen: audit.screen, before: build) else {
                for finding in now { count(.first, finding, screen: audit.screen) }
                continue
            }
            let before = try store.findings(audit: previous.seq)
            var earlier: [String: TrendStore.Finding] = [:]
            for finding in before { earlier[finding.fingerprint] = finding }
            // Regressed: not in the screen's previous audit, but in a build before that one.
            for finding in now {
                if earlier[finding.fingerprint] != nil {
                    count(.persistent, finding, screen: audit.screen)
                } else if try store.seen(app: app, screen: audit.screen, fingerprint: finding.fingerprint, before: previous.buildSeq) {
                    count(.regressed, finding, screen: audit.screen)
                } else {
                    count(.new, finding, screen: audit.screen)
                }
            }
            for finding in before.sorted(by: { $0.fingerprint < $1.fingerprint }) where current[finding.fingerprint] == nil {
                count(.fixed, finding, screen: audit.screen)
            }
            if let digest = try store.digest(audit: audit.seq), let was = try store.digest(audit: previous.seq), was != digest {
                trend.transcriptChanged.append(audit.screen)
                if detailed, let spokenBefore = try store.speech(audit: previous.seq), let spokenAfter = try store.speech(audit: audit.seq) {
                    trend.transcriptDiffs.append((audit.screen, was, digest, SpeechDiff(before: spokenBefore, after: spokenAfter)))
                }
            }
        }
        // Screens of the build before that this one did not audit.
        if let previous = try store.previousBuild(app: app, before: build) {
            let names = Set(screens.map(\.screen))
            trend.notAudited = try store.screens(app: app, build: previous.name, screen: screen).map(\.screen).filter { !names.contains($0) }
        }
        return trend
    }

    /// Every app with its latest build's trend, for `GET /v1/trends` without `app=`.
    public static func apps(store: TrendStore) throws(SQLiteError) -> JSON {
        var apps: [JSON] = []
        for app in try store.apps() {
            guard let latest = try store.latestBuild(app: app) else { continue }
            let trend = try trend(of: latest, app: app, screen: nil, detailed: false, store: store)
            apps.append(.object([("app", .string(app))] + (json(trend).objectValue ?? [])))
        }
        return .object([("apps", .array(apps))])
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
        var entry: [(String, JSON)] = [
            ("build", .string(trend.build)), ("first_audited", .optional(trend.firstAudited)), ("screens", .int(trend.screens)),
        ]
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
                                ("class", .string(kind.rawValue)), ("screen", .string(screen)), ("rule", .string(BuiltInRules.canonicalID(finding.rule))),
                                ("severity", .string(finding.severity)), ("fingerprint", .string(finding.fingerprint)),
                                ("defect", .optional(finding.defect)), ("element", .optional(finding.element)), ("path", .optional(finding.path)),
                                ("message", .optional(finding.message)),
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
        guard try store.latestBuild(app: app) != nil else { return .failure(.unknownApp(app)) }
        let chosen = build == "latest" ? try store.latestBuild(app: app, excluding: excluding) : try store.build(app: app, named: build)
        guard let chosen else { return .failure(.unknownBuild(build)) }
        // Each screen's last audit in the chosen build or before it, found by key.
        var lastAudit: [String: (build: String, seq: Int64, buildSeq: Int64)] = [:]
        for screen in try store.screens(app: app) {
            if let audit = try store.lastAudit(app: app, screen: screen, atOrBefore: chosen) { lastAudit[screen] = audit }
        }
        var reports: [JSON] = []
        for screen in lastAudit.keys.sorted() {
            guard let audit = lastAudit[screen] else { continue }
            let findings = try store.findings(audit: audit.seq)
            let present = Set(findings.map(\.fingerprint))
            let earlier = try store.fingerprintsSeen(app: app, screen: screen, before: audit.buildSeq).subtracting(present)
            reports.append(
                .object([
                    ("snapshot", .object([("app", .string(app)), ("build", .string(audit.build)), ("screen", .string(screen))])),
                    ("fingerprint_version", .int(Fingerprint.version)),
                    (
                        "findings",
                        .array(
                            findings.map { finding in
                                .object([
                                    ("rule", .string(BuiltInRules.canonicalID(finding.rule))), ("severity", .string(finding.severity)),
                                    ("message", .string(finding.message ?? "")), ("path", .optional(finding.path)),
                                    ("fingerprint", .string(finding.fingerprint)), ("defect", .optional(finding.defect)),
                                ])
                            })
                    ),
                    ("earlier", .array(earlier.sorted().map(JSON.string))),
                ]))
        }
        return .success(.object([("app", .string(app)), ("build", .string(chosen.name)), ("reports", .array(reports))]))
    }
}
