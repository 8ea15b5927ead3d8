/// One accessibility check: a small type that carries its own metadata (``description``)
/// and evaluates one snapshot. Rules are stateless; the same type serves every audit.
public protocol Rule: Sendable {
    static var description: RuleDescription { get }
    /// Appends the rule's findings and incompletes for `context.snapshot` to `context`.
    static func evaluate(_ context: inout RuleContext)
}

/// What a rule sees while it runs: the shared, read-only snapshot, its resolved
/// parameters and severity, and where its results go.
public struct RuleContext {
    public let snapshot: Snapshot
    public let description: RuleDescription
    /// The severity the rule set gives this rule.
    public let severity: Severity
    public let parameters: [String: JSON]
    public private(set) var findings: [Finding] = []
    public private(set) var incompletes: [Incomplete] = []

    public init(snapshot: Snapshot, description: RuleDescription, severity: Severity, parameters: [String: JSON]) {
        self.snapshot = snapshot
        self.description = description
        self.severity = severity
        self.parameters = parameters
    }

    // MARK: Parameters

    public func number(_ name: String) -> Double {
        switch parameters[name] ?? defaultValue(name) {
        case .int(let value)?: Double(value)
        case .number(let value)?: value
        default: 0
        }
    }

    public func flag(_ name: String) -> Bool {
        if case .bool(let value)? = parameters[name] ?? defaultValue(name) { return value }
        return false
    }

    public func strings(_ name: String) -> [String] {
        guard case .array(let items)? = parameters[name] ?? defaultValue(name) else { return [] }
        return items.compactMap { if case .string(let text) = $0 { text } else { nil } }
    }

    public func severityParameter(_ name: String) -> Severity {
        if case .string(let text)? = parameters[name] ?? defaultValue(name), let severity = Severity(rawValue: text) {
            return severity
        }
        return severity
    }

    private func defaultValue(_ name: String) -> JSON? {
        description.parameters.first { $0.name == name }?.defaultValue
    }

    // MARK: Results

    /// Reports a finding; the message comes from the template of `result`.
    public mutating func report(_ result: String, element: Int?, evidence: Evidence,
                                severity: Severity? = nil, wcag: [String]? = nil) {
        let template = description.messages[result] ?? description.title
        findings.append(Finding(ruleID: description.id, resultID: result, severity: severity ?? self.severity,
                                wcag: wcag ?? description.wcag, element: element, evidence: evidence,
                                messageSource: .template(template)))
    }

    /// Reports that the rule could not judge `element` (or the snapshot, when `nil`).
    public mutating func cannotJudge(_ reason: String, element: Int? = nil) {
        incompletes.append(Incomplete(ruleID: description.id, reason: reason, element: element))
    }
}

/// Fills `${key}` placeholders from evidence: strings as they are, numbers in their
/// shortest form. Works on UTF-8 bytes; templates are short and evidence lists small.
public enum MessageTemplate {
    /// Appends the filled template to `output` as UTF-8.
    public static func append(_ template: String, _ evidence: Evidence, to output: inout [UInt8]) {
        var template = template
        template.withUTF8 { bytes in
            output.reserveCapacity(output.count + bytes.count + 64)
            var index = 0
            while index < bytes.count {
                // Copy the run up to the next `$` in one go.
                var end = index
                while end < bytes.count, bytes[end] != UInt8(ascii: "$") { end += 1 }
                if end > index { output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end])) }
                index = end
                guard index < bytes.count else { break }
                guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "{"),
                      let close = bytes[(index + 2)...].firstIndex(of: UInt8(ascii: "}")) else {
                    output.append(bytes[index])
                    index += 1
                    continue
                }
                let key = UnsafeBufferPointer(rebasing: bytes[(index + 2)..<close])
                if let value = evidence.first(where: { equal($0.0, key) })?.1 {
                    appendText(of: value, to: &output)
                } else {
                    output.append(UInt8(ascii: "?"))
                }
                index = close + 1
            }
        }
    }

    /// A key compared with template bytes, without building a string.
    private static func equal(_ key: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var key = key
        return key.withUTF8 { $0.count == bytes.count && $0.elementsEqual(bytes) }
    }

    /// ``text(of:)`` appended as UTF-8, without an intermediate string for the common cases.
    static func appendText(of value: JSON, to output: inout [UInt8]) {
        switch value {
        case .string(let text): output.append(contentsOf: text.utf8)
        case .int(let number): JSON.writeInt(number, to: &output)
        default: output.append(contentsOf: text(of: value).utf8)
        }
    }

    static func text(of value: JSON) -> String {
        switch value {
        case .string(let text): text
        case .int(let number): String(number)
        case .number(let number): number.formattedForReport
        case .bool(let flag): flag ? "true" : "false"
        case .null: "unknown"
        case .array(let items): items.map(text(of:)).joined(separator: ", ")
        case .object: value.rendered()
        }
    }
}
