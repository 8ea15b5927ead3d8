import AuditCore

/// The journal records of one audit (SPEC §4): one `audit` record, then one `finding`
/// record per finding, each carrying app, build and screen.
public enum JournalRecords {
    public static func records(for report: AuditReport) -> [[(String, JSON)]] {
        let identity: [(String, JSON)] = [
            ("audit", .string(report.id)), ("app", .optional(report.app)), ("build", .optional(report.build)),
            ("screen", .optional(report.screen)),
        ]
        var records: [[(String, JSON)]] = []
        records.reserveCapacity(report.findings.count + 1)
        records.append([("type", .string("audit"))] + identity + [
            ("platform", .string(report.platform.rawValue)), ("dialect", .string(report.dialect.rawValue)),
            ("ruleset", .string(report.ruleSet)), ("elements", .int(report.elementCount)),
            ("duration_ms", .number((report.durationMilliseconds * 1000).rounded() / 1000)),
            ("summary", report.json["summary"] ?? .null),
        ])
        for finding in report.findings {
            guard case .object(let fields) = AuditReport.json(of: finding) else { continue }
            records.append([("type", .string("finding"))] + identity + fields)
        }
        return records
    }
}
