import AuditCore
import XCTest

/// `target-spacing`, `target-duplicate` and `target-size` answer from an R-tree that prunes by subtree,
/// area and position; here they are checked against the plain definition — every pair
/// compared — on seeded random screens with nesting, identical frames, thin bars and
/// crowded cells.
final class GeometryDifferentialTests: XCTestCase {
    /// A screen of `count` targets: random nesting, some identical frames, some thin bars.
    static func screen(_ random: inout SeededGenerator, count: Int) -> String {
        var out = ""
        var open = 0
        var frames: [String] = []
        for index in 0..<count {
            let frame: String
            switch random.below(6) {
            case 0 where !frames.isEmpty: frame = frames[random.below(frames.count)]
            case 1: frame = "\(random.below(300)),\(random.below(300)),\(random.below(200) + 1),0.5"
            case 2: frame = "\(random.below(300)),\(random.below(300)),0.5,\(random.below(200) + 1)"
            default: frame = "\(random.below(300)),\(random.below(300)),\(random.below(40) + 4),\(random.below(40) + 4)"
            }
            frames.append(frame)
            out += #"<element id="e\#(index)" role="button" label="B\#(index)" frame="\#(frame)">"#
            open += 1
            // Close a few levels at random: depth varies from flat to a chain.
            var closing = random.below(3)
            while closing > 0, open > 0 {
                out += "</element>"
                open -= 1
                closing -= 1
            }
        }
        out += String(repeating: "</element>", count: open)
        return TestSupport.native(out)
    }

    static func flagged(_ rule: any Rule.Type, _ snapshot: Snapshot, parameters: [String: JSON] = [:]) -> [Int: String] {
        var result: [Int: String] = [:]
        for finding in rule.run(on: snapshot, parameters: parameters).findings { if let element = finding.element { result[element] = finding.resultID } }
        return result
    }

    static func isAncestor(_ a: Int, of b: Int, in snapshot: Snapshot) -> Bool { snapshot.ancestors(of: b).contains(a) }

    func testTargetSpacingMatchesEveryPairCompared() throws {
        var random = SeededGenerator()
        let seed = random.seed
        for round in 0..<40 {
            let snapshot = try TestSupport.parse(Self.screen(&random, count: 60 + round * 5))
            let targets = Targets.all(in: snapshot)
            var expected: [Int: String] = [:]
            var duplicates = Set<Int>()
            for (position, target) in targets.enumerated() {
                // target-duplicate: any earlier target of the same bounds, nested or not.
                if targets[..<position].contains(where: { $0.frame == target.frame }) { duplicates.insert(target.index) }
                // A target with an earlier twin of the same bounds that is not its ancestor is
                // target-duplicate's alone.
                if targets[..<position].contains(where: { $0.frame == target.frame && !Self.isAncestor($0.index, of: target.index, in: snapshot) }) {
                    continue
                }
                for other in targets[..<position] where !Self.isAncestor(other.index, of: target.index, in: snapshot) {
                    if other.frame == target.frame { continue }
                    let overlap =
                        (min(target.frame.maxX, other.frame.maxX) - max(target.frame.minX, other.frame.minX))
                        * (min(target.frame.maxY, other.frame.maxY) - max(target.frame.minY, other.frame.minY))
                    // The rule's definition, written out: at least 1 pt² and a tenth of the
                    // smaller target; neither holding all of the other (a layer beneath), nor
                    // one frame but for a sliver (nine tenths of the larger shared); and the
                    // earlier one, painted below, left no strip of its own 24 pt each way.
                    let smaller = min(target.frame.width * target.frame.height, other.frame.width * other.frame.height)
                    let larger = max(target.frame.width * target.frame.height, other.frame.width * other.frame.height)
                    func holds(_ a: Rect, _ b: Rect) -> Bool { a.minX <= b.minX && a.minY <= b.minY && a.maxX >= b.maxX && a.maxY >= b.maxY }
                    let below = other.frame, above = target.frame
                    var strips: [(width: Double, height: Double)] = []
                    strips.append((above.minX - below.minX, below.height))
                    strips.append((below.maxX - above.maxX, below.height))
                    strips.append((below.width, above.minY - below.minY))
                    strips.append((below.width, below.maxY - above.maxY))
                    let keeps = strips.contains { $0.width >= 24 && $0.height >= 24 }
                    let nested = holds(other.frame, target.frame) || holds(target.frame, other.frame)
                    if target.frame.intersects(other.frame), overlap >= 1, overlap >= 0.1 * smaller, !nested, overlap < 0.9 * larger, !keeps {
                        expected[target.index] = expected[target.index] ?? "overlap"
                    }
                }
            }
            let got = Self.flagged(TargetSpacingRule.self, snapshot)
            XCTAssertEqual(Set(got.keys), Set(expected.keys), "seed \(seed) round \(round): flagged elements")
            XCTAssertEqual(Set(Self.flagged(TargetDuplicateRule.self, snapshot).keys), duplicates, "seed \(seed) round \(round): duplicates")
        }
    }

    func testTargetSizeSpacingExceptionMatchesEveryPairCompared() throws {
        var random = SeededGenerator()
        let seed = random.seed
        for round in 0..<40 {
            let snapshot = try TestSupport.parse(Self.screen(&random, count: 60 + round * 5))
            let targets = Targets.all(in: snapshot)
            let minimum = 24.0
            let undersized = Set(targets.filter { $0.frame.width < minimum || $0.frame.height < minimum }.map(\.index))
            var expected = Set<Int>()
            for target in targets where undersized.contains(target.index) {
                let center = (x: target.frame.midX, y: target.frame.midY)
                for other in targets
                where other.index != target.index
                    && !Self.isAncestor(other.index, of: target.index, in: snapshot) && !Self.isAncestor(target.index, of: other.index, in: snapshot)
                {
                    let nx = min(max(center.x, other.frame.minX), other.frame.maxX), ny = min(max(center.y, other.frame.minY), other.frame.maxY)
                    let toRect = ((nx - center.x) * (nx - center.x) + (ny - center.y) * (ny - center.y)).squareRoot()
                    let dx = other.frame.midX - center.x, dy = other.frame.midY - center.y
                    if toRect < minimum / 2 || (undersized.contains(other.index) && (dx * dx + dy * dy).squareRoot() < minimum) {
                        expected.insert(target.index)
                        break
                    }
                }
            }
            let got = Self.flagged(TargetSizeRule.self, snapshot).filter { $0.value == "too-small" }
            XCTAssertEqual(Set(got.keys), expected, "seed \(seed) round \(round)")
        }
    }

    /// Frames key the target rules' tables: equal frames hash alike (`-0.0` as `0.0`), and
    /// a table of random frames finds each one again and no other.
    func testEqualFramesHashAlike() {
        XCTAssertEqual(Rect(x: -0.0, y: 0, width: 10, height: 10), Rect(x: 0, y: -0.0, width: 10, height: 10))
        XCTAssertEqual(Rect(x: -0.0, y: 0, width: 10, height: 10).hashValue, Rect(x: 0, y: -0.0, width: 10, height: 10).hashValue)
        var random = SeededGenerator()
        let frames = (0..<2000).map { _ in
            Rect(x: Double(random.below(40)), y: Double(random.below(40)), width: Double(random.below(4)), height: Double(random.below(4)))
        }
        var table: [Rect: Int] = [:]
        for (position, frame) in frames.enumerated() where table[frame] == nil { table[frame] = position }
        XCTAssertEqual(table.count, Set(frames.map { "\($0.x),\($0.y),\($0.width),\($0.height)" }).count, "seed \(random.seed)")
        for frame in frames { XCTAssertEqual(table[frame].map { frames[$0] }, frame, "seed \(random.seed)") }
    }
}
