/// A typed handle on one option, declared once and shared by the declaration (help,
/// completions, docs) and the code that reads it: `arguments[Self.jobs]` is an `Int?`
/// checked at parse time — swift-argument-parser's `@Option` is the model. Both programs,
/// `auditd` and `auditctl`, declare and read their options so.
public struct Option<Value: OptionValue>: Sendable {
    public let spec: OptionSpec

    /// An option whose value is any `Value`, or one of `choices`.
    public init(_ name: String, short: String? = nil, valueName: String, help: String..., choices: [String]? = nil, repeatable: Bool = false) {
        spec = OptionSpec(
            name: name, short: short, valueName: valueName, helpLines: help, choices: choices, repeatable: repeatable,
            check: { text in Value(optionText: text) == nil ? "option \(name) needs \(Value.expected), not '\(text)'" : nil })
    }

    /// An option whose value must also pass `accepts`, which `expected` describes
    /// (`a whole number from 1 to 1000`).
    public init(
        _ name: String, short: String? = nil, valueName: String, help: String..., repeatable: Bool = false, expected: String,
        accepts: @escaping @Sendable (Value) -> Bool
    ) {
        spec = OptionSpec(
            name: name, short: short, valueName: valueName, helpLines: help, repeatable: repeatable,
            check: { text in
                guard let value = Value(optionText: text), accepts(value) else { return "option \(name) needs \(expected), not '\(text)'" }
                return nil
            })
    }
}

extension Option where Value: Comparable & CustomStringConvertible {
    /// An option whose value must lie in `range`.
    public init(_ name: String, short: String? = nil, valueName: String, help: String..., repeatable: Bool = false, in range: ClosedRange<Value>) {
        spec = OptionSpec(
            name: name, short: short, valueName: valueName, helpLines: help, repeatable: repeatable,
            check: { text in
                guard let value = Value(optionText: text), range.contains(value) else {
                    return "option \(name) needs \(Value.expected) from \(range.lowerBound) to \(range.upperBound), not '\(text)'"
                }
                return nil
            })
    }
}

/// A typed handle on an option that takes no value: `arguments[Self.quiet]` is a `Bool`.
public struct Flag: Sendable {
    public let spec: OptionSpec

    public init(_ name: String, short: String? = nil, help: String...) {
        spec = OptionSpec(name: name, short: short, helpLines: help)
    }
}
