import Foundation
import XCTest

/// The JSON Schemas of docs/schemas hold for what auditd really writes: reports of the
/// examples and of every real dump and screenshot pair, the journal those audits leave,
/// and the shipped rule sets; each schema is seen to refuse broken copies; the rule-set
/// schema is the one `auditctl rules --format schema` generates from the rules.
final class SchemaTests: XCTestCase {
    static let schemas = DaemonHarness.packageRoot.appendingPathComponent("docs/schemas")
    static let validator = DaemonHarness.packageRoot.appendingPathComponent("Tests/IntegrationTests/Schemas/validate.py").path

    func validate(_ daemon: DaemonHarness, _ kind: String, _ files: [String]) throws {
        let check = try daemon.run("python3", [Self.validator, Self.schemas.path, kind] + files)
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        XCTAssertTrue(check.stdout.contains(", 0 failures"), check.stdout)
    }

    func testReportsAndJournalRecordsMatchTheirSchemas() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let root = DaemonHarness.packageRoot
        let output = daemon.directory.appendingPathComponent("reports.json").path
        let inputs = [
            "Examples", "Tests/Fixtures/corpus/ios", "Tests/Fixtures/corpus/android", "Tests/Fixtures/screens/android",
            "Tests/Fixtures/screens/ios",
        ].map { root.appendingPathComponent($0).path }
        let run = try daemon.auditctl(["audit", "--format", "json", "--output", output] + inputs)
        XCTAssertEqual(run.status, 1, run.stderr)
        try validate(daemon, "report", [output])
        try validate(daemon, "journal", [daemon.journal])
        let transcripts = daemon.directory.appendingPathComponent("transcripts.json").path
        let transcript = try daemon.auditctl(["transcript", "--format", "json"] + inputs)
        XCTAssertEqual(transcript.status, 0, transcript.stderr)
        try transcript.stdout.write(toFile: transcripts, atomically: true, encoding: .utf8)
        try validate(daemon, "transcript", [transcripts])
    }

    func testRuleSetSchemaIsGeneratedAndHoldsForTheShippedSets() throws {
        let daemon = try DaemonHarness()
        let generated = try daemon.auditctl(["rules", "--format", "schema"])
        XCTAssertEqual(generated.status, 0, generated.stderr)
        let committed = try String(contentsOf: Self.schemas.appendingPathComponent("ruleset.schema.json"), encoding: .utf8)
        XCTAssertEqual(
            generated.stdout, committed,
            "docs/schemas/ruleset.schema.json is stale: auditctl rules --format schema > docs/schemas/ruleset.schema.json")
        let sets = try FileManager.default.contentsOfDirectory(atPath: DaemonHarness.rules.path).sorted()
            .map { DaemonHarness.rules.appendingPathComponent($0).path }
        XCTAssertFalse(sets.isEmpty)
        try validate(daemon, "ruleset", sets)
    }
}
