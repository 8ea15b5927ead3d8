import AuditCore
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Log levels, most severe first, with their syslog/journald priorities.
package enum LogLevel: String, Sendable, CaseIterable, Comparable {
    case error, warning, info, debug

    var priority: Int {
        switch self {
        case .error: 3
        case .warning: 4
        case .info: 6
        case .debug: 7
        }
    }

    package static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.priority > rhs.priority }
}

/// One event a line on standard error: `2026-11-29T21:40:00.123Z info listening socket=/run/…`.
/// Under systemd (`JOURNAL_STREAM` set) lines start with the journald priority (`<6>`)
/// instead of a timestamp, since the journal stamps them itself.
package final class Logger: Sendable {
    package let level: LogLevel
    let underSystemd: Bool
    private let lock = Lock()

    package init(level: LogLevel, underSystemd: Bool = getenv("JOURNAL_STREAM") != nil) {
        self.level = level
        self.underSystemd = underSystemd
    }

    package func log(_ level: LogLevel, _ message: String, _ fields: KeyValuePairs<String, String> = [:]) {
        guard level.priority <= self.level.priority else { return }
        let line = format(level, message, fields)
        lock.withLock { _ = fputs(line, stderr) }
    }

    /// One event as one line: control characters in the message and values (a newline in
    /// a client's rule id or a file name) are escaped (`\n`, `\u{1B}`), so nothing a
    /// client sends can start a line of its own in the log.
    func format(_ level: LogLevel, _ message: String, _ fields: KeyValuePairs<String, String>) -> String {
        var line = underSystemd ? "<\(level.priority)>" : Timestamp.iso8601(Timestamp.now()) + " "
        line += level.rawValue + " " + TerminalText.escape(message)
        for (key, value) in fields {
            let escaped = TerminalText.escape(value)
            let needsQuotes = escaped.isEmpty || escaped.contains(" ") || escaped.contains("\"")
            line += " \(TerminalText.escape(key))=" + (needsQuotes ? "\"\(escaped.replacingAll("\"", with: "'"))\"" : escaped)
        }
        return line + "\n"
    }

    package func error(_ message: String, _ fields: KeyValuePairs<String, String> = [:]) { log(.error, message, fields) }
    package func warning(_ message: String, _ fields: KeyValuePairs<String, String> = [:]) { log(.warning, message, fields) }
    package func info(_ message: String, _ fields: KeyValuePairs<String, String> = [:]) { log(.info, message, fields) }
    package func debug(_ message: String, _ fields: KeyValuePairs<String, String> = [:]) { log(.debug, message, fields) }
}
