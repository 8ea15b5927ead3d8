/// Where the front end stood when it reported an event: bytes of the document consumed (for
/// the exact position of a start tag) and its own line and column (the fallback).
struct ParseCursor {
    var consumed = 0
    var line = 0
    var column = 0

    init(consumed: Int = 0, line: Int = 0, column: Int = 0) {
        self.consumed = consumed
        self.line = line
        self.column = column
    }
}
