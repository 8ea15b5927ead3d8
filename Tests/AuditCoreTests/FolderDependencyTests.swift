import Foundation
import XCTest

/// The folders of every target show its architecture, and none depends on a folder that
/// depends back on it (issue 56): the compiler refuses a cycle between targets, this test
/// one between the folders inside a target. A folder *uses* another when its files name a
/// type declared at the top level of the other's files; a cycle, of any length, fails with
/// the names that make each step of it.
final class FolderDependencyTests: XCTestCase {
    /// One target's folders: for each, the types its files declare and the names they use.
    struct Target {
        var declaredIn: [String: Set<String>] = [:]
        var uses: [String: Set<String>] = [:]
    }

    static func read(_ target: URL) throws -> Target {
        var result = Target()
        let files =
            FileManager.default.enumerator(at: target, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        let declaration = try NSRegularExpression(
            pattern: #"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate|final|indirect)\s+)*(?:struct|class|enum|protocol|actor|typealias)\s+(\w+)"#,
            options: [.anchorsMatchLines])
        let name = try NSRegularExpression(pattern: #"(?<![.\w])[A-Z]\w*"#)
        for file in files {
            let relative = file.path.dropFirst(target.path.count + 1).split(separator: "/")
            let folder = relative.count > 1 ? String(relative[0]) : "."
            let code = strippingCommentsAndStrings(try String(contentsOf: file, encoding: .utf8))
            let range = NSRange(code.startIndex..., in: code)
            for match in declaration.matches(in: code, range: range) {
                guard let found = Range(match.range(at: 1), in: code) else { continue }
                result.declaredIn[String(code[found]), default: []].insert(folder)
            }
            for match in name.matches(in: code, range: range) {
                guard let found = Range(match.range, in: code) else { continue }
                result.uses[folder, default: []].insert(String(code[found]))
            }
        }
        return result
    }

    /// `code` without its comments and the contents of its string literals (a message that
    /// says "Server-Timing" names no type).
    static func strippingCommentsAndStrings(_ code: String) -> String {
        var out = ""
        var lines = code.split(separator: "\n", omittingEmptySubsequences: false).makeIterator()
        var inBlockComment = false
        var inMultilineString = false
        while let line = lines.next() {
            var text = Substring(line)
            if inMultilineString {
                guard let end = text.range(of: "\"\"\"") else { continue }
                inMultilineString = false
                text = text[end.upperBound...]
            }
            var kept = ""
            var index = text.startIndex
            var inString = false
            while index < text.endIndex {
                let rest = text[index...]
                if inBlockComment {
                    if rest.hasPrefix("*/") {
                        inBlockComment = false
                        index = text.index(index, offsetBy: 2)
                    } else {
                        index = text.index(after: index)
                    }
                    continue
                }
                if inString {
                    if rest.hasPrefix("\\") {
                        index = text.index(index, offsetBy: 2, limitedBy: text.endIndex) ?? text.endIndex
                    } else {
                        if text[index] == "\"" { inString = false }
                        index = text.index(after: index)
                    }
                    continue
                }
                if rest.hasPrefix("//") { break }
                if rest.hasPrefix("/*") {
                    inBlockComment = true
                    index = text.index(index, offsetBy: 2)
                    continue
                }
                if rest.hasPrefix("\"\"\"") {
                    inMultilineString = true
                    break
                }
                if text[index] == "\"" { inString = true }
                kept.append(text[index])
                index = text.index(after: index)
            }
            out += kept + "\n"
        }
        return out
    }

    /// Edges `from → to` with a name that makes each, and every cycle among them.
    static func cycles(in target: Target) -> [String] {
        var edges: [String: [String: String]] = [:]
        for (folder, names) in target.uses {
            for name in names.sorted() {
                guard let homes = target.declaredIn[name], !homes.contains(folder) else { continue }
                for home in homes where edges[folder]?[home] == nil { edges[folder, default: [:]][home] = name }
            }
        }
        func path(from start: String, to goal: String) -> [String]? {
            var previous: [String: String] = [start: start]
            var queue = [start]
            while !queue.isEmpty {
                let next = queue.removeFirst()
                if next == goal {
                    var steps = [goal]
                    while let last = steps.last, last != start, let before = previous[last] { steps.append(before) }
                    return steps.reversed()
                }
                for target in (edges[next] ?? [:]).keys.sorted() where previous[target] == nil {
                    previous[target] = next
                    queue.append(target)
                }
            }
            return nil
        }
        var found: [String] = []
        for (from, targets) in edges.sorted(by: { $0.key < $1.key }) {
            for (to, name) in targets.sorted(by: { $0.key < $1.key }) {
                guard let back = path(from: to, to: from) else { continue }
                let steps = zip(back, back.dropFirst()).map { "\($0) → \($1) (\(edges[$0]?[$1] ?? "?"))" }
                found.append("\(from) → \(to) (\(name)), and back: " + steps.joined(separator: ", "))
            }
        }
        return found
    }

    func testNoFolderDependsOnAFolderThatDependsBack() throws {
        let sources = TestSupport.packageRoot.appendingPathComponent("Sources")
        var checked = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() {
            let target = sources.appendingPathComponent(name)
            let folders = Set((try? FileManager.default.contentsOfDirectory(atPath: target.path)) ?? [])
            guard folders.contains(where: { !$0.hasSuffix(".swift") && !$0.hasPrefix(".") && $0 != "include" }) else { continue }
            let found = Self.cycles(in: try Self.read(target))
            XCTAssertEqual(found, [], "\(name): folders that depend on each other:\n" + found.joined(separator: "\n"))
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 8, "the targets with folders")
    }

    /// The input seam: in the parsing target only the XML front end speaks libxml2; the
    /// builder, the dialects and the other front ends take bytes.
    func testOnlyTheXMLFrontEndImportsLibxml2() throws {
        let parsing = TestSupport.packageRoot.appendingPathComponent("Sources/AuditParsing")
        let files =
            FileManager.default.enumerator(at: parsing, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        XCTAssertGreaterThan(files.count, 20)
        for file in files where !file.path.contains("/AuditParsing/XML/") {
            let code = try String(contentsOf: file, encoding: .utf8)
            XCTAssertFalse(code.contains("import CLibXML2"), file.lastPathComponent)
            XCTAssertFalse(code.contains("xmlChar"), file.lastPathComponent)
        }
    }

    /// The check itself finds a cycle: two folders naming each other's types, and one of
    /// three, whatever comments and strings say.
    func testACycleIsFound() {
        var target = Target()
        target.declaredIn = ["Server": ["Server"], "Handler": ["Handlers"], "Metrics": ["Metrics"]]
        target.uses = ["Server": ["Handler"], "Handlers": ["Metrics"], "Metrics": ["Server"]]
        XCTAssertEqual(Self.cycles(in: target).count, 3)
        target.uses["Metrics"] = []
        XCTAssertEqual(Self.cycles(in: target), [])
        let stripped = Self.strippingCommentsAndStrings("let a = Server() // Handler\nlet b = \"Metrics \\\"Handler\\\"\" /* Handler */\n")
        XCTAssertTrue(stripped.contains("Server"))
        XCTAssertFalse(stripped.contains("Handler"))
        XCTAssertFalse(stripped.contains("Metrics"))
    }
}
