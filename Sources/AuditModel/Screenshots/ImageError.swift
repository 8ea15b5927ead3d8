/// Why a screenshot was refused: what, and how to fix it.
public struct ImageError: Error, Sendable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// No bytes.
        case empty = "screenshot-empty"
        /// Neither PNG nor JPEG.
        case unsupportedFormat = "screenshot-unsupported-format"
        /// More bytes, pixels or a longer side than the limits allow (checked before any
        /// pixel is allocated).
        case tooLarge = "screenshot-too-large"
        /// The file is corrupt, truncated or fails its checksums.
        case malformed = "screenshot-malformed"
        /// The image does not fit its snapshot (other size, other aspect).
        case mismatch = "screenshot-mismatch"
        /// The decode was stopped: the audit's budget ran out, or its client left.
        case stopped = "screenshot-stopped"
    }

    public let code: Code
    public let message: String
    public let hint: String

    public init(_ code: Code, _ message: String, hint: String) {
        self.code = code
        self.message = message
        self.hint = hint
    }

    public var description: String { "\(message) (\(hint))" }
}
