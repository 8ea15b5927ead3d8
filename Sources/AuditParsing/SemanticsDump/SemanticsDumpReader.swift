/// Reads the text Flutter prints for its semantics tree — `debugDumpSemanticsTree()`, the
/// `ext.flutter.debugDumpSemanticsTreeInTraversalOrder` service extension, a test's
/// `toStringDeep()` — into nodes with their properties, as Flutter's `SemanticsNode`
/// writes them (`debugFillProperties`, `packages/flutter/lib/src/semantics/semantics.dart`):
///
/// ```
/// SemanticsNode#0
///  │ Rect.fromLTRB(0.0, 0.0, 1206.0, 2622.0)
///  └─SemanticsNode#1
///    │ Rect.fromLTRB(0.0, 0.0, 402.0, 874.0) scaled by 3.0x
///    └─SemanticsNode#8
///        merge boundary ⛔️
///        Rect.fromLTRB(0.0, 0.0, 56.0, 56.0) with transform
///        [[1.0,0.0,0.0,330.0]; [0.0,1.0,0.0,768.0]; [0.0,0.0,1.0,0.0];
///        [0.0,0.0,0.0,1.0]]
///        tooltip: "Increment"
/// ```
///
/// A node's line is `SemanticsNode#ID` after the tree's drawing characters; its parent is
/// the nearest node above it whose name starts further left. Its properties follow, one a
/// line: `name: value` (a quoted value may run over several lines: a label with line
/// breaks), bare words (`merge boundary ⛔️`, `merged up ⬆️`, `invisible`, `HIDDEN`), and
/// its rectangle with how it maps to its parent's space (`scaled by 3.0x`, or `with
/// transform` and the matrix's rows, wrapped as the printer pleases). Nothing is guessed:
/// what is read is handed on by name, and the dialect says what it means.
struct SemanticsDumpReader {
    /// One node as the dump gives it.
    struct Node {
        var id: String
        /// Where its `SemanticsNode#` line is: 1-based line, and column in code points.
        var line: Int
        var column: Int
        /// Byte offset of its line.
        var offset: Int
        /// Its depth in the tree (0: the root).
        var depth: Int
        /// Its properties in the order given; bare words with the value `true`.
        var properties: [(name: String, value: String)] = []
    }

    /// The characters that draw the tree, before a node's name or a property.
    static let drawing: Set<Unicode.Scalar> = [" ", "│", "├", "└", "─", "┌", "╎", "║", "╘", "═", "\t"]

    /// Bare words and the property each stands for.
    static let words: [String: String] = [
        "merge boundary": "merge-boundary", "merged up": "merged-up", "invisible": "invisible",
        "HIDDEN": "hidden", "STALE": "stale", "dirty": "dirty",
    ]

    /// Whether `bytes` begin (after blanks, and the log prefix `flutter run` prints) with a
    /// semantics node's name.
    static func recognises(_ bytes: UnsafeRawBufferPointer) -> Bool {
        withoutLogPrefix(Substring(head(of: bytes))).hasPrefix("SemanticsNode#")
    }

    /// The first 64 bytes of `bytes` after a byte-order mark and blanks, as text.
    static func head(of bytes: UnsafeRawBufferPointer) -> String {
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        while start < bytes.count, ValueScanner.isBlank(bytes[start]) { start += 1 }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<min(bytes.count, start + 64)]), as: UTF8.self)
    }

    /// Whether the dump's lines carry Android's logcat prefix (`I/flutter (25790): `).
    static func isAndroidLog(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let head = head(of: bytes)
        return !head.hasPrefix("flutter: ") && withoutLogPrefix(Substring(head)).count < head.count
    }

    /// A line without the prefix a console gives Flutter's output: Android's logcat tag
    /// (`I/flutter (25790): `) or iOS's and macOS's (`flutter: `).
    static func withoutLogPrefix(_ line: Substring) -> Substring {
        if line.hasPrefix("flutter: ") { return line.dropFirst("flutter: ".count) }
        guard line.count > 10, line.dropFirst().hasPrefix("/flutter"), let close = line.firstIndex(of: ")") else { return line }
        let rest = line[line.index(after: close)...]
        guard rest.hasPrefix(":") else { return line }
        return rest.dropFirst(rest.hasPrefix(": ") ? 2 : 1)
    }

    /// The nodes of `text` in document order; `limit` bounds how many are read.
    static func nodes(in bytes: UnsafeRawBufferPointer, limit: Int) -> [Node] {
        var nodes: [Node] = []
        var columns: [Int] = []  // the open nodes' name columns, root first
        var pending: (name: String, value: String)?  // a quoted value not yet closed
        var matrix: String?  // a transform's rows not yet closed
        var propertyLead: Int?  // where the current node's last property line starts
        var offset = 0
        var lineNumber = 0
        while offset < bytes.count, nodes.count <= limit {
            let end = bytes[offset...].firstIndex(of: 0x0A) ?? bytes.count
            lineNumber += 1
            defer { offset = end + 1 }
            var raw = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self)
            if raw.hasSuffix("\r") { raw.removeLast() }
            raw = String(withoutLogPrefix(Substring(raw)))
            let scalars = raw.unicodeScalars
            let lead = scalars.prefix { drawing.contains($0) }.count
            let content = String(String.UnicodeScalarView(scalars.dropFirst(lead))).trimmingSuffixBlanks()
            if var open = pending, !nodes.isEmpty {
                // A quoted value goes on, line by line, to its closing quote.
                open.value += (open.value.isEmpty ? "" : "\n") + content
                if content.hasSuffix("\""), open.value.count > 1 || content != "\"" {
                    nodes[nodes.count - 1].properties.append((open.name, unquoted(open.value)))
                    pending = nil
                } else {
                    pending = open
                }
                continue
            }
            if let rows = matrix, !nodes.isEmpty {
                let joined = rows + content
                if joined.hasSuffix("]]") {
                    nodes[nodes.count - 1].properties.append(("transform", matrixNumbers(joined)))
                    matrix = nil
                } else {
                    matrix = joined
                }
                continue
            }
            guard !content.isEmpty else { continue }
            if content.hasPrefix("SemanticsNode#") {
                while let last = columns.last, last >= lead { columns.removeLast() }
                let id = String(content.dropFirst("SemanticsNode#".count).prefix { $0.isNumber })
                nodes.append(Node(id: id, line: lineNumber, column: lead + 1, offset: offset, depth: columns.count))
                columns.append(lead)
                propertyLead = nil
                continue
            }
            guard !nodes.isEmpty else { continue }
            // A property the printer wrapped goes on further right than it began.
            if let start = propertyLead, lead > start, let last = nodes[nodes.count - 1].properties.indices.last {
                nodes[nodes.count - 1].properties[last].value += " " + content
                continue
            }
            propertyLead = lead
            if content.hasPrefix("Rect.fromLTRB(") {
                let inside = content.dropFirst("Rect.fromLTRB(".count)
                guard let close = inside.firstIndex(of: ")") else { continue }
                nodes[nodes.count - 1].properties.append(("rect", inside[..<close].filter { $0 != " " }))
                let rest = inside[inside.index(after: close)...].trimmingCharacters(in: " ")
                if rest.hasPrefix("scaled by ") {
                    let factor = rest.dropFirst("scaled by ".count).prefix { $0.isNumber || $0 == "." }
                    nodes[nodes.count - 1].properties.append(("scale", String(factor)))
                } else if rest.hasPrefix("with transform") {
                    let rows = String(rest.dropFirst("with transform".count)).trimmingCharacters(in: " ")
                    if rows.hasSuffix("]]") {
                        nodes[nodes.count - 1].properties.append(("transform", matrixNumbers(rows)))
                    } else {
                        matrix = rows
                    }
                }
                continue
            }
            if let colon = content.range(of: ":"), !content[..<colon.lowerBound].contains(" ") {
                let name = String(content[..<colon.lowerBound])
                let value = content[colon.upperBound...].trimmingCharacters(in: " ")
                if value.isEmpty || (value.hasPrefix("\"") && (value.count == 1 || !value.hasSuffix("\""))) {
                    pending = (name, value)
                } else {
                    nodes[nodes.count - 1].properties.append((name, unquoted(value)))
                }
                continue
            }
            // A bare word, with the emoji Flutter adds to some ("merge boundary ⛔️").
            let word = String(content.unicodeScalars.filter { $0.isASCII }).trimmingCharacters(in: " ")
            if let property = words[word] { nodes[nodes.count - 1].properties.append((property, "true")) }
        }
        return nodes
    }

    /// A quoted value without its quotes.
    static func unquoted(_ value: String) -> String {
        guard value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") else { return value }
        return String(value.dropFirst().dropLast())
    }

    /// A matrix's rows (`[[1.0,0.0,0.0,330.0]; [0.0,1.0,…]]`) as its sixteen numbers in
    /// row order, comma-separated.
    static func matrixNumbers(_ rows: String) -> String {
        rows.split { $0 == "[" || $0 == "]" || $0 == ";" || $0 == "," || $0 == " " }.joined(separator: ",")
    }
}

extension StringProtocol {
    fileprivate func trimmingCharacters(in blank: Character) -> String {
        String(drop { $0 == blank }.reversed().drop { $0 == blank }.reversed())
    }

    fileprivate func trimmingSuffixBlanks() -> String {
        String(reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
