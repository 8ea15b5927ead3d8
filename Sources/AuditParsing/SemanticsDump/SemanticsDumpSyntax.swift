import Foundation

/// Flutter's semantics tree as text (``SemanticsDumpReader``): a second front end beside
/// XML. It hands the builder the same neutral events XML's does — a root element
/// `<flutter-semantics>`, then each node as a `SemanticsNode` element whose attributes are
/// its properties by name (`rect`, `scale` or `transform`, `flags`, `actions`, `label`,
/// `merge-boundary`…), with the node's own line and column — and
/// ``FlutterSemanticsDialect`` says what they mean.
enum SemanticsDumpSyntax: SnapshotSyntax {
    /// The root element's name, which ``FlutterSemanticsDialect`` recognises.
    static let rootName = "flutter-semantics"
    static let nodeName = "SemanticsNode"

    static func recognises(_ bytes: UnsafeRawBufferPointer) -> Bool { SemanticsDumpReader.recognises(bytes) }

    static func read(_ bytes: UnsafeRawBufferPointer, into builder: SnapshotBuilder) throws(SnapshotError) {
        let nodes = SemanticsDumpReader.nodes(in: bytes, limit: builder.options.maxElements)
        guard let first = nodes.first else {
            throw SnapshotError(
                code: .empty, message: "the semantics dump holds no SemanticsNode", line: 1, column: 1,
                hint: "send the whole output of debugDumpSemanticsTree(), from its first line SemanticsNode#0")
        }
        let names = InternedNames()
        builder.cursor = ParseCursor(consumed: first.offset, line: first.line, column: 1)
        names.start(rootName, SemanticsDumpReader.isAndroidLog(bytes) ? [("platform", "android")] : [], in: builder)
        var depth = 0
        for node in nodes {
            while depth > node.depth {
                builder.endElement()
                depth -= 1
            }
            if builder.stopRequested.load(ordering: .acquiring) { break }
            builder.cursor = ParseCursor(consumed: node.offset, line: node.line, column: node.column)
            names.start(nodeName, [("id", node.id)] + node.properties, in: builder)
            depth += 1
        }
        while depth > 0 {
            builder.endElement()
            depth -= 1
        }
        builder.endElement()
        if let error = builder.error { throw error }
    }
}

/// The names of one document's elements and attributes, each stored once as NUL-terminated
/// bytes at an address that stays the same (the builder's contract: it caches by address),
/// freed with the document.
final class InternedNames {
    private var stored: [String: UnsafeMutablePointer<UInt8>] = [:]

    func pointer(_ name: String) -> UnsafeMutablePointer<UInt8> {
        if let known = stored[name] { return known }
        let bytes = Array(name.utf8) + [0]
        let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
        pointer.initialize(from: bytes, count: bytes.count)
        stored[name] = pointer
        return pointer
    }

    /// Hands `builder` a start tag named `name` with `attributes`, laid out as its
    /// ``AttributeList`` reads them (five pointers each; the values' bytes live for the call).
    func start(_ name: String, _ attributes: [(name: String, value: String)], in builder: SnapshotBuilder) {
        var values: [UInt8] = []
        var ranges: [(Int, Int)] = []
        for attribute in attributes {
            let start = values.count
            values += attribute.value.utf8
            ranges.append((start, values.count))
        }
        let element = UnsafePointer(pointer(name))
        let slots = UnsafeMutablePointer<UnsafePointer<UInt8>?>.allocate(capacity: max(1, attributes.count * 5))
        defer { slots.deallocate() }
        values.append(0)
        values.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for (index, attribute) in attributes.enumerated() {
                let slot = slots + index * 5
                slot[0] = UnsafePointer(pointer(attribute.name))
                slot[1] = nil
                slot[2] = nil
                slot[3] = base + ranges[index].0
                slot[4] = base + ranges[index].1
            }
            builder.startElement(name: element, attributeCount: attributes.count, attributes: slots)
        }
    }

    deinit {
        for pointer in stored.values { pointer.deallocate() }
    }
}
