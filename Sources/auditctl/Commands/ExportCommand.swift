import AuditCommandLine
import AuditCore
import AuditHistory

/// `auditctl export --journal FILE [--since SEQ]`: the journal's records after a seq, as
/// JSON Lines, read from its files — rotated ones included — by the history library every
/// journal reader uses (``JournalFiles``), with no daemon; `--journal-id` prints the
/// journal's name instead. The ClickHouse shipper reads a journal so
/// (`Deploy/clickhouse/ship.sh --journal FILE HOST`). Records rotated away after `since`
/// are an error (exit 1), never skipped in silence.
enum ExportCommand: Command {
    static let journal = Option<String>("--journal", valueName: "FILE", help: "the journal file (auditd --journal), or a copy of it")
    static let since = Option<UInt64>("--since", valueName: "SEQ", help: "only records after this seq (default 0: every record held)")
    static let journalID = Flag("--journal-id", help: "print the journal's name (its Journal-Id) instead of its records")

    static let spec = CommandSpec(
        name: "export",
        abstract: "Print a journal file's records after a seq, with no daemon.",
        operands: "", minOperands: 0, maxOperands: 0,
        options: [journal.spec, since.spec, journalID.spec],
        discussion:
            "Records are printed as the journal holds them, one JSON object a line, oldest first, the rotated files' before the journal's own. Exit status 0; 1 when records after --since were rotated away before they were read (the first seq held is named); 2 when the journal cannot be read."
    )

    static func run(_ arguments: ParsedArguments) throws -> ExitStatus {
        guard let path = arguments[Self.journal] else {
            throw UsageError(message: "'auditctl export' needs --journal FILE", command: "export")
        }
        if arguments[Self.journalID] {
            guard let name = JournalFiles.identity(journal: path) else {
                Console.error("auditctl: \(TerminalText.escape(path)) has no journal name beside it (\(TerminalText.escape(path)).id): an auditd from before journals were named")
                return .findings
            }
            Console.out(name + "\n")
            return .clean
        }
        let since = arguments[Self.since] ?? 0
        let firstHeld: UInt64?
        do throws(HistoryError) {
            firstHeld = try JournalFiles.forEachRecord(journal: path, since: since) { lines throws(HistoryError) in
                Console.out(bytes: lines)
            }
        } catch {
            Console.error("auditctl: " + TerminalText.escape(error.description))
            return .usageOrInput
        }
        if since > 0, let firstHeld, firstHeld > since + 1 {
            Console.error(
                "auditctl: records-gone: the records after seq \(since) up to \(firstHeld - 1) are no longer in the journal (rotated away); the first held is \(firstHeld): export with --since \(firstHeld - 1) to go on without them"
            )
            return .findings
        }
        return .clean
    }
}
