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

    static func error(_ text: String) {
        fputs(text.hasSuffix("\n") ? text : text + "\n", stderr)
    }

    static var stdoutIsTerminal: Bool { isatty(1) == 1 }
    static var stderrIsTerminal: Bool { isatty(2) == 1 }
}

/// Exit statuses (SPEC §5).
enum ExitStatus: Int32 {
    case clean = 0
    case findings = 1
    case usageOrInput = 2
}
