/// The cost libxml2's step limit does not count: merging node sets. A step along
/// `following`, `preceding` or a sibling axis, taken from every node of a set
/// (`//*/following::*`), gives each context node its own result, and libxml2 merges
/// each into the total while removing duplicates by comparing every new node with every
/// node already there — about N³/6 comparisons for N nodes, none of them counted in
/// `opLimit` (2,000 flat elements: 1.3 billion comparisons, 4 s). This estimate is taken
/// from the expression's shape and the document's size before evaluation, and an
/// expression over the limit is not evaluated (its rule is reported incomplete).
package enum XPathMergeCost {
    package enum Axis: Equatable {
        /// `following` or `preceding`: up to every node of the document per context node.
        case document
        /// `following-sibling` or `preceding-sibling`: up to every sibling.
        case siblings
    }

    /// What merging costs on one document.
    package struct DocumentShape {
        /// Elements in the document.
        package var elements: Int
        /// Σ k³/6 over every parent with k element children.
        package var siblingCubes: Double

        var documentCube: Double { Double(elements) * Double(elements) * Double(elements) / 6 }
    }

    /// The estimated comparisons of `expression` on `shape`.
    static func estimate(_ expression: String, on shape: DocumentShape) -> Double {
        mergingSteps(in: expression).reduce(0) { total, axis in
            total + (axis == .document ? shape.documentCube : shape.siblingCubes)
        }
    }

    /// The steps of `expression` along an ordered axis taken from a set of many context
    /// nodes, whose result per context node is not cut to one position (`[1]`).
    package static func mergingSteps(in expression: String) -> [Axis] {
        let bytes = Array(expression.utf8)
        var steps: [Axis] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                index = (bytes[(index + 1)...].firstIndex(of: byte) ?? bytes.count) + 1
                continue
            }
            guard isNameByte(byte), index == 0 || !isNameByte(bytes[index - 1]) else {
                index += 1
                continue
            }
            var end = index
            while end < bytes.count, isNameByte(bytes[end]) { end += 1 }
            let name = String(decoding: bytes[index..<end], as: UTF8.self)
            var after = skipSpaces(bytes, from: end)
            guard after + 1 < bytes.count, bytes[after] == UInt8(ascii: ":"), bytes[after + 1] == UInt8(ascii: ":") else {
                index = end
                continue
            }
            let axis: Axis? =
                switch name {
                case "following", "preceding": .document
                case "following-sibling", "preceding-sibling": .siblings
                default: nil
                }
            after += 2
            if let axis, fromManyNodes(bytes, stepStart: index), !hasPositionalPredicate(bytes, afterAxis: after) {
                steps.append(axis)
            }
            index = after
        }
        return steps
    }

    /// Whether the step starting at `stepStart` is taken from a set that may hold many
    /// nodes: it follows `//`, or a `/` after another step or a bracket. The first step
    /// of a relative path (a predicate's) starts from one node, and `/step` from the root.
    static func fromManyNodes(_ bytes: [UInt8], stepStart: Int) -> Bool {
        var position = stepStart - 1
        while position >= 0, bytes[position] == 0x20 || bytes[position] == 0x09 { position -= 1 }
        guard position >= 0, bytes[position] == UInt8(ascii: "/") else { return false }
        if position > 0, bytes[position - 1] == UInt8(ascii: "/") { return true }
        var before = position - 1
        while before >= 0, bytes[before] == 0x20 || bytes[before] == 0x09 { before -= 1 }
        guard before >= 0 else { return false }
        let previous = bytes[before]
        if previous == UInt8(ascii: ".") {
            // `..` is the parents of a set; `.` is the set before it.
            if before > 0, bytes[before - 1] == UInt8(ascii: ".") { return true }
            return fromManyNodes(bytes, stepStart: before)
        }
        if isNameByte(previous) {
            // `/snapshot/following::*`: the document has one root element, so a first
            // step by name from the root is one node.
            var start = before
            while start > 0, isNameByte(bytes[start - 1]) { start -= 1 }
            return !isRootChild(bytes, stepStart: start)
        }
        return previous == UInt8(ascii: "]") || previous == UInt8(ascii: ")") || previous == UInt8(ascii: "*")
    }

    /// Whether the step at `stepStart` is the first of an absolute path (`/name`).
    static func isRootChild(_ bytes: [UInt8], stepStart: Int) -> Bool {
        var position = stepStart - 1
        while position >= 0, bytes[position] == 0x20 || bytes[position] == 0x09 { position -= 1 }
        guard position >= 0, bytes[position] == UInt8(ascii: "/") else { return false }
        var before = position - 1
        while before >= 0, bytes[before] == 0x20 || bytes[before] == 0x09 { before -= 1 }
        guard before >= 0 else { return true }
        return [UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "|"), UInt8(ascii: ","), UInt8(ascii: "=")].contains(bytes[before])
    }

    /// Whether the node test after the axis is followed by `[digits]` or `[last()]`.
    static func hasPositionalPredicate(_ bytes: [UInt8], afterAxis start: Int) -> Bool {
        var index = skipSpaces(bytes, from: start)
        while index < bytes.count, isNameByte(bytes[index]) || bytes[index] == UInt8(ascii: "*") || bytes[index] == UInt8(ascii: ":") { index += 1 }
        if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "("), bytes[index + 1] == UInt8(ascii: ")") { index += 2 }
        index = skipSpaces(bytes, from: index)
        guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { return false }
        guard let close = bytes[index...].firstIndex(of: UInt8(ascii: "]")) else { return false }
        let inside = String(decoding: bytes[(index + 1)..<close], as: UTF8.self).filter { $0 != " " }
        return inside == "last()" || (!inside.isEmpty && inside.allSatisfy { ("0"..."9").contains($0) })
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"), 0x80...:
            true
        default: false
        }
    }

    static func skipSpaces(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D { index += 1 }
        return index
    }
}
