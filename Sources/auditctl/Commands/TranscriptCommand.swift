import AuditClient
import AuditCommandLine
import AuditCore
import AuditFormats
import Foundation

/// `auditctl transcript FILE|DIR…`: what the screen reader says on each screen, stop by
/// stop, as the daemon computes it (`POST /v1/transcripts`; docs/transcripts.md).
enum TranscriptCommand: Command {
    static let format = Option<String>(
        "--format", short: "-f", valueName: "FORMAT", help: "text (one line per stop, the default) or json (one object per file)", choices: ["text", "json"])
    static let reader = Option<String>(
        "--reader", valueName: "READER",
        help:
            "talkback or voiceover (default: the snapshot's platform's); talkback:ORDER sets TalkBack's description order (state-name-role, its default; name-role-state; role-name-state)",
        choices: ReaderChoice.spellings)
    static let ocr = Flag("--ocr", help: "read each screenshot's text by OCR: TalkBack's text recognition on unlabelled stops (\"detected text\"; slower)")
    static let androidDensity = Option<Double>(
        "--android-density", valueName: "DPR", help: "Android pixels per dp, for every snapshot (default: the daemon's, else estimated)", in: 0.1...16)
    static let noScreenshots = Flag("--no-screenshots", help: "do not send the image beside each snapshot")

    static let spec = CommandSpec(
        name: "transcript",
        abstract: "Print what TalkBack or VoiceOver says on each screen, stop by stop.",
        operands: "<file|dir|->...", minOperands: 1, maxOperands: nil,
        options: [
            Self.format.spec,
            Self.reader.spec,
            Self.ocr.spec,
            Self.androidDensity.spec,
            Self.noScreenshots.spec,
            CaptureOptions.app.spec,
            CaptureOptions.build.spec,
            CaptureOptions.screen.spec, CaptureOptions.platform.spec,
        ],
        discussion:
            "Directories are searched for captures as audit does; a snapshot's screenshot beside it is sent with it. Stops are numbered in swipe order; each line ends with the file, line and column of the element focused."
    )

    static func run(_ arguments: ParsedArguments) throws -> ExitStatus {
        let files = try InputFiles.expand(arguments.operands)
        let socket = DaemonConnection.socketPath(arguments)
        let timeout = try DaemonConnection.timeout(arguments)
        var query: [String] = []
        if let reader = arguments[Self.reader] { query.append("reader=" + reader) }
        if let density = arguments[Self.androidDensity] { query.append("density=\(density)") }
        if arguments[Self.ocr] { query.append("ocr=1") }
        query += CaptureOptions.query(arguments)
        let target = "/v1/transcripts" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        let client = UnixHTTPClient(socketPath: socket, timeout: timeout)
        let json = arguments[Self.format] == "json"
        var collected: [JSON] = []
        var failed = false
        for file in files {
            let name = file == "-" ? "<stdin>" : file
            let bytes: [UInt8]?
            switch try InputFiles.body(file) {
            case .bytes(let read): bytes = read
            case .file: bytes = nil
            }
            let screenshot = arguments[Self.noScreenshots] ? nil : InputFiles.siblingScreenshot(of: file)
            let response: ClientResponse
            do {
                let (body, contentType) = try InputFiles.auditBody(snapshot: file, bytes: bytes, screenshot: screenshot)
                response = try client.request("POST", InputFiles.target(target, defaultScreenFor: file), body: body, contentType: contentType)
            } catch let error as ClientError {
                Console.error("auditctl: " + (error.unreachable ? DaemonConnection.unreachableMessage(error, socket: socket) : error.description))
                return .usageOrInput
            }
            guard response.status == 200, let answer = try? JSONParser.parse(response.body), case .object(let members) = answer else {
                let error = ErrorAnswer(status: response.status, body: response.body)
                Console.error("\(TerminalText.escape(name)): \(TerminalText.escape(error.message))")
                failed = true
                continue
            }
            if json {
                collected.append(.object([("file", .string(name))] + members))
                continue
            }
            let order = answer["order"]?.stringValue.map { ", " + $0 } ?? ""
            let reader = (answer["reader"]?.stringValue ?? "?") + order
            let stops = answer["stops"]?.arrayValue ?? []
            Console.out("\(TerminalText.escape(name)) (\(reader), \(stops.count) stops)\n")
            for stop in stops {
                let speech = stop["speech"]?.stringValue ?? ""
                let index = stop["index"]?.intValue ?? 0
                let place = "\(name):\(stop["line"]?.intValue ?? 0):\(stop["column"]?.intValue ?? 0)"
                var usage = stop["usage_hint"]?.stringValue.map { " (\(TerminalText.escape($0)))" } ?? ""
                if let detected = stop["detected_text"]?.stringValue { usage += " [detected text: \(TerminalText.escape(detected))]" }
                Console.out("\(index). \(TerminalText.escape(speech.isEmpty ? "(nothing)" : speech))\(usage)   \(TerminalText.escape(place))\n")
            }
            let headings = (answer["headings"]?.arrayValue ?? []).compactMap(\.intValue).map(String.init)
            Console.out("   headings (rotor): \(headings.isEmpty ? "none" : "stops " + headings.joined(separator: ", "))\n")
            for rotor in answer["rotors"]?.arrayValue ?? [] {
                let listed = (rotor["stops"]?.arrayValue ?? []).compactMap(\.intValue).map(String.init).joined(separator: ", ")
                Console.out("   rotor \"\(TerminalText.escape(rotor["name"]?.stringValue ?? ""))\": stops \(listed)\n")
            }
            for note in answer["notes"]?.arrayValue ?? [] {
                Console.out("   note: \(TerminalText.escape(note.stringValue ?? ""))\n")
            }
            for gap in answer["not_in_capture"]?.arrayValue ?? [] {
                Console.out("   not in the capture: \(TerminalText.escape(gap.stringValue ?? ""))\n")
            }
        }
        if json { Console.out(JSON.array(collected).rendered(pretty: true) + "\n") }
        return failed ? .usageOrInput : .clean
    }
}
