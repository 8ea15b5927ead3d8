@testable import AuditCore
@testable import AuditRules
import XCTest

/// `RectIndex.first` (the R-tree the target rules search) against a scan of every item:
/// it finds a match exactly when one exists, and the match it returns is the first of the
/// tree's order — its nodes' children in their stored order, depth first, read here from
/// the nodes by a recursion of the test's own. Pruned branches must hold nothing the
/// match accepts, and testing children before pushing them must not change the order
/// they are visited in.
final class RectIndexTests: XCTestCase {
    func testTheFirstMatchIsTheFirstEligibleItemInTheTreesOrder() {
        var random = SeededGenerator()
        let seed = random.seed
        for count in [0, 1, 7, 8, 9, 64, 65, 600, 3_000] {
            // Nested ranges as a document's subtrees make them: item i's subtree ends at or
            // after i + 1. Frames: small boxes, thin bars, huge ones and repeats.
            var items: [RectIndex.Item] = []
            for index in 0..<count {
                let rect: Rect
                switch random.below(5) {
                case 0 where !items.isEmpty: rect = items[random.below(items.count)].rect
                case 1: rect = Rect(x: Double(random.below(400)), y: Double(random.below(900)), width: Double(random.below(300) + 1), height: 0.5)
                case 2: rect = Rect(x: 0, y: Double(random.below(900)), width: 4_000, height: Double(random.below(2_000) + 1))
                default: rect = Rect(x: Double(random.below(400)), y: Double(random.below(900)), width: Double(random.below(60) + 1), height: Double(random.below(60) + 1))
                }
                items.append(RectIndex.Item(index: index, end: min(count, index + 1 + random.below(4) * random.below(4)), rect: rect))
            }
            let index = RectIndex(items)
            let order = Self.treeOrder(index)
            XCTAssertEqual(order.sorted(), Array(0..<count), "seed \(seed) count \(count): every item in one leaf")
            for query in 0..<300 {
                let frame = Rect(
                    x: Double(random.below(450)) - 20, y: Double(random.below(950)) - 20,
                    width: Double(random.below(120)), height: Double(random.below(120)))
                let position = random.below(max(count, 1) + 1)
                let minimum = Double(random.below(4)) * 10
                for touching in [false, true] {
                    // Every item that meets the query, in the order the tree visits them.
                    var visited: [Int] = []
                    _ = index.first(meeting: frame, touching: touching, branch: { _ in true }) { item in
                        visited.append(item.index)
                        return false
                    }
                    let meeting = items.filter { Self.meets($0.rect, frame, touching: touching) }.map(\.index)
                    XCTAssertEqual(visited.sorted(), meeting, "seed \(seed) count \(count) query \(query): every meeting item once")
                    XCTAssertEqual(
                        visited, order.filter { Self.meets(items[$0].rect, frame, touching: touching) }, "seed \(seed) count \(count) query \(query): in the tree's order")
                    // Target-spacing's question: an earlier item that is not an ancestor,
                    // with a branch summary that prunes exactly what the match refuses.
                    let eligible = { (item: RectIndex.Item) in item.end <= position && item.rect.width * item.rect.height >= minimum }
                    let found = index.first(
                        meeting: frame, touching: touching,
                        branch: { $0.minEnd <= position && $0.maxWidth * $0.maxHeight >= minimum }, match: eligible)
                    let expected = visited.first { eligible(items[$0]) }
                    XCTAssertEqual(found?.index, expected, "seed \(seed) count \(count) query \(query) touching \(touching)")
                    // Target-size's: a later item that is not a descendant, or an earlier one.
                    let end = min(count, position + 1)
                    let laterOrEarlier = { (item: RectIndex.Item) in item.end <= position || item.index >= end }
                    let other = index.first(
                        meeting: frame, touching: touching,
                        branch: { $0.minEnd <= position || $0.maxIndex >= end }, match: laterOrEarlier)
                    XCTAssertEqual(other?.index, visited.first { laterOrEarlier(items[$0]) }, "seed \(seed) count \(count) query \(query)")
                }
            }
        }
    }

    /// The items' element indexes, depth first, each node's children in stored order.
    static func treeOrder(_ index: RectIndex) -> [Int] {
        var order: [Int] = []
        func visit(_ id: Int) {
            let node = index.nodes[id]
            let range = Int(node.first)..<Int(node.first + node.count)
            if node.isLeaf {
                order += range.map { index.items[$0].index }
            } else {
                for child in range { visit(child) }
            }
        }
        if index.root >= 0 { visit(index.root) }
        return order
    }

    static func meets(_ rect: Rect, _ query: Rect, touching: Bool) -> Bool {
        touching
            ? rect.minX <= query.maxX && query.minX <= rect.maxX && rect.minY <= query.maxY && query.minY <= rect.maxY
            : rect.minX < query.maxX && query.minX < rect.maxX && rect.minY < query.maxY && query.minY < rect.maxY
    }
}
