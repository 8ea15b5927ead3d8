/// Why a history could not be read: what went wrong, and how to fix it when known.
package struct HistoryError: Error, CustomStringConvertible {
    package let message: String
    package let hint: String?

    package init(_ message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }

    package var description: String { message + (hint.map { " (\($0))" } ?? "") }
}
