/// A rule-set file that cannot be used: which file, which key, and why.
public struct RuleSetError: Error, Sendable, CustomStringConvertible {
    public var file: String
    public var key: String
    public var reason: String

    public init(file: String, key: String, reason: String) {
        self.file = file
        self.key = key
        self.reason = reason
    }

    public var description: String {
        key.isEmpty ? "\(file): \(reason)" : "\(file): \(key): \(reason)"
    }
}
