/// One parameter of a rule, typed by what the rule reads: `RuleParameter<Double>`. Rules
/// declare theirs as static values (`TargetSizeRule.Parameter.minimum`) and read them with
/// `context[parameter]`; a parameter name cannot be mistyped where it is read, and its
/// default is of the right type. Rule sets give values by ``name`` (checked against
/// ``ParameterValue/kind`` when the set is loaded).
public struct RuleParameter<Value: ParameterValue>: Sendable {
    public let name: String
    public let defaultValue: Value
    public let help: String

    public init(_ name: String, default defaultValue: Value, help: String) {
        self.name = name
        self.defaultValue = defaultValue
        self.help = help
    }

    /// This parameter set to `value`: an example's override, checked by the compiler.
    public func set(_ value: Value) -> ParameterOverride { ParameterOverride(name: name, value: value.json) }

    /// The value in `parameters` (a rule set's), else the default.
    public func value(in parameters: [String: JSON]) -> Value {
        parameters[name].flatMap(Value.init(json:)) ?? defaultValue
    }
}

/// The parameters of a rule, declared once as the stored properties of one type:
///
/// ```swift
/// @dynamicMemberLookup
/// public struct Parameter: RuleParameters {
///     public init() {}
///     public let ratio = RuleParameter<Double>("ratio", default: 3, help: "minimum contrast")
/// }
/// ```
///
/// The rule reads `context[Parameter.ratio]` and an example overrides
/// `Parameter.ratio.set(4.5)` (the static member lookup below); its description, the rule-set
/// schema and docs/rules.md list what ``declared`` finds, in declaration order, so a
/// parameter cannot be read without being declared, nor declared twice.
public protocol RuleParameters: Sendable {
    init()
}

/// The parameters of a rule that takes none.
public struct NoParameters: RuleParameters {
    public init() {}
}

extension RuleParameters {
    /// `Parameter.ratio`: the parameter as a value of the type.
    public static subscript<Value>(dynamicMember key: KeyPath<Self, RuleParameter<Value>>) -> RuleParameter<Value> {
        Self()[keyPath: key]
    }

    /// Every parameter the type declares, in declaration order.
    public static var declared: [any DeclaredParameter] {
        Mirror(reflecting: Self()).children.compactMap { $0.value as? any DeclaredParameter }
    }
}

/// One parameter given a value (``RuleParameter/set(_:)``).
public struct ParameterOverride: Sendable {
    public let name: String
    public let value: JSON
}

/// What ``RuleDescription`` lists of a parameter, whatever its type.
public protocol DeclaredParameter: Sendable {
    var parameterDescription: ParameterDescription { get }
}

extension RuleParameter: DeclaredParameter {
    public var parameterDescription: ParameterDescription {
        ParameterDescription(name, Value.kind, default: defaultValue.json, help: help)
    }
}

/// A type a rule parameter can have, with its JSON form in rule sets.
public protocol ParameterValue: Sendable {
    static var kind: ParameterDescription.Kind { get }
    var json: JSON { get }
    /// `nil` when `json` is not of this type (rule sets are checked on load, so this
    /// only guards the defaults).
    init?(json: JSON)
}

extension Double: ParameterValue {
    public static var kind: ParameterDescription.Kind { .number }
    public var json: JSON { .number(self) }
    public init?(json: JSON) {
        switch json {
        case .int(let value): self = Double(value)
        case .number(let value): self = value
        default: return nil
        }
    }
}

extension Bool: ParameterValue {
    public static var kind: ParameterDescription.Kind { .boolean }
    public var json: JSON { .bool(self) }
    public init?(json: JSON) {
        guard case .bool(let value) = json else { return nil }
        self = value
    }
}

extension String: ParameterValue {
    public static var kind: ParameterDescription.Kind { .string }
    public var json: JSON { .string(self) }
    public init?(json: JSON) {
        guard case .string(let value) = json else { return nil }
        self = value
    }
}

extension Array: ParameterValue where Element == String {
    public static var kind: ParameterDescription.Kind { .strings }
    public var json: JSON { .array(map(JSON.string)) }
    public init?(json: JSON) {
        guard case .array(let items) = json else { return nil }
        var strings: [String] = []
        for item in items {
            guard case .string(let text) = item else { return nil }
            strings.append(text)
        }
        self = strings
    }
}

extension Severity: ParameterValue {
    public static var kind: ParameterDescription.Kind { .severity }
    public var json: JSON { .string(rawValue) }
    public init?(json: JSON) {
        guard case .string(let text) = json, let severity = Severity(rawValue: text) else { return nil }
        self = severity
    }
}
