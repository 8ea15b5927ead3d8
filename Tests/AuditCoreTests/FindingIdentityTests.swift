import AuditCore
import Foundation
import XCTest

/// A finding's identity (fingerprint version 2): unique within a report, stable across
/// builds of the same screen.
final class FindingIdentityTests: XCTestCase {
    func reports() throws -> [(String, AuditReport)] {
        var files: [URL] = []
        for folder in ["ios", "android"] {
            let directory = TestSupport.corpus.appendingPathComponent(folder)
            files += try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted().map { directory.appendingPathComponent($0) }
        }
        files += try FileManager.default.contentsOfDirectory(atPath: TestSupport.examples.path).sorted().map { TestSupport.examples.appendingPathComponent($0) }
        return try files.map { file in
            let bytes = [UInt8](try Data(contentsOf: file))
            let snapshot = try SnapshotParser().parse(bytes)
            return (file.lastPathComponent, Auditor.audit(snapshot, ruleSet: .allBuiltIn))
        }
    }

    func testFingerprintsAreUniqueWithinEveryReport() throws {
        var checked = 0
        for (name, report) in try reports() {
            var seen: [String: String] = [:]
            for located in report.findings {
                let description = "\(located.finding.ruleID)/\(located.finding.resultID) on \(located.elementID ?? "-")"
                if let earlier = seen[located.fingerprint] {
                    XCTFail("\(name): \(description) has the fingerprint of \(earlier)")
                }
                seen[located.fingerprint] = description
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 300, "the corpus and examples give findings to check")
    }

    /// Two results of one rule on one element (an icon's contrast and its border's), and
    /// rows that repeat one id, are distinct findings.
    func testResultsAndRepeatedIDsAreTold() throws {
        let xml = TestSupport.native(
            ##"""
            <element id="row" role="button" label="A" frame="0,100,100,44"/>
            <element id="row" role="button" label="A" frame="0,100,100,44"/>
            <element id="row" role="button" label="A" frame="0,100,100,44"/>
            """##)
        let report = Auditor.audit(try TestSupport.parse(xml), ruleSet: .allBuiltIn)
        let duplicates = report.findings.filter { $0.finding.ruleID == "target-duplicate" }
        XCTAssertEqual(duplicates.count, 2)
        XCTAssertEqual(Set(duplicates.map(\.fingerprint)).count, 2, "rows sharing an id keep their own identity")
    }

    /// A new build of the screen — another build number, frames moved, a row added at the
    /// end — keeps the fingerprints of the findings that are still there.
    func testFingerprintsSurviveANewBuild() throws {
        let first = try TestSupport.parse(
            TestSupport.native(
                ##"""
                <element id="close" role="button" image="icon_close" frame="350,50,24,24" foreground="#C7C7CC"/>
                <element id="price" role="text" text="9.99" frame="16,100,80,20" foreground="#999999" font-size="12"/>
                """##))
        let second = try TestSupport.parse(
            TestSupport.native(
                ##"""
                <element id="close" role="button" image="icon_close" frame="340,60,24,24" foreground="#C7C7CC"/>
                <element id="price" role="text" text="9.99" frame="16,110,80,20" foreground="#999999" font-size="12"/>
                <element id="new" role="button" image="icon_new" frame="10,300,20,20"/>
                """##
            ).replacingOccurrences(of: "<snapshot ", with: "<snapshot build=\"1843\" "))
        let before = Set(Auditor.audit(first, ruleSet: .allBuiltIn).findings.map(\.fingerprint))
        let after = Set(Auditor.audit(second, ruleSet: .allBuiltIn).findings.map(\.fingerprint))
        XCTAssertFalse(before.isEmpty)
        XCTAssertTrue(before.isSubset(of: after), "lost: \(before.subtracting(after))")
    }
}
