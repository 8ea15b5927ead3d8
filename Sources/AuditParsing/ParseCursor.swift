import CLibXML2

/// Where libxml2 stood when it reported an event: bytes of the document consumed (for
/// the exact position of a start tag) and its own line and column (the fallback).
struct ParseCursor {
    var consumed = 0
    var line = 0
    var column = 0

    /// The position of `context` now; `consumed` only when `withConsumed` (computing it
    /// walks the input for encodings other than UTF-8, where it is not used).
    init(_ context: xmlParserCtxtPtr, withConsumed: Bool) {
        if withConsumed { consumed = Int(xmlByteConsumed(context)) }
        if let input = context.pointee.input {
            line = Int(input.pointee.line)
            column = Int(input.pointee.col)
        }
    }

    init(consumed: Int = 0, line: Int = 0, column: Int = 0) {
        self.consumed = consumed
        self.line = line
        self.column = column
    }
}
