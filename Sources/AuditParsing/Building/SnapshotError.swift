/// Why a snapshot could not be read at all: where, what, and how to fix it.
///
/// Values that merely cannot be read do not raise this; they become
/// `snapshot.invalid-value` findings and the rest is audited.
public struct SnapshotError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Stable, machine-readable causes (the `code` of the daemon's JSON error).
    public enum Code: String, Sendable {
        case empty = "empty-snapshot"
        case malformed = "malformed-xml"
        case unsupportedRoot = "unsupported-root"
        /// Another syntax than the front ends read (JSON).
        case unsupportedSyntax = "unsupported-syntax"
        case missingVersion = "missing-version"
        case unsupportedVersion = "unsupported-version"
        case doctypeForbidden = "doctype-forbidden"
        case tooDeep = "too-deep"
        case tooLarge = "too-large"
        case tooManyElements = "too-many-elements"
    }

    public var code: Code
    public var message: String
    /// 1-based line and column of the problem; 0 when unknown.
    public var line: Int
    public var column: Int
    /// One sentence on how to fix it.
    public var hint: String

    public init(code: Code, message: String, line: Int, column: Int, hint: String) {
        self.code = code
        self.message = message
        self.line = line
        self.column = column
        self.hint = hint
    }

    /// `line:column: message (hint)`, the form editors jump to when prefixed by a file name.
    public var description: String {
        "\(line):\(column): \(message)" + (hint.isEmpty ? "" : " — \(hint)")
    }
}
