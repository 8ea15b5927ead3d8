import AuditCore

/// The journal records of one audit (SPEC §4): one `audit` record, then one `finding`
/// record per finding, each carrying app, build and screen. Finding records are the
/// bytes of the rendered report, written from where they are.
public struct AuditJournalEntry: JournalEntry {
    /// `"type":"audit","audit":…,"app":…,"build":…,"screen":…,` and the same with
    /// `"type":"finding"`: the start of every record.
    let auditHead: [UInt8]
    let findingHead: [UInt8]
    /// The `audit` record's own fields after the identity.
    let auditFields: [UInt8]
    let report: RenderedReport

    public init(_ report: AuditReport, rendered: RenderedReport) {
        let identity = JSON.fieldBytes([
            ("audit", .string(report.id)), ("app", .optional(report.app)), ("build", .optional(report.build)),
            ("screen", .optional(report.screen)),
        ])
        auditHead = Array(#""type":"audit","#.utf8) + identity + [UInt8(ascii: ",")]
        findingHead = Array(#""type":"finding","#.utf8) + identity + [UInt8(ascii: ",")]
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

    /// The record as ``withRecordPieces(_:)`` gives it, joined.
    public func writeRecord(_ index: Int, to out: inout [UInt8]) {
        withRecordPieces { piece in
            let pieces = piece(index)
            out.append(contentsOf: pieces.head)
            out.append(contentsOf: pieces.body)
        }
    }

    public func withRecordPieces<Result>(_ body: ((Int) -> RecordPieces) -> Result) -> Result {
        auditHead.withUnsafeBytes { auditHead in
            findingHead.withUnsafeBytes { findingHead in
                auditFields.withUnsafeBytes { auditFields in
                    report.bytes.withUnsafeBytes { reportBytes in
                        body { index in
                            index == 0
                                ? RecordPieces(head: auditHead, body: auditFields)
                                : RecordPieces(head: findingHead,
                                               body: UnsafeRawBufferPointer(rebasing: reportBytes[report.findingFields[index - 1]]))
                        }
                    }
                }
            }
        }
    }
}
