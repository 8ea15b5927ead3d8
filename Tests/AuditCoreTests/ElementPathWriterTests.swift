@testable import AuditModel
import AuditParsing
import Foundation
import XCTest

/// Paths written one after another from the bytes of the path before (as the report
/// writer does) against each path spelt out plainly from its element's ancestors, in any
/// order and across snapshots.
final class ElementPathWriterTests: XCTestCase {
    /// The path by its definition: the root, then each ancestor's tag and place, then the
    /// element's own.
    func plainPath(of index: Int, in snapshot: Snapshot) -> String {
        let steps = (snapshot.ancestors(of: index).reversed() + [index]).map { step in
            "/\(snapshot.text(snapshot.elements[step].tagName) ?? "")[\(snapshot.elements[step].position)]"
        }
        return "\(snapshot.pathRoot)" + steps.joined()
    }

    /// A random native tree: up to `count` elements, nested up to 40 deep.
    func randomTree(_ random: inout SeededGenerator, count: Int) -> String {
        var xml = #"<snapshot version="1" platform="ios" width="390" height="844">"#
        var open = 0
        for index in 0..<count {
            if open > 0, random.below(3) == 0 {
                let closing = 1 + random.below(open)
                xml += String(repeating: "</element>", count: closing)
                open -= closing
            }
            xml += #"<element id="e\#(index)" role="button" label="E\#(index)" frame="0,0,50,50">"#
            open += 1
            if open > 40 || random.below(2) == 0 {
                xml += "</element>"
                open -= 1
            }
        }
        return xml + String(repeating: "</element>", count: open) + "</snapshot>"
    }

    func testPathsInAnyOrderAreThosePathOfWrites() throws {
        var random = SeededGenerator()
        let first = try SnapshotParser().parse(randomTree(&random, count: 400))
        let second = try SnapshotParser().parse(randomTree(&random, count: 300))
        var writer = ElementPathWriter()
        for round in 0..<3000 {
            // Mostly document order with repeats (as findings come), sometimes a jump or
            // the other snapshot.
            let snapshot = random.below(10) == 0 ? second : first
            let index = random.below(snapshot.elements.count)
            var written: [UInt8] = []
            writer.write(pathOf: index, in: snapshot, to: &written)
            XCTAssertEqual(String(decoding: written, as: UTF8.self), plainPath(of: index, in: snapshot), "seed \(random.seed), round \(round)")
        }
        // Document order, every element twice (two findings each).
        for index in first.elements.indices {
            for _ in 0..<2 {
                var written: [UInt8] = []
                writer.write(pathOf: index, in: first, to: &written)
                XCTAssertEqual(String(decoding: written, as: UTF8.self), plainPath(of: index, in: first))
            }
        }
    }

    /// uiautomator dumps' paths start at their own root and count `node` siblings.
    func testAnAndroidDumpsPathsAreItsOwn() throws {
        let dump =
            #"<?xml version="1.0"?><hierarchy rotation="0"><node class="android.widget.FrameLayout" bounds="[0,0][1080,2400]"><node class="android.widget.Button" text="A" bounds="[0,0][100,100]"/><node class="android.widget.Button" text="B" bounds="[0,100][100,200]"/></node></hierarchy>"#
        let snapshot = try SnapshotParser().parse(dump)
        var writer = ElementPathWriter()
        for index in snapshot.elements.indices.reversed() {
            var written: [UInt8] = []
            writer.write(pathOf: index, in: snapshot, to: &written)
            XCTAssertEqual(String(decoding: written, as: UTF8.self), plainPath(of: index, in: snapshot))
        }
        XCTAssertEqual(snapshot.path(of: 2), "/hierarchy/node[1]/node[2]")
    }
}
