import AuditCore
import Foundation
import XCTest

/// Flutter's semantics tree as `debugDumpSemanticsTree()` prints it (issue 56): a capture
/// that is not XML, read by a second front end (`SemanticsDumpSyntax`) and one dialect
/// (`FlutterSemanticsDialect`). Real dumps from Tests/Fixtures/flutter (with their
/// provenance), and one written in the same format for the flags no real dump here shows.
final class FlutterSemanticsTests: XCTestCase {
    static let library = Result { try RuleSetLibrary.load(directories: [TestSupport.packageRoot.appendingPathComponent("Rules").path]) }
    static let folder = TestSupport.fixtures.appendingPathComponent("flutter")

    func parse(_ name: String) throws -> Snapshot {
        try SnapshotParser().parse([UInt8](try Data(contentsOf: Self.folder.appendingPathComponent(name))))
    }

    func audit(_ snapshot: Snapshot) throws -> AuditReport {
        Auditor.audit(snapshot, ruleSet: try XCTUnwrap(try Self.library.get().defaultSet(for: snapshot.platform)))
    }

    func element(_ snapshot: Snapshot, labelled label: String) -> Int? {
        snapshot.elements.indices.first { snapshot.texts.string(snapshot.elements[$0].label) == label }
    }

    /// The stock counter app on an iOS simulator at 3x: the screen in logical pixels, the
    /// floating button placed by its transform (a translation, with a rotation of 1e-16),
    /// its `merged up` child folded into it — heard as VoiceOver hears the app: four stops.
    func testTheCounterAppIsReadAsTheReaderHearsIt() throws {
        let snapshot = try parse("counter_ios_simulator.semantics.txt")
        XCTAssertEqual(snapshot.dialect, .flutterSemantics)
        XCTAssertEqual(snapshot.width, 402)
        XCTAssertEqual(snapshot.height, 874)
        XCTAssertEqual(snapshot.scale, 3)
        let button = try XCTUnwrap(element(snapshot, labelled: "Increment"))
        XCTAssertEqual(snapshot.elements[button].role, .button)
        XCTAssertTrue(snapshot.elements[button].isInteractive)
        let frame = try XCTUnwrap(snapshot.elements[button].frame)
        XCTAssertEqual(frame.x, 330, accuracy: 0.01)
        XCTAssertEqual(frame.y, 768, accuracy: 0.01)
        XCTAssertEqual(frame.width, 56, accuracy: 0.01)
        XCTAssertEqual(frame.height, 56, accuracy: 0.01)
        XCTAssertEqual(snapshot.elements[button].line, 35, "the node's own line")
        // The merged node is the button's part, not a second control.
        let merged = Int(snapshot.elements[button].firstChild)
        XCTAssertFalse(snapshot.elements[merged].isAccessible)
        XCTAssertFalse(snapshot.elements[merged].isInteractive)
        let heading = try XCTUnwrap(element(snapshot, labelled: "Flutter Demo Home Page"))
        XCTAssertTrue(snapshot.elements[heading].traits.contains(.header))
        XCTAssertEqual(
            Transcript(snapshot).stops.map(\.speech),
            ["Flutter Demo Home Page, heading", "You have pushed the button this many times:", "0", "Increment, button"])
        XCTAssertEqual(try audit(snapshot).findings.map(\.finding.ruleID), [], "the stock counter app is clean")
    }

    /// A required text field and a dropdown's field whose actions and flags the printer
    /// wrapped onto further lines: read whole. The first field has no name: `label.missing`
    /// at its node's line and column.
    func testWrappedPropertiesAndAnUnnamedField() throws {
        let snapshot = try parse("pr_164585_required_fields.semantics.txt")
        let fields = snapshot.elements.indices.filter { snapshot.elements[$0].role == .textfield }
        XCTAssertEqual(fields.count, 2)
        XCTAssertTrue(fields.allSatisfy { snapshot.elements[$0].isInteractive && snapshot.elements[$0].isEnabled })
        XCTAssertEqual(snapshot.texts.string(snapshot.elements[fields[1]].value), "Dropdown entry 1")
        let missing = try audit(snapshot).findings.filter { $0.finding.ruleID == "label.missing" }
        XCTAssertEqual(missing.map(\.line), [16])
        XCTAssertEqual(missing.map(\.column), [10])
    }

    /// Pasted from `flutter run`'s console: logcat's `I/flutter (25790): ` on every line (the
    /// snapshot is Android's), macOS's `flutter: `; sizes in logical pixels either way.
    func testConsolePrefixesAreRead() throws {
        let android = try parse("issue_51804_links_android.semantics.txt")
        XCTAssertEqual(android.platform, .android)
        XCTAssertEqual(android.width, 360)
        let last = try XCTUnwrap(android.elements.last?.frame)
        XCTAssertEqual(last.x, 16, accuracy: 0.01)
        XCTAssertEqual(last.y, 54.8, accuracy: 0.01)
        XCTAssertEqual(last.width, 150, accuracy: 0.01)
        let mac = try parse("issue_111094_macos.semantics.txt")
        XCTAssertEqual(mac.platform, .other)
        XCTAssertEqual(mac.elements.count, 7)
        XCTAssertEqual(Transcript(mac).stops.map(\.speech), ["Flutter Demo Home Page, heading"])
    }

    /// The flags and states real dumps here do not show, in the dump's own format: a
    /// checkbox, a switch, a slider, a link, an image, a disabled button, a label over three
    /// lines, a hidden node, a node scrolled out of view.
    static let states = """
        SemanticsNode#0
         │ Rect.fromLTRB(0.0, 0.0, 1080.0, 2400.0)
         │
         └─SemanticsNode#1
           │ Rect.fromLTRB(0.0, 0.0, 360.0, 800.0) scaled by 3.0x
           │
           ├─SemanticsNode#2
           │   Rect.fromLTRB(16.0, 100.0, 344.0, 148.0)
           │   actions: tap
           │   flags: hasCheckedState, isChecked, hasEnabledState, isEnabled, isFocusable
           │   label: "Remember me"
           │
           ├─SemanticsNode#3
           │   Rect.fromLTRB(16.0, 160.0, 344.0, 208.0)
           │   actions: tap
           │   flags: hasToggledState, hasEnabledState, isEnabled, isFocusable
           │   label: "Wi-Fi"
           │
           ├─SemanticsNode#4
           │   Rect.fromLTRB(16.0, 220.0, 344.0, 268.0)
           │   actions: increase, decrease
           │   flags: isSlider, hasEnabledState, isEnabled, isFocusable
           │   label: "Volume"
           │   value: "40%"
           │
           ├─SemanticsNode#5
           │   Rect.fromLTRB(16.0, 280.0, 120.0, 300.0)
           │   actions: tap
           │   flags: isLink
           │   label: "Terms"
           │
           ├─SemanticsNode#6
           │   Rect.fromLTRB(16.0, 310.0, 66.0, 360.0)
           │   flags: isImage
           │
           ├─SemanticsNode#7
           │   Rect.fromLTRB(16.0, 370.0, 344.0, 418.0)
           │   flags: isButton, hasEnabledState, isFocusable
           │   label: "Pay"
           │
           ├─SemanticsNode#8
           │   Rect.fromLTRB(16.0, 430.0, 344.0, 500.0)
           │   label:
           │     "Betelgeuse
           │     Red supergiant · 700 solar radii"
           │
           ├─SemanticsNode#9
           │   HIDDEN
           │   Rect.fromLTRB(16.0, 510.0, 344.0, 530.0)
           │   label: "Behind the sheet"
           │
           └─SemanticsNode#10
               invisible
               Rect.fromLTRB(16.0, 900.0, 344.0, 948.0)
               actions: tap
               flags: isButton, hasEnabledState, isEnabled
               label: "Below the fold"
        """

    func testFlagsAndActionsGiveRolesAndStates() throws {
        let snapshot = try SnapshotParser().parse(Self.states)
        func node(_ label: String) throws -> Element { snapshot.elements[try XCTUnwrap(element(snapshot, labelled: label), label)] }
        XCTAssertEqual(try node("Remember me").role, .checkbox)
        XCTAssertEqual(snapshot.texts.string(try node("Remember me").value), "1")
        XCTAssertEqual(try node("Wi-Fi").role, .switch)
        XCTAssertEqual(snapshot.texts.string(try node("Wi-Fi").value), "0")
        XCTAssertEqual(try node("Volume").role, .slider)
        XCTAssertTrue(try node("Volume").traits.contains(.adjustable))
        XCTAssertEqual(try node("Terms").role, .link)
        XCTAssertEqual(try node("Pay").role, .button)
        XCTAssertFalse(try node("Pay").isEnabled, "hasEnabledState without isEnabled")
        XCTAssertEqual(try node("Betelgeuse\nRed supergiant · 700 solar radii").role, .text)
        XCTAssertTrue(try node("Behind the sheet").isHidden)
        XCTAssertFalse(try node("Below the fold").isVisible)
        let image = try XCTUnwrap(snapshot.elements.firstIndex { $0.role == .image })
        let report = try audit(snapshot)
        XCTAssertTrue(
            report.findings.contains { $0.finding.ruleID == "label.missing" && $0.finding.element == image },
            "an image with no label: \(report.findings.map(\.finding.ruleID))")
        // Rules ask the snapshot, never the dialect: the checkbox's 48-dp row is no small target.
        XCTAssertFalse(report.findings.contains { $0.finding.ruleID.hasPrefix("target-") && $0.finding.element == (element(snapshot, labelled: "Remember me") ?? -1) })
    }

    /// A rule set's XPath rules read XML: on a dump they are incomplete, saying why, and the
    /// built-in rules run as ever.
    func testXPathRulesSayTheyReadXML() throws {
        let directory = NSTemporaryDirectory() + "flutter-xpath-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try #"{"name": "team", "rules": {"label.missing": true}, "custom": [{"id": "custom.any", "xpath": "//SemanticsNode", "message": "a node"}]}"#
            .write(toFile: directory + "/team.json", atomically: true, encoding: .utf8)
        let team = try XCTUnwrap(try RuleSetLibrary.load(directories: [directory])["team"])
        let bytes = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent("pr_164585_required_fields.semantics.txt")))
        let snapshot = try SnapshotParser().parse(bytes)
        let report = bytes.withUnsafeBytes { Auditor.audit(snapshot, ruleSet: team, source: $0) }
        XCTAssertEqual(report.findings.map(\.finding.ruleID), ["label.missing"])
        let xpath = report.incomplete.filter { $0.incomplete.ruleID == "custom.any" }
        XCTAssertEqual(xpath.count, 1)
        XCTAssertTrue(xpath.first?.incomplete.reason.contains("not XML") == true, "\(xpath.map(\.incomplete.reason))")
    }

    /// What is not a dump is not read as one; a dump that holds no node says so.
    func testWhatIsNotADumpIsRefused() {
        XCTAssertEqual(TestSupport.parseError("SemanticsNode is a class")?.code, .malformed)
        XCTAssertEqual(TestSupport.parseError("SemanticsNode#")?.code, nil, "a node without properties is a node")
        let error = TestSupport.parseError(bytes: Array("I/flutter (1): SemanticsNode#0\n".utf8))
        XCTAssertNil(error)
    }

    /// Seeded mutations of the real dumps — lines dropped, cut, repeated or shuffled, bytes
    /// flipped, drawing and quotes left open — never crash the reader: each parses or is
    /// refused with a snapshot error, and what parses audits (the seed is printed).
    func testMutatedDumpsParseOrAreRefused() throws {
        let seed = ProcessInfo.processInfo.environment["AUDITD_TEST_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64.max)
        print("FlutterSemanticsTests seed \(seed) (AUDITD_TEST_SEED=\(seed) repeats it)")
        var random = SplitMix64(seed: seed)
        let dumps = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".txt") }.sorted()
            .map { try Data(contentsOf: Self.folder.appendingPathComponent($0)) }
        let ruleSet = try XCTUnwrap(try Self.library.get().defaultSet(for: .other))
        for round in 0..<400 {
            var lines = String(decoding: dumps[Int(random.next() % UInt64(dumps.count))], as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            for _ in 0..<(1 + random.next() % 4) where !lines.isEmpty {
                let at = Int(random.next() % UInt64(lines.count))
                switch random.next() % 6 {
                case 0: lines.remove(at: at)
                case 1: lines[at] = String(lines[at].prefix(Int(random.next() % UInt64(lines[at].count + 1))))
                case 2: lines.insert(lines[at], at: at)
                case 3: lines.swapAt(at, Int(random.next() % UInt64(lines.count)))
                case 4: lines[at] += ["\"", "[[1.0,", "│ label:", " with transform", "Rect.fromLTRB(1,", "\u{FF}"][Int(random.next() % 6)]
                default: lines[at] = String(repeating: "│ ", count: Int(random.next() % 200)) + lines[at]
                }
            }
            var bytes = Array(lines.joined(separator: "\n").utf8)
            if !bytes.isEmpty, random.next() % 3 == 0 { bytes[Int(random.next() % UInt64(bytes.count))] ^= UInt8(truncatingIfNeeded: random.next()) }
            do throws(SnapshotError) {
                let snapshot = try SnapshotParser().parse(bytes)
                _ = Auditor.audit(snapshot, ruleSet: ruleSet)
            } catch {
                XCTAssertFalse(error.message.isEmpty, "round \(round), seed \(seed)")
            }
        }
    }

    /// Nesting beyond the limit and more nodes than the limit are refused as XML's are.
    func testItsCostIsBounded() throws {
        var deep = "SemanticsNode#0\n"
        for level in 1...300 { deep += String(repeating: " ", count: level * 2) + "└─SemanticsNode#\(level)\n" }
        XCTAssertEqual(TestSupport.parseError(deep)?.code, .tooDeep)
        let many = (0..<50).map { "SemanticsNode#\($0)\n" }.joined()
        XCTAssertEqual(TestSupport.parseError(bytes: Array(many.utf8), options: .init(maxElements: 10))?.code, .tooManyElements)
    }
}
