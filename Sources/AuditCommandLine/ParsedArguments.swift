/// One command line, parsed against its options: read through their typed handles only —
/// a value is the type its handle says, checked when the line was parsed.
public struct ParsedArguments: Sendable {
    var values: [String: [String]] = [:]
    var flags: Set<String> = []
    /// What is not an option: files, `-` for standard input.
    public internal(set) var operands: [String] = []

    public init() {}

    /// The option's value (its last, where it may be repeated), or nil when it was not given.
    public subscript<Value: OptionValue>(_ option: Option<Value>) -> Value? {
        values[option.spec.name]?.last.flatMap(Value.init(optionText:))
    }

    /// Every value the option was given, in order.
    public func all<Value: OptionValue>(_ option: Option<Value>) -> [Value] {
        (values[option.spec.name] ?? []).compactMap(Value.init(optionText:))
    }

    /// Whether the flag was given.
    public subscript(_ flag: Flag) -> Bool { flags.contains(flag.spec.name) }

    /// Whether the option was given at all.
    public func has<Value: OptionValue>(_ option: Option<Value>) -> Bool { values[option.spec.name] != nil }
}
