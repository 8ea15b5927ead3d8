import AuditCore
import Foundation
import XCTest

/// Images made for a test by `scripts/make-test-images.py` (Pillow, and its own PNG
/// encoder), in a fresh temporary directory, so every expected colour is known exactly.
enum TestImages {
    /// Writes each description (see the script) to `directory/name` and returns the paths.
    static func make(_ specs: [String: [String: Any]], file: StaticString = #filePath, line: UInt = #line) throws -> [String: URL] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("auditd-images-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var paths: [String: URL] = [:]
        var list: [[String: Any]] = []
        for (name, spec) in specs.sorted(by: { $0.key < $1.key }) {
            let url = directory.appendingPathComponent(name)
            paths[name] = url
            var spec = spec
            spec["out"] = url.path
            list.append(spec)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", TestSupport.packageRoot.appendingPathComponent("scripts/make-test-images.py").path]
        let input = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: list))
        try input.fileHandleForWriting.close()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            XCTFail(
                "make-test-images.py failed (is Pillow installed? scripts/setup installs it): \(String(decoding: message, as: UTF8.self))",
                file: file, line: line)
            throw CocoaError(.fileWriteUnknown)
        }
        return paths
    }

    static func bytes(_ url: URL?) throws -> [UInt8] {
        guard let url else { throw CocoaError(.fileNoSuchFile) }
        return [UInt8](try Data(contentsOf: url))
    }

    /// A uiautomator dump of a `width` × `height` px screen holding `nodes` (markup of
    /// `<node …/>` elements), read at `density` (1: pixels and dp agree).
    static func dump(width: Int, height: Int, density: Double = 1, _ nodes: String) throws -> Snapshot {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?><hierarchy rotation="0">\
            <node index="0" text="" class="android.widget.FrameLayout" package="com.example" bounds="[0,0][\(width),\(height)]" enabled="true">\
            \(nodes)</node></hierarchy>
            """
        return try SnapshotParser(options: .init(androidDensity: density)).parse(xml)
    }

    /// A text node at pixel bounds `box` (x, y, width, height).
    static func textNode(_ id: String, _ text: String, _ box: (Int, Int, Int, Int), clickable: Bool = false) -> String {
        #"<node index="0" text="\#(text)" resource-id="\#(id)" class="android.widget.TextView" package="com.example" clickable="\#(clickable)" enabled="true" bounds="[\#(box.0),\#(box.1)][\#(box.0 + box.2),\#(box.1 + box.3)]"/>"#
    }

    /// An image-button node without text (an icon) at pixel bounds `box`.
    static func iconNode(_ id: String, _ box: (Int, Int, Int, Int)) -> String {
        #"<node index="0" text="" resource-id="\#(id)" content-desc="Search" class="android.widget.ImageButton" package="com.example" clickable="true" enabled="true" bounds="[\#(box.0),\#(box.1)][\#(box.0 + box.2),\#(box.1 + box.3)]"/>"#
    }

    /// What the contrast rules said of a snapshot.
    struct Verdicts {
        struct Found {
            let ruleID: String
            let severity: Severity
            let elementID: String?
            let evidence: Evidence
        }

        struct Unjudged {
            let elementID: String?
            let element: Int?
            let reason: String
        }

        let findings: [Found]
        let incompletes: [Unjudged]
    }

    /// Audits `snapshot` with the contrast rules alone (or `rules`).
    static func contrast(_ snapshot: Snapshot) -> Verdicts { audit(snapshot, rules: [ContrastTextRule.self, ContrastNonTextRule.self]) }

    static func audit(_ snapshot: Snapshot, rules: [any Rule.Type]) -> Verdicts {
        let entries = rules.map { rule in RuleSet.Entry(rule: rule, severity: rule.description.severity, parameters: [:]) }
        let report = Auditor.audit(snapshot, ruleSet: RuleSet(name: "chosen", entries: entries))
        return Verdicts(
            findings: report.findings.map { .init(ruleID: $0.finding.ruleID, severity: $0.finding.severity, elementID: $0.elementID, evidence: $0.finding.evidence) },
            incompletes: report.incomplete.map { .init(elementID: $0.elementID, element: $0.incomplete.element, reason: $0.incomplete.reason) })
    }

    static func audit(_ snapshot: Snapshot) -> AuditReport {
        let rules: [any Rule.Type] = [ContrastTextRule.self, ContrastNonTextRule.self]
        let entries = rules.map { rule in RuleSet.Entry(rule: rule, severity: rule.description.severity, parameters: [:]) }
        return Auditor.audit(snapshot, ruleSet: RuleSet(name: "contrast", entries: entries))
    }
}
