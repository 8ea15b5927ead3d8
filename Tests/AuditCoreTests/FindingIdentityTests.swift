import AuditCore
import Foundation
import XCTest

/// A finding's identity (fingerprint version 4): unique within a report, stable across
/// builds of the same screen — rows inserted, labels added, the file reformatted.
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

    /// Each finding's rule, result and fingerprint.
    func fingerprints(_ xml: String) throws -> [(rule: String, fingerprint: String)] {
        Auditor.audit(try TestSupport.parse(xml), ruleSet: .allBuiltIn).findings.map { ("\($0.finding.ruleID)/\($0.finding.resultID)", $0.fingerprint) }
    }

    static func cart(_ rows: [String]) -> String {
        TestSupport.native(
            #"<element id="cart" role="container" frame="0,80,390,600">"#
                + rows.enumerated().map { offset, name in
                    ##"<element id="row" role="cell" frame="0,\##(100 + offset * 60),390,56"><element role="text" text="\##(name)" frame="16,\##(104 + offset * 60),200,20"/><element id="remove" role="button" image="icon_trash" foreground="#E5E5EA" frame="340,\##(104 + offset * 60),30,30"/></element>"##
                }.joined() + "</element>")
    }

    /// A row inserted above keeps the identity of every row below: rows that repeat one
    /// id are told apart by what they show, not by their place (version 2 re-keyed them).
    func testARowInsertedAboveReKeysNothingBelow() throws {
        let before = try fingerprints(Self.cart(["Running shoes", "Socks"]))
        let after = try fingerprints(Self.cart(["Gift card", "Running shoes", "Socks"]))
        XCTAssertGreaterThanOrEqual(before.count, 4, "two findings a row: \(before.map(\.rule))")
        let lost = Set(before.map(\.fingerprint)).subtracting(after.map(\.fingerprint))
        XCTAssertEqual(lost, [], "re-keyed by a row above: \(before.filter { lost.contains($0.fingerprint) }.map(\.rule))")
        XCTAssertEqual(Set(after.map(\.fingerprint)).count, before.count * 3 / 2, "the new row's findings are new, and each its own")
    }

    /// Fixing one finding of an element (its missing label) leaves its other findings'
    /// identities alone; so does reformatting the file (every line and column moves).
    func testAFixOrAReformatReKeysNothingElse() throws {
        let unnamed = TestSupport.native(
            ##"<element role="container" frame="0,0,390,844"><element role="button" image="icon_close" foreground="#E5E5EA" frame="10,10,30,30"/></element>"##)
        let named = TestSupport.native(
            ##"<element role="container" frame="0,0,390,844"><element role="button" label="Close" image="icon_close" foreground="#E5E5EA" frame="10,10,30,30"/></element>"##)
        let before = try fingerprints(unnamed)
        let after = try fingerprints(named)
        XCTAssertTrue(before.contains { $0.rule.hasPrefix("label.missing") }, "\(before.map(\.rule))")
        XCTAssertFalse(after.contains { $0.rule.hasPrefix("label.missing") }, "\(after.map(\.rule))")
        let contrast = try XCTUnwrap(before.first { $0.rule.hasPrefix("contrast.non-text") }, "\(before.map(\.rule))")
        XCTAssertTrue(after.contains { $0 == contrast }, "the contrast finding kept its identity when the label was added")

        let reformatted = try fingerprints(unnamed.replacingOccurrences(of: "><", with: ">\n\n      <"))
        XCTAssertEqual(Set(reformatted.map(\.fingerprint)), Set(before.map(\.fingerprint)), "lines and columns are not identity")
    }

    /// The same on an Android dump: list rows repeat one resource-id.
    func testAndroidRowsAreToldByWhatTheyShow() throws {
        func dump(_ names: [String]) -> String {
            let rows = names.enumerated().map { offset, name in
                let top = 300 + offset * 200
                return
                    #"<node resource-id="com.shop:id/row" class="android.widget.LinearLayout" package="com.shop" bounds="[0,\#(top)][1080,\#(top + 180)]"><node class="android.widget.TextView" text="\#(name)" package="com.shop" bounds="[40,\#(top + 20)][800,\#(top + 80)]"/><node resource-id="com.shop:id/fav" class="android.widget.ImageButton" package="com.shop" clickable="true" enabled="true" bounds="[950,\#(top + 20)][1010,\#(top + 80)]"/></node>"#
            }.joined()
            return
                #"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.shop" bounds="[0,0][1080,2400]"><node resource-id="com.shop:id/list" class="androidx.recyclerview.widget.RecyclerView" package="com.shop" scrollable="true" bounds="[0,200][1080,2200]">\#(rows)</node></node></hierarchy>"#
        }
        let before = try fingerprints(dump(["Kettle", "Toaster"]))
        let after = try fingerprints(dump(["Blender", "Kettle", "Toaster"]))
        XCTAssertGreaterThanOrEqual(before.count, 2, "\(before.map(\.rule))")
        XCTAssertEqual(Set(before.map(\.fingerprint)).subtracting(after.map(\.fingerprint)), [])
        XCTAssertEqual(Set(after.map(\.fingerprint)).count, after.count)
    }

    /// The trash button of every row is one defect with an instance a row; each instance
    /// keeps its own fingerprint.
    func testRepeatedRowsAreOneDefectWithInstances() throws {
        let report = Auditor.audit(try TestSupport.parse(Self.cart(["Running shoes", "Socks", "Gift card"])), ruleSet: .allBuiltIn)
        let missing = report.findings.filter { $0.finding.ruleID == "label.missing" }
        XCTAssertEqual(missing.count, 3)
        XCTAssertEqual(Set(missing.map(\.defect)).count, 1, "one defect")
        XCTAssertEqual(Set(missing.map(\.fingerprint)).count, 3, "three instances")
        XCTAssertLessThan(Set(report.findings.map(\.defect)).count, report.findings.count)
        let rendered = String(decoding: ReportWriter.render(report).bytes, as: UTF8.self)
        XCTAssertTrue(rendered.contains("\"defects\":\(Set(report.findings.map(\.defect)).count)"), rendered)
    }
}
