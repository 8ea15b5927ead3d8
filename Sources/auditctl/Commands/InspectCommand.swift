import AuditCore
import AuditCommandLine

/// `auditctl inspect FILE`: the normalized element tree as the rules see it.
enum InspectCommand: Command {
    static let format = Option<String>("--format", short: "-f", valueName: "FORMAT", help: "text or json", choices: ["text", "json"])
    static let androidDensity = Option<Double>("--android-density", valueName: "DPR", help: "Android pixels per dp (default: estimated from the screen width)", in: 0.1...16)
    static let density = Option<Double>("--density", valueName: "DPR", help: "the same as --android-density", in: 0.1...16)
    static let screenshot = Option<String>("--screenshot", short: "-s", valueName: "IMAGE", help: "a PNG or JPEG of the screen: show the colours read from its pixels")

    static let spec = CommandSpec(
        name: "inspect",
        abstract: "Print the normalized element tree as the rules see it (no daemon needed).",
        operands: "<file|->", minOperands: 1, maxOperands: 1,
        options: [
            Self.format.spec,
            Self.androidDensity.spec,
            Self.density.spec,
            Self.screenshot.spec,
        ])

    static func run(_ arguments: ParsedArguments) throws -> ExitStatus {
        let path = arguments.operands[0]
        let parser = try SnapshotParser(options: .init(androidDensity: density(arguments)))
        do {
            let snapshot = try withScreenshot(parser.parse(try InputFiles.read(path)), arguments)
            if arguments[Self.format] == "json" {
                Console.out(InspectReport.json(snapshot).rendered(pretty: true) + "\n")
            } else {
                Console.out(InspectReport.text(snapshot))
            }
            return .clean
        } catch let error as SnapshotError {
            throw InputError(description: "\(path):\(error.line):\(error.column): error: \(error.message) — \(error.hint)")
        }
    }

    /// `snapshot` with the `--screenshot` image, if one was given; an image that cannot be
    /// read or does not fit is an input error (exit 2) saying why.
    static func withScreenshot(_ snapshot: Snapshot, _ arguments: ParsedArguments) throws -> Snapshot {
        guard let path = arguments[Self.screenshot] else { return snapshot }
        do {
            return try snapshot.attaching(ImageDecoder.decode(InputFiles.read(path)))
        } catch let error as ImageError {
            throw InputError(description: "\(path): error: \(error.message) [\(error.code.rawValue)] — \(error.hint)")
        }
    }

    /// The Android density the command was given by either of its two names (the same
    /// value, if both).
    static func density(
        _ arguments: ParsedArguments, _ longName: Option<Double> = androidDensity, _ shortName: Option<Double> = density, command: String = "inspect"
    ) throws -> Double? {
        let long = arguments[longName], short = arguments[shortName]
        if let long, let short, long != short {
            throw UsageError(message: "--android-density \(long) and --density \(short) say two things; give one", command: command)
        }
        return long ?? short
    }
}
