/// Renders `--help` text from a ``CommandSpec``.
enum HelpFormatter {
    static func help(for spec: CommandSpec) -> String {
        var lines = ["OVERVIEW: \(spec.abstract)", "", "USAGE: auditctl \(spec.name) [options]\(spec.operands.isEmpty ? "" : " \(spec.operands)")", ""]
        if !spec.discussion.isEmpty { lines += [spec.discussion, ""] }
        lines.append("OPTIONS:")
        for option in spec.options + CommonOptions.all {
            var left = "  " + (option.short.map { "\($0), " } ?? "") + option.name
            if let valueName = option.valueName { left += " <\(valueName.lowercased())>" }
            let pad = max(2, 32 - left.count)
            lines.append(left + String(repeating: " ", count: pad) + option.help)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func rootHelp(commands: [CommandSpec]) -> String {
        var lines = [
            "OVERVIEW: auditctl — submit UI snapshots to auditd and read accessibility findings.",
            "",
            "USAGE: auditctl <command> [options]",
            "",
            "COMMANDS:",
        ]
        for command in commands {
            lines.append("  " + command.name + String(repeating: " ", count: max(2, 12 - command.name.count)) + command.abstract)
        }
        lines += [
            "", "  See 'auditctl help <command>' or 'auditctl <command> --help' for details.",
            "  Exit status: 0 no findings at or above --fail-on, 1 findings, 2 usage or input error.", "",
        ]
        return lines.joined(separator: "\n")
    }
}
