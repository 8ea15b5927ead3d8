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
        builder.tagLocator = SourcePositions(source: bytes)
        try SAXDriver.run(bytes: bytes, builder: builder)
    }
}
