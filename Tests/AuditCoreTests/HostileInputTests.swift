import AuditCore
import Foundation
import XCTest

/// Documents built to hurt a parser: each is refused with a clear error, or read
/// correctly, and none reads a file or the network.
final class HostileInputTests: XCTestCase {
    func testBillionLaughsIsRefusedAtTheDoctype() {
        var xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE snapshot [\n<!ENTITY lol \"lol\">\n"
        for level in 1...9 {
            let previous = level == 1 ? "lol" : "lol\(level - 1)"
            xml += "<!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">\n"
        }
        xml += "]>\n<snapshot version=\"1\"><element label=\"&lol9;\"/></snapshot>"
        let started = Date()
        let error = TestSupport.parseError(xml)
        XCTAssertEqual(error?.code, .doctypeForbidden)
        XCTAssertEqual(error?.line, 2)
        XCTAssertLessThan(Date().timeIntervalSince(started), 1)
    }

    func testExternalEntitiesNeverReadFiles() throws {
        let secret = FileManager.default.temporaryDirectory.appendingPathComponent("auditd-secret-\(getpid()).txt")
        try "TOP-SECRET-CONTENT".write(to: secret, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: secret) }
        let documents = [
            "<!DOCTYPE snapshot [<!ENTITY x SYSTEM \"file://\(secret.path)\">]><snapshot version=\"1\"><element label=\"&x;\">&x;</element></snapshot>",
            "<!DOCTYPE snapshot SYSTEM \"file://\(secret.path)\"><snapshot version=\"1\"/>",
            "<!DOCTYPE snapshot [<!ENTITY % p SYSTEM \"file://\(secret.path)\"> %p;]><snapshot version=\"1\"/>",
            "<!DOCTYPE snapshot [<!ENTITY x SYSTEM \"http://127.0.0.1:9/x\">]><snapshot version=\"1\"><element label=\"&x;\"/></snapshot>",
        ]
        for xml in documents {
            do {
                let snapshot = try SnapshotParser().parse(xml)
                XCTAssertFalse(snapshot.texts.bytes.contains(Array("TOP-SECRET".utf8)), "file content leaked")
            } catch {
                XCTAssertFalse(error.description.contains("TOP-SECRET"))
                XCTAssertEqual(error.code, .doctypeForbidden, xml)
            }
        }
    }

    func testUndeclaredEntityIsAnErrorWithPosition() {
        let error = TestSupport.parseError("<snapshot version=\"1\">\n<element label=\"&nope;\"/></snapshot>")
        XCTAssertEqual(error?.code, .malformed)
        XCTAssertEqual(error?.line, 2)
    }

    /// The front end is chosen by the first bytes: a JSON export is named as such, not
    /// reported as broken XML at line 1; text that is neither is still libxml2's to place.
    func testAJSONCaptureIsNamedAndOtherBytesAreLeftToTheXMLParser() {
        let json = TestSupport.parseError(#"  {"nodes": [{"role": "button", "name": "Pay"}]}"#)
        XCTAssertEqual(json?.code, .unsupportedSyntax)
        XCTAssertTrue(json?.message.contains("JSON") ?? false, "\(String(describing: json))")
        XCTAssertEqual(TestSupport.parseError("hello <snapshot version=\"1\"/>")?.code, .malformed)
        XCTAssertNil(TestSupport.parseError("\u{FEFF}\n  <snapshot version=\"1\"/>"))
    }

    func testDeepNestingIsRefused() {
        let depth = 100_000
        let xml = "<snapshot version=\"1\">" + String(repeating: "<element>", count: depth) + String(repeating: "</element>", count: depth) + "</snapshot>"
        let error = TestSupport.parseError(xml)
        XCTAssertEqual(error?.code, .tooDeep)
        XCTAssertEqual(error?.line, 1)
        // 200 levels are fine.
        let fine = "<snapshot version=\"1\">" + String(repeating: "<element>", count: 200) + String(repeating: "</element>", count: 200) + "</snapshot>"
        XCTAssertNil(TestSupport.parseError(fine))
    }

    func testSizeLimit() {
        let xml = Array(TestSupport.native(String(repeating: "<element role=\"text\"/>", count: 1000)).utf8)
        let error = TestSupport.parseError(bytes: xml, options: .init(maxBytes: 1000))
        XCTAssertEqual(error?.code, .tooLarge)
        let count = TestSupport.parseError(bytes: xml, options: .init(maxElements: 10))
        XCTAssertEqual(count?.code, .tooManyElements)
    }

    func testOtherEncodingsParse() throws {
        // UTF-16 with a byte-order mark.
        let text = "<?xml version=\"1.0\" encoding=\"UTF-16\"?><snapshot version=\"1\"><element id=\"é\" label=\"Café ☕\"/></snapshot>"
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in text.utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let snapshot = try SnapshotParser().parse(utf16)
        XCTAssertEqual(snapshot.node(0).label, "Café ☕")
        XCTAssertEqual(snapshot.node(0).id, "é")
        // ISO-8859-1.
        var latin1 = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<snapshot version=\"1\"><element label=\"Caf".utf8)
        latin1 += [0xE9] + Array("\"/></snapshot>".utf8)
        let latin = try SnapshotParser().parse(latin1)
        XCTAssertEqual(latin.node(0).label, "Café")
        XCTAssertEqual(latin.elements[0].line, 2)
    }

    func testBadBytesAreRefusedWithPosition() {
        var invalidUTF8 = Array("<snapshot version=\"1\">\n<element label=\"".utf8)
        invalidUTF8 += [0xC3, 0x28] + Array("\"/></snapshot>".utf8)
        let utf8Error = TestSupport.parseError(bytes: invalidUTF8)
        XCTAssertEqual(utf8Error?.code, .malformed)
        XCTAssertEqual(utf8Error?.line, 2)
        XCTAssertFalse(utf8Error?.message.contains("\n") ?? true)

        let nul = Array("<snapshot version=\"1\"><element label=\"a".utf8) + [0] + Array("b\"/></snapshot>".utf8)
        XCTAssertEqual(TestSupport.parseError(bytes: nul)?.code, .malformed)

        var generator = SeededGenerator()
        for _ in 0..<50 {
            let junk = (0..<512).map { _ in UInt8.random(in: 0...255, using: &generator) }
            XCTAssertNotNil(TestSupport.parseError(bytes: junk))
        }
    }

    func testTruncatedAtEveryStructuralPoint() throws {
        let xml = Array(TestSupport.native(#"<element id="a" role="button" label="x"><animation kind="fade"/></element>"#).utf8)
        XCTAssertNoThrow(try SnapshotParser().parse(xml))
        for cut in stride(from: 1, to: xml.count - 1, by: 3) {
            let error = TestSupport.parseError(bytes: Array(xml[..<cut]))
            XCTAssertNotNil(error, "cut at \(cut)")
            if let error, error.code == .malformed {
                XCTAssertGreaterThan(error.line, 0, "cut at \(cut)")
            }
        }
    }

    func testHugeAttributeAndManyAttributes() throws {
        let big = String(repeating: "a", count: 1_000_000)
        let snapshot = try SnapshotParser().parse("<snapshot version=\"1\"><element label=\"\(big)\"/></snapshot>")
        XCTAssertEqual(snapshot.node(0).label?.count, 1_000_000)
        let huge = String(repeating: "a", count: 10_000_001)
        let error = TestSupport.parseError("<snapshot version=\"1\">\n<element label=\"\(huge)\"/></snapshot>")
        XCTAssertEqual(error?.code, .tooLarge)
        XCTAssertEqual(error?.line, 2)
        let many = (0..<100_000).map { " a\($0)=\"1\"" }.joined()
        let wide = try SnapshotParser().parse("<snapshot version=\"1\"><element id=\"w\"\(many)/></snapshot>")
        XCTAssertEqual(wide.node(0).id, "w")
    }
}
