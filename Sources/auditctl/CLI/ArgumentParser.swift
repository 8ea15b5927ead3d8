import AuditCore

/// The result of parsing one command line against a ``CommandSpec``.
struct ParsedArguments: Sendable {
    var values: [String: [String]] = [:]
    var flags: Set<String> = []
    var operands: [String] = []

    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }
    func flag(_ name: String) -> Bool { flags.contains(name) }
}

/// A usage mistake: printed with the command's usage line, exit status 2.
struct UsageError: Error, CustomStringConvertible {
    var message: String
    var command: String
    var description: String { message }
}

/// Hand-written argument parsing that behaves like swift-argument-parser: long and short
/// options, `--name=value`, `--` ends options, `-` is an operand (standard input), and a
/// mistyped option gets the closest known name suggested.
enum ArgumentParser {
    static func parse(_ arguments: [String], for spec: CommandSpec) throws -> ParsedArguments {
        let options = spec.options + CommonOptions.all
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                parsed.operands.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let option = options.first(where: { $0.name == name || $0.short == name }) else {
                var message = "unknown option '\(name)' for 'auditctl \(spec.name)'"
                if let suggestion = closest(to: name, among: options.map(\.name)) {
                    message += "; did you mean '\(suggestion)'?"
                }
                throw UsageError(message: message, command: spec.name)
            }
            guard let valueName = option.valueName else {
                if inlineValue != nil {
                    throw UsageError(message: "option '\(option.name)' takes no value", command: spec.name)
                }
                parsed.flags.insert(option.name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw UsageError(message: "option '\(option.name)' needs a value (\(valueName))", command: spec.name)
            }
            if let choices = option.choices, !choices.contains(value) {
                var message = "'\(value)' is not a valid value for '\(option.name)'; expected one of: \(choices.joined(separator: ", "))"
                if let suggestion = closest(to: value, among: choices) { message += " (did you mean '\(suggestion)'?)" }
                throw UsageError(message: message, command: spec.name)
            }
            if !option.repeatable, parsed.values[option.name] != nil {
                throw UsageError(message: "option '\(option.name)' given twice", command: spec.name)
            }
            parsed.values[option.name, default: []].append(value)
        }
        if parsed.flag("--help") { return parsed }
        if parsed.operands.count < spec.minOperands {
            throw UsageError(message: "'auditctl \(spec.name)' needs \(spec.operands)", command: spec.name)
        }
        if let maximum = spec.maxOperands, parsed.operands.count > maximum {
            let extra = parsed.operands[maximum]
            throw UsageError(message: "unexpected argument '\(extra)' for 'auditctl \(spec.name)'", command: spec.name)
        }
        return parsed
    }

    /// The candidate within edit distance 3 (and under half the word) closest to `word`.
    static func closest(to word: String, among candidates: [String]) -> String? {
        EditDistance.closest(to: word, among: candidates, limit: max(1, min(3, word.count / 2)))
    }
}
