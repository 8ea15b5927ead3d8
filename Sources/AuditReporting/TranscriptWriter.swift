/// A transcript as JSON (docs/transcripts.md): the snapshot's identity, the reader, each
/// stop with where it is (line, column, path, frame) and what is said, the digest and the
/// notes. The body of `POST /v1/transcripts`.
public enum TranscriptWriter {
    public static func json(_ transcript: Transcript, of snapshot: Snapshot) -> JSON {
        var identity: [(String, JSON)] = [
            ("app", .optional(snapshot.app)), ("build", .optional(snapshot.build)), ("screen", .optional(snapshot.screen)),
            ("platform", .string(snapshot.platform.rawValue)), ("dialect", .string(snapshot.dialect.rawValue)),
            ("elements", .int(snapshot.elements.count)),
        ]
        if !snapshot.notes.isEmpty { identity.append(("notes", .array(snapshot.notes.map(JSON.string)))) }
        let stops: [JSON] = transcript.stops.map { stop in
            let element = snapshot.elements[stop.element]
            let frame: JSON = element.frame.map { .array([.number($0.x), .number($0.y), .number($0.width), .number($0.height)]) } ?? .null
            return .object([
                ("index", .int(stop.index)),
                ("element", .optional(snapshot.node(stop.element).id)),
                ("line", .int(Int(element.line))), ("column", .int(Int(element.column))),
                ("path", .string(snapshot.path(of: stop.element))), ("frame", frame),
                ("name", .string(stop.name)), ("role", stop.role.map { .string($0.rawValue) } ?? .null),
                ("state", .array(stop.state.map { .string($0.rawValue) })), ("hint", .optional(stop.hint)),
                ("usage_hint", .optional(stop.usageHint?.text)),
                ("detected_text", .optional(stop.detectedText)),
                ("actions", .array(stop.actions.map(JSON.string))),
                ("speech", .string(stop.speech)),
            ])
        }
        return .object([
            ("snapshot", .object(identity)), ("reader", .string(transcript.reader.rawValue)),
            ("order", .string(transcript.order.rawValue)),
            ("digest", .string(transcript.digest)), ("stops", .array(stops)),
            ("headings", .array(transcript.headings.map { .int($0.index) })),
            ("rotors", .array(transcript.rotors.map { .object([("name", .string($0.name)), ("stops", .array($0.stops.map { .int($0.index) }))]) })),
            ("notes", .array(transcript.notes.map(JSON.string))),
            ("not_in_capture", .array(transcript.gaps.map(JSON.string))),
        ])
    }
}
