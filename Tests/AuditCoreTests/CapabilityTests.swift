import AuditCore
import Foundation
import XCTest

/// Rules ask what a snapshot knows, not where it came from: each dialect's capabilities,
/// and the colour rules following them.
final class CapabilityTests: XCTestCase {
    func parse(_ name: String) throws -> Snapshot {
        try SnapshotParser().parse([UInt8](try Data(contentsOf: TestSupport.examples.appendingPathComponent(name))))
    }

    func testEachDialectSaysWhatItKnows() throws {
        let native = try parse("checkout.xml")
        XCTAssertTrue(native.capabilities.contains(.declaredColors))
        XCTAssertFalse(native.capabilities.contains(.platformTypeNames))
        let android = try parse("android-login.xml")
        XCTAssertEqual(android.capabilities, [.platformTypeNames, .namesFromContent, .visibleFrames])
    }

    func testColourRulesFollowTheCapabilityNotTheDialect() throws {
        let android = try parse("android-login.xml")
        let report = Auditor.audit(android, ruleSet: .allBuiltIn)
        XCTAssertTrue(report.incomplete.contains { $0.incomplete.ruleID == "contrast.text" }, "no declared colours: incomplete, not a pass")
        XCTAssertFalse(report.findings.contains { $0.finding.ruleID.hasPrefix("contrast.") })
        let native = try parse("checkout.xml")
        XCTAssertTrue(Auditor.audit(native, ruleSet: .allBuiltIn).findings.contains { $0.finding.ruleID == "contrast.text" })
    }
}
