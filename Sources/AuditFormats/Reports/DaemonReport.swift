import AuditCore

/// A report as the daemon sends it (docs/API.md, "The report"), decoded once into typed
/// values for the formatters. A member the API promises that is missing or mistyped is an
/// ``AnswerDecodingError``; members auditctl does not know are kept in ``members`` and the
/// findings' ``ReportFinding/fields``, so `--format json` and `jsonl` print them as sent.
package struct DaemonReport {
    /// The snapshot's identity and how it was read.
    package struct SnapshotInfo {
        package var app: String?
        package var build: String?
        package var screen: String?
        package var platform: String
        package var dialect: String
        package var elements: Int
        /// How the snapshot was read (density, screenshot fit), when something had to be decided.
        package var notes: [String]

        /// `app · screen · build 12`, the parts that are known.
        package var title: String {
            [app, screen, build.map { "build \($0)" }].compactMap { $0 }.joined(separator: " · ")
        }
    }

    /// Counts by severity, of the incomplete checks and of the suppressed findings.
    package struct Summary {
        package var error: Int
        package var warning: Int
        package var notice: Int
        package var incomplete: Int
        package var suppressed: Int
        /// Distinct defects among the findings (nil from daemons before it).
        package var defects: Int?

        package func count(_ severity: Severity) -> Int {
            switch severity {
            case .error: error
            case .warning: warning
            case .notice: notice
            }
        }

        package init(_ fields: JSONFields) throws(AnswerDecodingError) {
            error = try fields.int("error")
            warning = try fields.int("warning")
            notice = try fields.int("notice")
            incomplete = try fields.int("incomplete")
            suppressed = try fields.optionalInt("suppressed") ?? 0
            defects = try fields.optionalInt("defects")
        }
    }

    package var audit: String
    package var snapshot: SnapshotInfo
    package var ruleSet: String
    package var durationMilliseconds: Double
    package var fingerprintVersion: Int
    package var summary: Summary
    package var findings: [ReportFinding]
    package var incomplete: [ReportIncomplete]
    /// The report's members as sent, in order.
    package var members: [(String, JSON)]

    package init(_ json: JSON) throws(AnswerDecodingError) {
        let fields = try JSONFields(json, at: "")
        audit = try fields.string("audit")
        let snapshot = try fields.object("snapshot")
        self.snapshot = SnapshotInfo(
            app: try snapshot.optionalString("app"), build: try snapshot.optionalString("build"),
            screen: try snapshot.optionalString("screen"), platform: try snapshot.string("platform"),
            dialect: try snapshot.string("dialect"), elements: try snapshot.int("elements"),
            notes: try snapshot.strings("notes", optional: true))
        ruleSet = try fields.string("ruleset")
        durationMilliseconds = try fields.double("duration_ms")
        fingerprintVersion = try fields.int("fingerprint_version")
        summary = try Summary(fields.object("summary"))
        findings = try fields.objects("findings", ReportFinding.init)
        incomplete = try fields.objects("incomplete", ReportIncomplete.init)
        members = fields.members
    }

    /// The `summary` of a compact report, read without parsing the rest (`--format json`
    /// prints reports of megabytes as they came and needs only the counts for `--fail-on`);
    /// `nil` when it cannot be found there.
    package static func summary(in body: [UInt8]) -> Summary? {
        let key = Array(#""summary":{"#.utf8)
        guard let start = body.firstRange(of: key)?.lowerBound,
            let close = body[start...].firstIndex(of: UInt8(ascii: "}")),
            let object = try? JSONParser.parse(Array(body[(start + key.count - 1)...close]))
        else { return nil }
        return try? Summary(JSONFields(object, at: "summary"))
    }
}
