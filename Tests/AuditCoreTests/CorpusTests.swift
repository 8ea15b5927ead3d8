import AuditCore
import Foundation
import XCTest

/// The 61 real dumps of Tests/Fixtures/corpus parse with the report's element count, and the 3
/// malformed ones are refused with a line and column.
final class CorpusTests: XCTestCase {
    struct Entry {
        var file: String
        var elementCount: Int?
    }

    func entries() throws -> [Entry] {
        let table = try String(contentsOf: TestSupport.corpus.appendingPathComponent("PROVENANCE.tsv"), encoding: .utf8)
        var rows = table.split(whereSeparator: \.isNewline).map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        let header = rows.removeFirst()
        guard let fileColumn = header.firstIndex(of: "file"), let countColumn = header.firstIndex(of: "element_count") else {
            XCTFail("PROVENANCE.tsv lacks file/element_count columns")
            return []
        }
        return rows.map { Entry(file: $0[fileColumn], elementCount: Int($0[countColumn])) }
    }

    func testEveryWellFormedDumpParsesWithTheSpecElementCount() throws {
        let wellFormed = try entries().filter { !$0.file.hasPrefix("malformed/") }
        XCTAssertEqual(wellFormed.count, 91)
        var dialects: [Dialect: Int] = [:]
        for entry in wellFormed {
            let data = try XCTUnwrap(FileManager.default.contents(atPath: TestSupport.corpus.appendingPathComponent(entry.file).path))
            let snapshot = try SnapshotParser().parse([UInt8](data))
            // PROVENANCE counts every XML element; the report leaves out the <AppiumAUT> and
            // <hierarchy> wrappers, which every corpus file but one has (a raw WebDriverAgent
            // `/source`, whose root is the application element).
            let wrapped = !entry.file.hasSuffix("codeskyblue__uiautodev__source.xml")
            let expected = try XCTUnwrap(entry.elementCount) - (wrapped ? 1 : 0)
            XCTAssertEqual(snapshot.elements.count, expected, entry.file)
            XCTAssertEqual(snapshot.platform, entry.file.hasPrefix("ios/") ? .ios : .android, entry.file)
            dialects[snapshot.dialect, default: 0] += 1
            // Every element has a source line, and lines never go backwards in document order.
            var previousLine: Int32 = 0
            for element in snapshot.elements {
                XCTAssertGreaterThan(element.line, 0, entry.file)
                XCTAssertGreaterThanOrEqual(element.line, previousLine, entry.file)
                previousLine = element.line
            }
        }
        XCTAssertEqual(dialects[.appiumXCUITest], 27)
        XCTAssertEqual(dialects[.uiautomator], 64)
    }

    func testMalformedDumpsAreRefusedWithLineAndColumn() throws {
        let expectations: [String: (line: Int, column: Int)] = [
            "malformed/BradleyPelton__AppiumInstagram__pagesource2.xml": (1, 1),
            "malformed/Palina-Dzmitrovich__M-13-Webdriver-IO__pageSource.xml": (39, 1),
            "malformed/zippies__mirror__page_source.xml": (16, 51),
        ]
        for (file, position) in expectations {
            let data = try XCTUnwrap(FileManager.default.contents(atPath: TestSupport.corpus.appendingPathComponent(file).path))
            let error = try XCTUnwrap(TestSupport.parseError(bytes: [UInt8](data)), file)
            XCTAssertEqual(error.code, .malformed, file)
            XCTAssertEqual(error.line, position.line, file)
            XCTAssertEqual(error.column, position.column, file)
            XCTAssertFalse(error.hint.isEmpty, file)
        }
    }

    func testAppiumQuirksAreMapped() throws {
        let file = TestSupport.corpus.appendingPathComponent("ios/kkolla06__autoRootly__raw_ios_xml_rootly-settings.xml")
        let snapshot = try SnapshotParser().parse([UInt8](try Data(contentsOf: file)))
        // `&#10;` inside a label survives as a newline.
        let members = try XCTUnwrap(TestSupport.index(snapshot, "settings_members"))
        XCTAssertEqual(snapshot.node(members).label, "Members\nMembers")
        // Comma-separated CamelCase traits.
        XCTAssertTrue(snapshot.elements.contains { $0.traits.contains(.header) })
        XCTAssertEqual(snapshot.app, "com.rootly.app")
        XCTAssertEqual(snapshot.width, 390)
    }

    func testSpringBoardAlertOverTheAppIsKept() throws {
        let file = TestSupport.corpus.appendingPathComponent("ios/zeroG10__Test-project_flutter__qa_shared_recon-dumps_ios-2026-09-24_recon5b_checkin_os_prompt.xml")
        let snapshot = try SnapshotParser().parse([UInt8](try Data(contentsOf: file)))
        XCTAssertEqual(snapshot.app, "com.apple.springboard")
        XCTAssertGreaterThan(snapshot.roots.count, 0)
        XCTAssertTrue(snapshot.elements.contains { snapshot.text($0.typeName) == "XCUIElementTypeAlert" })
    }

    /// `uiautomator dump /dev/tty` writes its status line after the document: cut off,
    /// with a note; any other text after the document is still malformed.
    func testUiautomatorStatusLineAfterTheDocumentIsIgnored() throws {
        let file = TestSupport.corpus.appendingPathComponent("android/userVre__Darkor.ai__darkor_settings.xml")
        let bytes = [UInt8](try Data(contentsOf: file))
        XCTAssertTrue(String(decoding: bytes.suffix(40), as: UTF8.self).contains("UI hierchary dumped to: /dev/tty"))
        let snapshot = try SnapshotParser().parse(bytes)
        XCTAssertEqual(snapshot.elements.count, 112)
        XCTAssertTrue(snapshot.notes.contains { $0.contains("UI hierchary dumped to") }, "\(snapshot.notes)")
        let junk = Array("<hierarchy rotation=\"0\"><node bounds=\"[0,0][10,10]\"/></hierarchy>Something else".utf8)
        XCTAssertEqual(TestSupport.parseError(bytes: junk)?.code, .malformed)
    }
}
