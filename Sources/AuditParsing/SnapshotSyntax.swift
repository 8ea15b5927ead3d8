/// The syntax a capture is written in, apart from what its elements mean: a front end reads
/// the bytes and calls the ``SnapshotBuilder``'s events — ``SnapshotBuilder/startElement(name:attributeCount:attributes:)``
/// and ``SnapshotBuilder/endElement()`` in document order, after setting its ``SnapshotBuilder/cursor``
/// to where the event is — and the document's dialect, recognised from the root element,
/// builds the snapshot from them. The builder's contract with a front end:
///
/// - element names are NUL-terminated bytes at an address that is the same for every
///   occurrence of the name in one document (interned, as libxml2's dictionary does: the
///   builder and the dialects cache by address);
/// - attributes come as an array of five pointers each (local name, prefix, namespace,
///   value start, value end: libxml2's SAX2 layout, read through ``AttributeList``), the
///   names interned as element names are;
/// - a front end stops when ``SnapshotBuilder/stopRequested`` is set, and reports its own
///   syntax errors as ``SnapshotError``s with line, column and a hint.
///
/// XML through libxml2 (``XMLSyntax``) is the one front end today; a JSON capture (an
/// Accessibility Insights `result_v2`, ATF's hierarchy) would be a second, with its own
/// dialect for what its members mean.
protocol SnapshotSyntax: Sendable {
    /// Whether `bytes` are written in this syntax, from their first bytes.
    static func recognises(_ bytes: UnsafeRawBufferPointer) -> Bool
    /// Reads `bytes` into `builder`'s events.
    static func read(_ bytes: UnsafeRawBufferPointer, into builder: SnapshotBuilder) throws(SnapshotError)
}

/// XML, read by libxml2's SAX2 parser (``SAXDriver``).
enum XMLSyntax: SnapshotSyntax {
    /// A `<` first, after blanks and a byte-order mark (UTF-8's, UTF-16's).
    static func recognises(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) { return true }
        guard let first = bytes[start...].first(where: { !ValueScanner.isBlank($0) }) else { return false }
        return first == UInt8(ascii: "<")
    }

    static func read(_ bytes: UnsafeRawBufferPointer, into builder: SnapshotBuilder) throws(SnapshotError) {
        try SAXDriver.run(bytes: bytes, builder: builder)
    }
}

/// The registered front ends, tried in order on a document's first bytes.
enum SnapshotSyntaxes {
    static let all: [any SnapshotSyntax.Type] = [
        XMLSyntax.self
    ]

    static func recognising(_ bytes: UnsafeRawBufferPointer) -> (any SnapshotSyntax.Type)? {
        all.first { $0.recognises(bytes) }
    }
}
