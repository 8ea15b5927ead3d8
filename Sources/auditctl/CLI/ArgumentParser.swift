import AuditCommandLine

extension ArgumentParser {
    /// Parses one command's arguments (its options and the common ones) and checks its
    /// operands.
    static func parse(_ arguments: [String], for spec: CommandSpec) throws(UsageError) -> ParsedArguments {
        let parsed = try parse(arguments, options: spec.options + CommonOptions.all, program: "auditctl \(spec.name)", command: spec.name)
        if parsed[CommonOptions.help] { return parsed }
        if parsed.operands.count < spec.minOperands {
            throw UsageError(message: "'auditctl \(spec.name)' needs \(spec.operands)", command: spec.name)
        }
        if let maximum = spec.maxOperands, parsed.operands.count > maximum {
            let extra = parsed.operands[maximum]
            throw UsageError(message: "unexpected argument '\(extra)' for 'auditctl \(spec.name)'", command: spec.name)
        }
        return parsed
    }
}
