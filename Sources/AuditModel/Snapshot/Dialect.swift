/// The XML vocabulary a snapshot was written in, detected from its root element. Each
/// dialect declares its own value beside its decoder (`Parsing/Dialects/`); reports print
/// ``rawValue``.
public struct Dialect: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
}
