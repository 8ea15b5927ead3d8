@testable import AuditCore
import Foundation
import XCTest

/// Large documents are parsed on two threads (libxml2 records events, the builder replays
/// them elsewhere). Every document of the corpus, the examples, the hostile cases and the
/// fuzz seeds must give the same snapshot — or the same error, line and column — both ways.
final class TwoThreadParseTests: XCTestCase {
    /// Everything a parse produces, spelled out.
    func outcome(_ bytes: [UInt8], twoThreads: Bool) -> String {
        let options = SnapshotParser.Options(twoThreadBytes: twoThreads ? 0 : .max)
        do {
            let snapshot = try SnapshotParser(options: options).parse(bytes)
            return [
                "\(snapshot.version) \(snapshot.dialect) \(snapshot.platform) \(String(describing: snapshot.app)) \(String(describing: snapshot.build))",
                "\(String(describing: snapshot.screen)) \(String(describing: snapshot.width)) \(String(describing: snapshot.height)) \(String(describing: snapshot.scale))",
                "\(snapshot.settings)", "\(snapshot.elements)", "\(snapshot.animations)", "\(snapshot.invalidValues)",
                "\(snapshot.texts.bytes)", "\(snapshot.roots)", "\(snapshot.notes)",
            ].joined(separator: "\n")
        } catch {
            return "error \(error.code) \(error.line):\(error.column) \(error.message) — \(error.hint)"
        }
    }

    /// The model is held at about the size of what it holds: the elements and the text
    /// grow by a guess from the share of the document read, not by doubling (which left up
    /// to half of each empty through the audit) — on short elements, long ones, and
    /// elements crowded at the document's end, one thread or two.
    func testTheModelIsHeldAtTheSizeOfWhatItHolds() throws {
        // An element's stated flags take two bits each, not a byte.
        XCTAssertLessThanOrEqual(MemoryLayout<Element>.stride, 224)
        func document(padding: Int, elements: Int, attributes: String) -> String {
            var xml = #"<snapshot version="1" platform="ios" width="390" height="844"><!--"# + String(repeating: "x", count: padding) + "-->"
            xml += #"<element role="window" frame="0,0,390,844">"#
            for index in 0..<elements {
                xml += #"<element id="r\#(index)" role="button" label="Row \#(index % 50)" frame="0,\#(index % 50 * 60),390,60"\#(attributes)/>"#
            }
            return xml + "</element></snapshot>"
        }
        let long = ##" hint="Opens the row's details in a sheet" value="\##(String(repeating: "v", count: 200))" foreground="#000000" background="#FFFFFF""##
        for (name, xml, slack) in [
            ("short", document(padding: 0, elements: 30_000, attributes: ""), 1.1),
            ("long", document(padding: 0, elements: 8_000, attributes: long), 1.1),
            ("crowded at the end", document(padding: 2_000_000, elements: 30_000, attributes: ""), 1.3),
        ] {
            for twoThreads in [false, true] {
                let snapshot = try SnapshotParser(options: .init(twoThreadBytes: twoThreads ? 0 : .max)).parse(Array(xml.utf8))
                let elements = snapshot.elements, text = snapshot.texts.bytes
                XCTAssertGreaterThan(elements.count, 8_000, name)
                XCTAssertLessThanOrEqual(Double(elements.capacity), Double(elements.count) * slack + 64, "\(name), two threads: \(twoThreads)")
                XCTAssertLessThanOrEqual(Double(text.capacity), Double(text.count) * slack + 4096, "\(name), two threads: \(twoThreads)")
            }
        }
    }

    func files() throws -> [URL] {
        let manager = FileManager.default
        var found: [URL] = []
        for directory in [
            TestSupport.corpus, TestSupport.examples,
            TestSupport.packageRoot.appendingPathComponent("Tests/IntegrationTests/Hostile"),
            TestSupport.packageRoot.appendingPathComponent("Fuzz/corpus/parser"),
        ] {
            guard let walker = manager.enumerator(at: directory, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walker where url.pathExtension == "xml" { found.append(url) }
        }
        return found.sorted { $0.path < $1.path }
    }

    func testEveryDocumentParsesTheSameOnOneOrTwoThreads() throws {
        let documents = try files()
        XCTAssertGreaterThan(documents.count, 100, "corpus, examples, hostile cases and fuzz seeds")
        var errors = 0
        for url in documents {
            let bytes = [UInt8](try Data(contentsOf: url))
            let one = outcome(bytes, twoThreads: false)
            XCTAssertEqual(outcome(bytes, twoThreads: true), one, url.lastPathComponent)
            if one.hasPrefix("error") { errors += 1 }
        }
        XCTAssertGreaterThan(errors, 20, "malformed and hostile documents are among them")
    }

    /// Documents built to hit each way out: a builder error late in a large document
    /// (libxml2 runs ahead and must be stopped), a well-formedness error after many
    /// elements, a DOCTYPE, values larger than one block of events, and a clean one.
    func testLargeDocumentsWithErrorsLateOrValuesLargerThanABlock() {
        let cell = #"<element role="button" label="Buy" frame="0,0,44,44"/>"#
        let cells = String(repeating: cell + "\n", count: 20_000)
        let head = #"<snapshot version="1" platform="ios"><element role="window" frame="0,0,390,844">"#
        let documents = [
            head + cells + "</element></snapshot>",
            head + cells + String(repeating: "<element role=\"group\">", count: 300) + "</element></snapshot>",
            head + cells + "<element role=\"text\" text=\"a < b\"/></element></snapshot>",
            "<!DOCTYPE snapshot>\n" + head + cells + "</element></snapshot>",
            head + "<element role=\"text\" text=\"" + String(repeating: "long value ", count: 60_000) + "\" frame=\"0,0,10,10\"/>" + cells + "</element></snapshot>",
        ]
        for (index, document) in documents.enumerated() {
            let bytes = Array(document.utf8)
            let one = outcome(bytes, twoThreads: false)
            XCTAssertEqual(outcome(bytes, twoThreads: true), one, "document \(index)")
            XCTAssertEqual(one.hasPrefix("error"), index >= 1 && index <= 3, "document \(index): \(one.prefix(120))")
        }
        // The builder's limit on elements, hit long before the end.
        let limited = SnapshotParser.Options(maxElements: 1_000, twoThreadBytes: 0)
        XCTAssertEqual(
            TestSupport.parseError(bytes: Array((head + cells + "</element></snapshot>").utf8), options: limited)?.code,
            .tooManyElements)
    }
}
