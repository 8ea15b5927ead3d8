/// One option as help, completions, the reference pages and the parser see it, whatever
/// its value's type: its long name with dashes (`--format`), an optional short one (`-f`),
/// the placeholder of its value (nil for a flag), its help, the values it accepts when the
/// set is closed, whether it may be given more than once, and the check its value must
/// pass (made by its typed handle, ``Option``).
public struct OptionSpec: Sendable {
    public var name: String
    public var short: String?
    public var valueName: String?
    /// The help, as lines where the program prints it in columns (`auditd --help`).
    public var helpLines: [String]
    public var choices: [String]?
    public var repeatable: Bool
    /// Why `text` is not a value of the option, or nil when it is.
    public var check: @Sendable (String) -> String?

    public var help: String { helpLines.joined(separator: " ") }

    public init(
        name: String, short: String? = nil, valueName: String? = nil, helpLines: [String], choices: [String]? = nil, repeatable: Bool = false,
        check: @escaping @Sendable (String) -> String? = { _ in nil }
    ) {
        self.name = name
        self.short = short
        self.valueName = valueName
        self.helpLines = helpLines
        self.choices = choices
        self.repeatable = repeatable
        self.check = check
    }
}
