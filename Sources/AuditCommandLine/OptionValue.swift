/// What an option's value may be: read from its text on the command line, or refused with
/// what was expected. A command reads its options through typed handles (``Option``), so
/// a value is converted and checked once, at parse time, never looked up by name.
public protocol OptionValue: Sendable {
    /// The value `text` stands for; nil when it is not one.
    init?(optionText text: String)
    /// What a value is, for errors (`a whole number`).
    static var expected: String { get }
}

extension String: OptionValue {
    public init?(optionText text: String) { self = text }
    public static var expected: String { "a value" }
}

extension Int: OptionValue {
    public init?(optionText text: String) { self.init(text) }
    public static var expected: String { "a whole number" }
}

extension UInt64: OptionValue {
    public init?(optionText text: String) { self.init(text) }
    public static var expected: String { "a whole number" }
}

extension UInt32: OptionValue {
    public init?(optionText text: String) { self.init(text) }
    public static var expected: String { "a numeric id from 0 to \(UInt32.max)" }
}

extension Double: OptionValue {
    public init?(optionText text: String) {
        guard let value = Double(text), value.isFinite else { return nil }
        self = value
    }
    public static var expected: String { "a number" }
}
