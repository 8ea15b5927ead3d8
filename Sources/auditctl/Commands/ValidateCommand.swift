import AuditCore
import AuditCommandLine

/// `auditctl validate FILE…`: is each snapshot well-formed, of a known dialect, with every
/// value readable? Works without the daemon.
enum ValidateCommand: Command {
    static let androidDensity = Option<Double>("--android-density", valueName: "DPR", help: "Android pixels per dp (default: estimated from the screen width)", in: 0.1...16)
    static let density = Option<Double>("--density", valueName: "DPR", help: "the same as --android-density", in: 0.1...16)
    static let screenshot = Option<String>(
        "--screenshot", short: "-s", valueName: "IMAGE", help: "also check that this PNG or JPEG decodes and fits the snapshot (one snapshot only)")

    static let spec = CommandSpec(
        name: "validate",
        abstract: "Check that snapshots parse and every value is readable (no daemon needed).",
        operands: "<file|dir|->...", minOperands: 1, maxOperands: nil,
        options: [
            Self.androidDensity.spec,
            Self.density.spec,
            Self.screenshot.spec,
        ],
        discussion: "Prints file:line:column: message for each problem. Exit 0 when all are valid, 1 otherwise.")

    static func run(_ arguments: ParsedArguments) throws -> ExitStatus {
        let parser = try SnapshotParser(options: .init(androidDensity: InspectCommand.density(arguments, Self.androidDensity, Self.density, command: "validate")))
        var status = ExitStatus.clean
        let paths = try InputFiles.expand(arguments.operands)
        let screenshot = arguments[Self.screenshot]
        if screenshot != nil, paths.count != 1 {
            throw UsageError(message: "--screenshot goes with one snapshot", command: "validate")
        }
        for path in paths {
            let name = path == "-" ? "<stdin>" : path
            do {
                let snapshot = try parser.parse(try InputFiles.read(path))
                for invalid in snapshot.invalidValues {
                    Console.out(
                        "\(name):\(invalid.line): error: \(TerminalText.escape(invalid.owner)) attribute \(TerminalText.escape(invalid.attribute))=\"\(TerminalText.escape(invalid.value))\" cannot be read; expected \(invalid.expected)\n"
                    )
                    status = .findings
                }
                if let screenshot {
                    do {
                        let mapped = try snapshot.attaching(ImageDecoder.decode(InputFiles.read(screenshot)))
                        if !arguments[CommonOptions.quiet], let mapping = mapped.screenshot {
                            Console.out(
                                "\(screenshot): fits, \(mapping.screenshot.width) × \(mapping.screenshot.height) px at \(mapping.pixelsPerPoint.formattedForReport) px per pt\n")
                        }
                    } catch let error as ImageError {
                        Console.out(
                            "\(screenshot): error: \(TerminalText.escape(error.message)) [\(error.code.rawValue)]\n\(screenshot): note: \(TerminalText.escape(error.hint))\n")
                        status = .findings
                    }
                }
                // Parsed is not auditable: a capture with no frames or no types is said so.
                let unauditable = Auditor.audit(snapshot, ruleSet: .only(UnauditableRule.self)).findings
                for finding in unauditable {
                    Console.out("\(name): error: \(TerminalText.escape(finding.finding.message)) [\(finding.finding.resultID)]\n")
                    status = .findings
                }
                if snapshot.invalidValues.isEmpty, unauditable.isEmpty, !arguments[CommonOptions.quiet] {
                    Console.out("\(name): valid \(snapshot.dialect.rawValue) snapshot, \(snapshot.elements.count) elements\n")
                }
            } catch let error as SnapshotError {
                Console.out("\(name):\(error.line):\(error.column): error: \(TerminalText.escape(error.message)) [\(error.code.rawValue)]\n")
                if !error.hint.isEmpty { Console.out("\(name):\(error.line):\(error.column): note: \(TerminalText.escape(error.hint))\n") }
                status = .findings
            }
        }
        return status
    }
}
