import Foundation
import XCTest

/// docs/EXTENDING.md, followed to the letter in a scratch copy of the package: each block
/// marked `file=` written where it says, each line marked `add-to=` added to that registry,
/// `auditd` and `auditctl` built there, and the guide's capture (in the guide's new dialect)
/// audited with the guide's new format through the daemon — the output must be the guide's
/// `expected` block, the new rule's finding. A step the guide leaves out fails the build.
final class ExtendingGuideTests: XCTestCase {
    /// Where each registry's list ends: the added line goes before its closing bracket.
    static let registries: [String: (file: String, opening: String)] = [
        "BuiltInRules.all": ("Sources/AuditRules/Registry/BuiltInRules.swift", "public static let all: [any Rule.Type] = ["),
        "SnapshotDialects.all": ("Sources/AuditParsing/SnapshotDialects.swift", "static let all: [any SnapshotDialect.Type] = ["),
        "ReportFormats.all": ("Sources/AuditFormats/ReportFormat.swift", "package static let all: [any ReportFormat.Type] = ["),
    ]

    struct Block {
        var info: [String]
        var text: String
        func value(_ key: String) -> String? {
            info.first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
        }
    }

    static func blocks(of guide: String) -> [Block] {
        var blocks: [Block] = []
        var current: Block?
        for line in guide.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                if let block = current {
                    blocks.append(block)
                    current = nil
                } else {
                    current = Block(info: line.dropFirst(3).split(separator: " ").map(String.init), text: "")
                }
            } else if current != nil {
                current?.text += line + "\n"
            }
        }
        return blocks
    }

    func testTheGuidesRuleDialectAndFormatBuildAndAudit() throws {
        let root = DaemonHarness.packageRoot
        let guide = try String(contentsOf: root.appendingPathComponent("docs/EXTENDING.md"), encoding: .utf8)
        let blocks = Self.blocks(of: guide)
        let files = blocks.filter { $0.value("file") != nil }
        let additions = blocks.filter { $0.value("add-to") != nil }
        XCTAssertEqual(files.filter { $0.value("file")?.hasPrefix("Sources/") == true }.count, 3, "a rule, a dialect and a format")
        XCTAssertEqual(Set(additions.compactMap { $0.value("add-to") }), Set(Self.registries.keys))
        let expected = try XCTUnwrap(blocks.first { $0.info.contains("expected") }).text

        // The package without its build, its history or anything beside it.
        let scratch = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("extending-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: scratch) }
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        for item in try FileManager.default.contentsOfDirectory(atPath: root.path) where ![".build", ".git", ".swiftpm"].contains(item) {
            try FileManager.default.copyItem(at: root.appendingPathComponent(item), to: scratch.appendingPathComponent(item))
        }
        for block in files {
            let path = try XCTUnwrap(block.value("file"))
            XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.appendingPathComponent(path).path), "\(path) is the guide's, not the tree's")
            try block.text.write(to: scratch.appendingPathComponent(path), atomically: true, encoding: .utf8)
        }
        for block in additions {
            let (file, opening) = try XCTUnwrap(Self.registries[try XCTUnwrap(block.value("add-to"))])
            let url = scratch.appendingPathComponent(file)
            var source = try String(contentsOf: url, encoding: .utf8)
            let start = try XCTUnwrap(source.range(of: opening), "\(file) no longer declares \(opening)")
            let close = try XCTUnwrap(source.range(of: "\n    ]", range: start.upperBound..<source.endIndex), "the end of \(opening)")
            source.insert(contentsOf: "\n        " + block.text.trimmingCharacters(in: .whitespacesAndNewlines), at: close.lowerBound)
            try source.write(to: url, atomically: true, encoding: .utf8)
        }

        for product in ["auditctl", "auditd"] {
            let build = try DaemonHarness(binaries: scratch).run("swift", ["build", "--product", product], directory: scratch)
            XCTAssertEqual(build.status, 0, "swift build --product \(product) in the scratch copy:\n\(build.stdout.suffix(4000))\n\(build.stderr.suffix(2000))")
            if build.status != 0 { return }
        }
        let binaries = scratch.appendingPathComponent(".build/debug")
        let daemon = try DaemonHarness(binaries: binaries)
        try daemon.start(rules: [scratch.appendingPathComponent("Rules").path])
        let rules = try daemon.auditctl(["rules"])
        XCTAssertTrue(rules.stdout.contains("label.all-caps"), rules.stdout)
        let audit = try daemon.auditctl(["audit", "--format", "csv", "screen.xml"], directory: scratch)
        XCTAssertEqual(audit.status, 0, audit.stderr)
        XCTAssertEqual(audit.stdout, "file,line,column,severity,rule,message\n" + expected, audit.stderr)
        // The guide's worked example of a second syntax, in the tree: Flutter's semantics
        // dumps audited by the same build beside the guide's dialect, and the new rule
        // judging them too (a heading in capitals would be its finding; these have none).
        let flutter = try daemon.auditctl(["audit", "--format", "csv", "--fail-on", "error", "Tests/Fixtures/flutter"], directory: scratch)
        XCTAssertEqual(flutter.status, 1, flutter.stderr)
        XCTAssertTrue(
            flutter.stdout.contains("pr_164585_required_fields.semantics.txt\",16,10,error,label.missing,"), flutter.stdout)
    }
}
