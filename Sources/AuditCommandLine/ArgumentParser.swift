import AuditSupport

/// Hand-written argument parsing that behaves like swift-argument-parser: long and short
/// options, `--name=value`, `--` ends options, `-` is an operand (standard input), a
/// mistyped option gets the closest known name suggested, and every value is checked by
/// its option (``OptionSpec/check``) before the command runs.
public enum ArgumentParser {
    /// Parses `arguments` against `options`. `program` names the program and command in
    /// errors (`auditctl audit`); `command` is the command's name for ``UsageError``.
    public static func parse(
        _ arguments: [String], options: [OptionSpec], program: String, command: String, hint: String = ""
    ) throws(UsageError) -> ParsedArguments {
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
                var message = "unknown option '\(name)' for '\(program)'"
                if let suggestion = closest(to: name, among: options.map(\.name)) {
                    message += "; did you mean '\(suggestion)'?"
                }
                throw UsageError(message: message + hint, command: command)
            }
            guard let valueName = option.valueName else {
                if inlineValue != nil {
                    throw UsageError(message: "option '\(option.name)' takes no value", command: command)
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
                throw UsageError(message: "option '\(option.name)' needs a value (\(valueName))", command: command)
            }
            if let choices = option.choices, !choices.contains(value) {
                var message = "'\(value)' is not a valid value for '\(option.name)'; expected one of: \(choices.joined(separator: ", "))"
                if let suggestion = closest(to: value, among: choices) { message += " (did you mean '\(suggestion)'?)" }
                throw UsageError(message: message, command: command)
            }
            if let problem = option.check(value) { throw UsageError(message: problem, command: command) }
            if !option.repeatable, parsed.values[option.name] != nil {
                throw UsageError(message: "option '\(option.name)' given twice", command: command)
            }
            parsed.values[option.name, default: []].append(value)
        }
        return parsed
    }

    /// The candidate within edit distance 3 (and under half the word) closest to `word`.
    public static func closest(to word: String, among candidates: [String]) -> String? {
        EditDistance.closest(to: word, among: candidates, limit: max(1, min(3, word.count / 2)))
    }
}
