/// An attribute whose value could not be read. The parser keeps going; the rule
/// `snapshot.invalid-value` turns each one into a finding (docs/snapshot-format.md).
public struct InvalidValue: Sendable, Hashable {
    /// Index of the element carrying the attribute, or `nil` for `<snapshot>`/`<settings>`.
    public var element: Int?
    /// The XML element name that carried it (`element`, `settings`, `animation`, …).
    public var owner: String
    public var attribute: String
    public var value: String
    /// What was expected, phrased to fix it: "a number of points", "#RRGGBB".
    public var expected: String
    public var line: Int

    public init(element: Int?, owner: String, attribute: String, value: String, expected: String, line: Int) {
        self.element = element
        self.owner = owner
        self.attribute = attribute
        self.value = value
        self.expected = expected
        self.line = line
    }
}
