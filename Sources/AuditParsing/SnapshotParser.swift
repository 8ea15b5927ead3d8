/// Parses a capture — XML in any of its dialects, or Flutter's semantics dump — into a
/// ``Snapshot``: the front end its first bytes name (``SnapshotSyntaxes``) hands the
/// builder its element events, and the dialect its root names decodes them.
///
/// XML: libxml2's SAX2 push parser reads the bytes from memory in chunks straight into flat
/// storage; no DOM is built. It never touches the network or the file system: document
/// type declarations are refused outright (so no entity can expand or load), depth and
/// size are bounded.
public struct SnapshotParser: Sendable {
    /// Limits and hints for one parse.
    public typealias Options = ParseOptions

    public var options: Options

    public init(options: Options = Options()) {
        self.options = options
        LibXML2.initialize()
    }

    /// Parses a whole document held in memory.
    public func parse(_ bytes: UnsafeRawBufferPointer) throws(SnapshotError) -> Snapshot {
        guard bytes.count <= options.maxBytes else {
            throw SnapshotError(
                code: .tooLarge, message: "snapshot is \(bytes.count) bytes, over the limit of \(options.maxBytes)",
                line: 0, column: 0, hint: "split the screen into smaller snapshots or raise the limit")
        }
        guard bytes.count > 0, bytes.contains(where: { !ValueScanner.isBlank($0) }) else {
            throw SnapshotError(
                code: .empty, message: "the snapshot is empty", line: 1, column: 1,
                hint: "send an XML document whose root is <snapshot version=\"1\">, <AppiumAUT> or <hierarchy>")
        }
        let (document, note) = Self.document(in: bytes)
        // Bytes no front end recognises are read as XML, whose parser says where they go
        // wrong — unless they are plainly another syntax.
        let syntax: any SnapshotSyntax.Type
        if let recognised = SnapshotSyntaxes.recognising(document) {
            syntax = recognised
        } else if let first = document.first(where: { !ValueScanner.isBlank($0) }), first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            throw SnapshotError(
                code: .unsupportedSyntax, message: "the snapshot is JSON; captures are read as XML", line: 1, column: 1,
                hint: "send the page source or dump as XML: <snapshot version=\"1\">, <AppiumAUT> or <hierarchy> (docs/dialects.md)")
        } else {
            syntax = XMLSyntax.self
        }
        let builder = SnapshotBuilder(options: options, source: document, dialects: SnapshotDialects.all)
        if let note { builder.notes.append(note) }
        try syntax.read(document, into: builder)
        return try builder.finish()
    }

    /// The XML document in `bytes`: all of them, or less when a dialect's tool writes text
    /// after its document (``SnapshotDialect/documentLength(_:)``), with the note saying so.
    package static func document(in bytes: UnsafeRawBufferPointer) -> (UnsafeRawBufferPointer, note: String?) {
        for dialect in SnapshotDialects.all {
            if let (length, note) = dialect.documentLength(bytes) {
                return (UnsafeRawBufferPointer(rebasing: bytes[0..<length]), note)
            }
        }
        return (bytes, nil)
    }

    /// Parses a document held in a byte array.
    public func parse(_ bytes: [UInt8]) throws(SnapshotError) -> Snapshot {
        let result: Result<Snapshot, SnapshotError> = bytes.withUnsafeBytes { buffer in
            do throws(SnapshotError) { return .success(try parse(buffer)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Parses a document given as a string.
    public func parse(_ text: String) throws(SnapshotError) -> Snapshot {
        try parse(Array(text.utf8))
    }
}
