import AuditCore
import Dispatch
import XCTest

/// Costs a snapshot can cause are bounded (issue 26). Every built-in rule honours the audit's
/// budget: on an adversarial screen that takes a rule a long time, a budget a small fraction
/// of that time stops it — the audit returns well before the rule's unbounded time (within
/// three quarters: a rule's setup pass runs before it first asks) and says the rule was
/// stopped, never a silent pass. Times are compared as ratios within one run,
/// not against a clock figure.
final class BoundedCostTests: XCTestCase {
    /// 4,000 rows, each a cell with a label, a link between two texts, an icon, a tab, a
    /// switch and a field, all coloured and sized: something for every rule.
    static func screen(rows: Int) -> String {
        var body = ""
        for row in 0..<rows {
            let y = row * 50
            body += ##"<element id="cell-\##(row)" role="cell" interactive="true" label="Row" frame="0,\##(y),390,50">"##
            body += ##"<element role="text" text="Read the" foreground="#777777" font-size="15" frame="0,\##(y),80,20"/>"##
            body += ##"<element role="link" label="terms" foreground="#787878" font-size="15" frame="80,\##(y),40,20"/>"##
            body += ##"<element role="text" text="first" foreground="#777777" font-size="15" frame="120,\##(y),40,20"/>"##
            body += ##"<element role="image" image="icon_\##(row % 7).png" foreground="#DDDDDD" frame="160,\##(y),20,20"/>"##
            body += ##"<element role="tab" label="Tab" foreground="#8E8E93" traits="\##(row % 2 == 0 ? "selected" : "")" frame="180,\##(y),40,40"/>"##
            body += ##"<element role="switch" label="loginBtn" frame="220,\##(y),51,31"/>"##
            body += ##"<element role="textfield" placeholder="Email" scales-with-content-size="false" text-style="custom" frame="275,\##(y),100,30"/>"##
            body += "</element>"
        }
        return """
            <snapshot version="1" platform="ios" app="com.example" screen="Budget" width="390" height="\(rows * 50)">
            <settings content-size="ax2" reduce-motion="true"/>
            <element id="root" role="window" frame="0,0,390,\(rows * 50)" background="#FFFFFF">\(body)</element>
            </snapshot>
            """
    }

    func testEveryRuleStopsWithinItsBudgetAndSaysSo() throws {
        let snapshot = try TestSupport.parse(Self.screen(rows: 4_000))
        // What an audit costs besides its rule (ordering, fingerprints): a rule that reports
        // nothing here. The rules' own times are measured above it.
        let overheadStart = DispatchTime.now().uptimeNanoseconds
        _ = Auditor.audit(snapshot, ruleSet: .only(UnauditableRule.self), concurrent: false)
        let overhead = Double(DispatchTime.now().uptimeNanoseconds - overheadStart) / 1e9
        var checked = 0
        for rule in BuiltInRules.all {
            let ruleSet = RuleSet.only(rule)
            let start = DispatchTime.now().uptimeNanoseconds
            let full = Auditor.audit(snapshot, ruleSet: ruleSet, concurrent: false)
            let unbounded = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            XCTAssertFalse(full.incomplete.contains { $0.incomplete.reason.contains("budget") }, rule.description.id)
            // Only a rule that takes long enough to be cut is measured.
            let own = unbounded - overhead
            guard own > 0.2 else { continue }
            let budget = AuditBudget(seconds: own / 20)
            let cutStart = DispatchTime.now().uptimeNanoseconds
            let cut = Auditor.audit(snapshot, ruleSet: ruleSet, concurrent: false, budget: budget)
            let bounded = Double(DispatchTime.now().uptimeNanoseconds - cutStart) / 1e9
            // A rule's setup (one pass to index the screen) runs before its first check of
            // the budget: up to half its time on this screen; the rest must be cut.
            XCTAssertLessThan(
                bounded - overhead, own * 0.75,
                "\(rule.description.id): \(bounded) s with a budget of \(own / 20) s; \(unbounded) s unbounded, \(overhead) s of it not the rule's")
            XCTAssertTrue(AuditBudget.ranOut(in: cut), "\(rule.description.id) stopped without saying so: \(cut.incomplete.map(\.incomplete.reason))")
            checked += 1
        }
        print("BoundedCostTests: \(checked) rules long enough on this screen to be cut by their budget")
    }

    /// `a11y-ignore` with a megabyte of patterns that match nothing, over 40 findings: the
    /// list is read once, so the audit costs about what it costs without it (it took 7 s);
    /// a pattern among the first 64 still suppresses, and the rest of a long list is ignored.
    func testALongIgnoreListIsReadOnce() throws {
        let buttons = (0..<40).map { #"<element id="b\#($0)" role="button" frame="\#($0 * 9),100,8,8"/>"# }.joined()
        func screen(_ ignore: String) -> String {
            #"<snapshot version="1" platform="ios" app="com.example" width="390" height="844"><element id="root" role="window" frame="0,0,390,844" a11y-ignore="\#(ignore)">"#
                + buttons + "</element></snapshot>"
        }
        let junk = (0..<60_000).map { "x\($0)-*" }.joined(separator: " ")
        let plain = try TestSupport.parse(screen("nothing"))
        let hostile = try TestSupport.parse(screen(junk))
        let start = DispatchTime.now().uptimeNanoseconds
        let base = Auditor.audit(plain, ruleSet: .allBuiltIn)
        let baseTime = DispatchTime.now().uptimeNanoseconds - start
        let hostileStart = DispatchTime.now().uptimeNanoseconds
        let report = Auditor.audit(hostile, ruleSet: .allBuiltIn)
        let hostileTime = DispatchTime.now().uptimeNanoseconds - hostileStart
        XCTAssertEqual(report.findings.count, base.findings.count)
        XCTAssertGreaterThan(base.findings.count, 40)
        XCTAssertLessThan(Double(hostileTime), 10 * Double(baseTime) + 50e6, "\(Double(hostileTime) / 1e6) ms against \(Double(baseTime) / 1e6) ms")
        let early = try TestSupport.parse(screen("x1 x2 label.* x3"))
        XCTAssertFalse(Auditor.audit(early, ruleSet: .allBuiltIn).findings.contains { $0.finding.ruleID.hasPrefix("label.") })
        let late = try TestSupport.parse(screen((0..<100).map { "x\($0)" }.joined(separator: " ") + " label.*"))
        XCTAssertTrue(
            Auditor.audit(late, ruleSet: .allBuiltIn).findings.contains { $0.finding.ruleID.hasPrefix("label.") },
            "patterns past the 64th are not honoured")
    }

    /// `color-only.link` on many sibling links (text, link, text, …): ten times the links cost
    /// about ten times the time, not a hundred (100,000 took 244 s when each link listed its
    /// siblings).
    func testSiblingLinksAreLinear() throws {
        func run(_ count: Int) throws -> Double {
            let items = (0..<count).map { _ in
                ##"<element role="text" text="a" foreground="#000000" frame="0,0,10,10"/><element role="link" label="b" foreground="#111111" frame="10,0,10,10"/>"##
            }.joined()
            let snapshot = try TestSupport.parse(
                ##"<snapshot version="1" platform="ios" app="com.example" width="390" height="844"><element id="root" role="window" frame="0,0,390,844" background="#FFFFFF"><element role="container" frame="0,0,390,844">"##
                    + items + ##"<element role="text" text="end" foreground="#000000" frame="0,0,10,10"/></element></element></snapshot>"##)
            let start = DispatchTime.now().uptimeNanoseconds
            let report = Auditor.audit(snapshot, ruleSet: .only(ColorOnlyLinkRule.self), concurrent: false)
            XCTAssertEqual(report.findings.count, count)
            return Double(DispatchTime.now().uptimeNanoseconds - start)
        }
        let small = try run(2_000), large = try run(20_000)
        XCTAssertLessThan(large / small, 40, "\(large / 1e6) ms for 20,000 links against \(small / 1e6) ms for 2,000")
    }
}
