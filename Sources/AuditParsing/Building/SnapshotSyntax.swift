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
