import AuditCore

/// The journal records of one audit (SPEC §4): one `audit` record, then one `finding`
/// record per finding, each carrying app, build and screen. Finding records reuse the
/// bytes of the rendered report.
public struct AuditJournalEntry: JournalEntry {
    /// `"audit":…,"app":…,"build":…,"screen":…`, shared by every record.
    let identity: [UInt8]
    /// The `audit` record's own fields after the identity.
    let auditFields: [UInt8]
    let report: RenderedReport

    public init(_ report: AuditReport, rendered: RenderedReport) {
        identity = Array(JSON.fieldBytes([
            ("audit", .string(report.id)), ("app", .optional(report.app)), ("build", .optional(report.build)),
            ("screen", .optional(report.screen)),
        ]))
        var audit = Array(JSON.fieldBytes([
            ("platform", .string(report.platform.rawValue)), ("dialect", .string(report.dialect.rawValue)),
            ("ruleset", .string(report.ruleSet)), ("elements", .int(report.elementCount)),
            ("duration_ms", .number(report.roundedDuration)),
        ]))
        audit.append(contentsOf: #","summary":"#.utf8)
        audit.append(contentsOf: rendered.bytes[rendered.summary])
        self.auditFields = audit
        self.report = rendered
    }

    public var recordCount: Int { report.findingFields.count + 1 }

    public var estimatedBytes: Int { auditFields.count + report.bytes.count + recordCount * (identity.count + 24) }

    public func writeRecord(_ index: Int, to out: inout [UInt8]) {
        out.append(contentsOf: index == 0 ? #""type":"audit","#.utf8 : #""type":"finding","#.utf8)
        out.append(contentsOf: identity)
        out.append(UInt8(ascii: ","))
        if index == 0 {
            out.append(contentsOf: auditFields)
        } else {
            out.append(contentsOf: report.fields(ofFinding: index - 1))
        }
    }
}
