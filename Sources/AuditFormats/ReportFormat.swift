import AuditCore

/// One output format of `auditctl audit --format`: its name, what it is for, what it needs
/// besides the reports, and how it writes them. Formats are registered in
/// ``ReportFormats/all``; the option's choices, its help text and the completions are
/// derived from that list, so a new format is one type and one line there.
package protocol ReportFormat: Sendable {
    /// The `--format` value.
    static var name: String { get }
    /// A few words for the help text.
    static var summary: String { get }
    /// Needs the rule sets' descriptions from the daemon (rules, help, WCAG links).
    static var needsRuleSets: Bool { get }
    /// Needs the submitted bytes (to draw every element).
    static var needsSources: Bool { get }
    /// Keeps the daemon's report bytes as they came (no parsed tree for large reports).
    static var printsReportsAsSent: Bool { get }
    /// The whole output as text; formats that stream write ``write(_:context:to:)`` instead.
    static func render(_ results: [SnapshotResult], context: FormatContext) -> String
    static func write<Sink: ByteSink>(_ results: [SnapshotResult], context: FormatContext, to out: inout Sink)
}

extension ReportFormat {
    package static var needsRuleSets: Bool { false }
    package static var needsSources: Bool { false }
    package static var printsReportsAsSent: Bool { false }

    package static func write<Sink: ByteSink>(_ results: [SnapshotResult], context: FormatContext, to out: inout Sink) {
        out.write(utf8: render(results, context: context))
    }
}

/// The formats, in the order help lists them; the first is the default.
package enum ReportFormats {
    package static let all: [any ReportFormat.Type] = [
        TextFormat.self,
        JSONFormat.self,
        JSONLinesFormat.self,
        SARIFFormat.self,
        JUnitFormat.self,
        HTMLFormat.self,
    ]

    package static var names: [String] { all.map { $0.name } }

    package static func named(_ name: String) -> (any ReportFormat.Type)? { all.first { $0.name == name } }

    /// `text (for people), json (…), …` for the option's help.
    package static var help: String {
        all.map { "\($0.name) (\($0.summary))" }.joined(separator: ", ")
    }
}

package enum TextFormat: ReportFormat {
    package static let name = "text"
    package static let summary = "compiler-style lines, the default"
    package static func render(_ results: [SnapshotResult], context: FormatContext) -> String {
        TextFormatter.render(results, context: context, quiet: context.quiet)
    }
}

package enum JSONFormat: ReportFormat {
    package static let name = "json"
    package static let summary = "the daemon's reports"
    package static let printsReportsAsSent = true
    package static func render(_ results: [SnapshotResult], context: FormatContext) -> String {
        var bytes: [UInt8] = []
        JSONFormatters.writeJSON(results, context: context, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
    /// Streamed in pieces: a report of megabytes is not held whole a second time.
    package static func write<Sink: ByteSink>(_ results: [SnapshotResult], context: FormatContext, to out: inout Sink) {
        JSONFormatters.writeJSON(results, context: context, to: &out)
    }
}

package enum JSONLinesFormat: ReportFormat {
    package static let name = "jsonl"
    package static let summary = "one finding a line"
    package static func render(_ results: [SnapshotResult], context: FormatContext) -> String {
        JSONFormatters.jsonl(results, context: context)
    }
}

package enum SARIFFormat: ReportFormat {
    package static let name = "sarif"
    package static let summary = "SARIF 2.1.0 for code scanning"
    package static let needsRuleSets = true
    package static func render(_ results: [SnapshotResult], context: FormatContext) -> String {
        SARIFFormatter.render(results, context: context)
    }
}

package enum JUnitFormat: ReportFormat {
    package static let name = "junit"
    package static let summary = "JUnit XML for CI test views"
    package static let needsRuleSets = true
    /// Elements are named as a person names them, from the snapshot read again.
    package static let needsSources = true
    package static func render(_ results: [SnapshotResult], context: FormatContext) -> String {
        JUnitFormatter.render(results, context: context)
    }
}

package enum HTMLFormat: ReportFormat {
    package static let name = "html"
    package static let summary = "a self-contained page"
    package static let needsRuleSets = true
    package static let needsSources = true
    package static func render(_ results: [SnapshotResult], context: FormatContext) -> String {
        HTMLFormatter.render(results, context: context)
    }
}
