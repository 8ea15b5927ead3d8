/// One output format of `auditctl audit --format`: its name, what it is for, what it needs
/// besides the reports, and how it writes them. Formats are registered in
/// ``ReportFormats/all``; the option's choices, its help text and the completions are
/// derived from that list, so a new format is one type and one line there.
protocol ReportFormat: Sendable {
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
    static func write(_ results: [SnapshotResult], context: FormatContext, to out: inout FileOutput)
}

extension ReportFormat {
    static var needsRuleSets: Bool { false }
    static var needsSources: Bool { false }
    static var printsReportsAsSent: Bool { false }

    static func write(_ results: [SnapshotResult], context: FormatContext, to out: inout FileOutput) {
        out.write(utf8: render(results, context: context))
    }
}

/// The formats, in the order help lists them; the first is the default.
enum ReportFormats {
    static let all: [any ReportFormat.Type] = [
        TextFormat.self, JSONFormat.self, JSONLinesFormat.self, SARIFFormat.self,
        JUnitFormat.self, HTMLFormat.self,
    ]

    static var names: [String] { all.map { $0.name } }

    static func named(_ name: String) -> (any ReportFormat.Type)? { all.first { $0.name == name } }

    /// `text (for people), json (…), …` for the option's help.
    static var help: String {
        all.map { "\($0.name) (\($0.summary))" }.joined(separator: ", ")
    }
}

enum TextFormat: ReportFormat {
    static let name = "text"
    static let summary = "compiler-style lines, the default"
    static func render(_ results: [SnapshotResult], context: FormatContext) -> String {
        TextFormatter.render(results, context: context)
    }
}

enum JSONFormat: ReportFormat {
    static let name = "json"
    static let summary = "the daemon's reports"
    static let printsReportsAsSent = true
    static func render(_ results: [SnapshotResult], context: FormatContext) -> String {
        var bytes: [UInt8] = []
        JSONFormatters.writeJSON(results, context: context, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
    /// Streamed in pieces: a report of megabytes is not held whole a second time.
    static func write(_ results: [SnapshotResult], context: FormatContext, to out: inout FileOutput) {
        JSONFormatters.writeJSON(results, context: context, to: &out)
    }
}

enum JSONLinesFormat: ReportFormat {
    static let name = "jsonl"
    static let summary = "one finding a line"
    static func render(_ results: [SnapshotResult], context: FormatContext) -> String {
        JSONFormatters.jsonl(results, context: context)
    }
}

enum SARIFFormat: ReportFormat {
    static let name = "sarif"
    static let summary = "SARIF 2.1.0 for code scanning"
    static let needsRuleSets = true
    static func render(_ results: [SnapshotResult], context: FormatContext) -> String {
        SARIFFormatter.render(results, context: context)
    }
}

enum JUnitFormat: ReportFormat {
    static let name = "junit"
    static let summary = "JUnit XML for CI test views"
    static let needsRuleSets = true
    static func render(_ results: [SnapshotResult], context: FormatContext) -> String {
        JUnitFormatter.render(results, context: context)
    }
}

enum HTMLFormat: ReportFormat {
    static let name = "html"
    static let summary = "a self-contained page"
    static let needsRuleSets = true
    static let needsSources = true
    static func render(_ results: [SnapshotResult], context: FormatContext) -> String {
        HTMLFormatter.render(results, context: context)
    }
}
