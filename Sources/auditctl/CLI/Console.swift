import AuditCommandLine
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing to the terminal: standard output and error, and whether each is a terminal.
enum Console {
    static func out(_ text: String) {
        fputs(text, stdout)
    }

    /// Writes `bytes` as they are (records, not text to escape).
    static func out(bytes: UnsafeRawBufferPointer) {
        if let base = bytes.baseAddress { fwrite(base, 1, bytes.count, stdout) }
    }

    static func flush() { fflush(stdout) }

    static func error(_ text: String) {
        fputs(text.hasSuffix("\n") ? text : text + "\n", stderr)
    }

    static var stdoutIsTerminal: Bool { isatty(1) == 1 }

    /// Colour for `--color auto|always|never`; `auto` means a terminal and no `NO_COLOR`.
    static func useColor(_ arguments: ParsedArguments) -> Bool {
        switch arguments[CommonOptions.color] ?? "auto" {
        case "always": return true
        case "never": return false
        default:
            if let noColor = getenv("NO_COLOR"), noColor.pointee != 0 { return false }
            return stdoutIsTerminal
        }
    }
    static var stderrIsTerminal: Bool { isatty(2) == 1 }
}

/// Exit statuses (docs/CLI.md).
enum ExitStatus: Int32 {
    case clean = 0
    case findings = 1
    case usageOrInput = 2
}
