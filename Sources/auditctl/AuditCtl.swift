import AuditCore
import AuditCommandLine
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// The `auditctl` entry point: finds the command, parses its arguments, runs it, and
/// turns errors into the exit statuses of docs/CLI.md.
@main
enum AuditCtl {
    static let version = AuditCoreVersion.string

    static var commands: [any Command.Type] { CommandTable.all }

    static func main() {
        // A daemon that refuses a body (413) closes before all of it is sent, and
        // `sendfile` has no MSG_NOSIGNAL: the broken pipe must be an error to report (with
        // the daemon's answer), not a signal that kills auditctl without a word.
        signal(SIGPIPE, SIG_IGN)
        exit(run(Array(CommandLine.arguments.dropFirst())).rawValue)
    }

    static func run(_ arguments: [String]) -> ExitStatus {
        let specs = commands.map { $0.spec }
        // Common options may come before the command name: find the first operand.
        var leading: [String] = []
        var rest = arguments[...]
        while let first = rest.first, first.hasPrefix("-") {
            if first == "--version" {
                Console.out("auditctl \(version)\n")
                return .clean
            }
            if first == "--help" || first == "-h" {
                Console.out(HelpFormatter.rootHelp(commands: specs))
                return .clean
            }
            // Before the command only the options every command takes may come: another is a
            // mistake to name (`--sokcet`), not the command's name to guess at.
            let name = first.split(separator: "=", maxSplits: 1).first.map(String.init) ?? first
            guard let option = CommonOptions.all.first(where: { $0.name == name || $0.short == name }) else {
                var message = "unknown option '\(name)'"
                let known = CommonOptions.all.map(\.name) + ["--version"]
                if let suggestion = ArgumentParser.closest(to: name, among: known) { message += "; did you mean '\(suggestion)'?" }
                return usage(UsageError(message: message + " (options of one command come after its name: see 'auditctl --help')", command: ""))
            }
            leading.append(first)
            rest = rest.dropFirst()
            if option.valueName != nil, !first.contains("="), let value = rest.first {
                leading.append(value)
                rest = rest.dropFirst()
            }
        }
        guard let name = rest.first else {
            // Options and no command: nothing to do, and saying so is the answer.
            if !leading.isEmpty { return usage(UsageError(message: "no command after \(leading.joined(separator: " ")) (see 'auditctl --help')", command: "")) }
            Console.out(HelpFormatter.rootHelp(commands: specs))
            return .usageOrInput
        }
        if name == "help" {
            guard let topic = rest.dropFirst().first else {
                Console.out(HelpFormatter.rootHelp(commands: specs))
                return .clean
            }
            // The generated parts of docs/CLI.md and docs/auditctl.1.
            if topic == "--markdown" || topic == "--man" {
                Console.out(topic == "--man" ? ReferenceFormatter.man(commands: specs) : ReferenceFormatter.markdown(commands: specs))
                return .clean
            }
            guard let command = commands.first(where: { $0.spec.name == topic }) else {
                return usage(UsageError(message: unknownCommand(topic, specs), command: ""))
            }
            Console.out(HelpFormatter.help(for: command.spec))
            return .clean
        }
        guard let command = commands.first(where: { $0.spec.name == name }) else {
            return usage(UsageError(message: unknownCommand(name, specs), command: ""))
        }
        do {
            let parsed = try ArgumentParser.parse(leading + rest.dropFirst(), for: command.spec)
            if parsed[CommonOptions.help] {
                Console.out(HelpFormatter.help(for: command.spec))
                return .clean
            }
            return try command.run(parsed)
        } catch let error as UsageError {
            return usage(error)
        } catch {
            Console.error("auditctl: \(error)")
            return .usageOrInput
        }
    }

    static func unknownCommand(_ name: String, _ specs: [CommandSpec]) -> String {
        var message = "unknown command '\(name)'"
        if let suggestion = ArgumentParser.closest(to: name, among: specs.map(\.name)) {
            message += "; did you mean '\(suggestion)'?"
        }
        return message + " (see 'auditctl --help')"
    }

    static func usage(_ error: UsageError) -> ExitStatus {
        Console.error("auditctl: error: \(error.message)")
        if !error.command.isEmpty { Console.error("Usage: see 'auditctl help \(error.command)'") }
        return .usageOrInput
    }
}
