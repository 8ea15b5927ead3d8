/// What a screen reader says on a screen, swipe by swipe: the ordered stops of its linear
/// navigation, each with the name, role, state and hint it announces and the whole
/// utterance. Computed from the snapshot alone (docs/transcripts.md says which of the
/// readers' rules are modelled and which are not).
public struct Transcript: Sendable {
    public let reader: ScreenReader
    /// The order each stop's name, role and state are said in.
    public let order: DescriptionOrder
    public let stops: [TranscriptStop]
    /// What the capture could not show that the reader would use (``CaptureGaps``): a stop
    /// that looks wrong may trace to one of these rather than to the model.
    public let gaps: [String]
    /// What was left out and why: system UI, other apps' windows, covered content.
    public let notes: [String]
    /// With a modal open, whether each element is outside it (the reader cannot reach it);
    /// empty when no modal is open.
    let besideModal: [Bool]

    /// The transcript of `snapshot` as `reader` (default: the platform's) would say it, in
    /// `order` (default: the reader's; VoiceOver has only one).
    public init(_ snapshot: Snapshot, reader: ScreenReader? = nil, order: DescriptionOrder? = nil) {
        let reader = reader ?? .default(for: snapshot.platform)
        let order = order.flatMap { DescriptionOrder.choices(for: reader).contains($0) ? $0 : nil } ?? .default(for: reader)
        let focus = FocusRules(snapshot, reader: reader)
        var stops: [TranscriptStop] = []
        // TalkBack reorders children by their effective bounds; Compose's traversal links
        // then order what is inside a ComposeView by position.
        let treeOrder = snapshot.elements.indices.filter { focus.isStop($0) }
        let visits = PositionalOrder.apply(
            to: reader == .talkback ? ReorderedChildren.apply(to: treeOrder, in: snapshot, focus: focus) : treeOrder, in: snapshot)
        stops.reserveCapacity(visits.count)
        // Read once for every stop (see ``SpokenStop/init(_:index:reader:focus:elements:texts:)``).
        let elements = snapshot.elements, texts = snapshot.texts
        for index in visits {
            let spoken = SpokenStop(snapshot, index: index, reader: reader, focus: focus, elements: elements, texts: texts)
            let speech = spoken.speech(reader, order: order)
            var hash = FNV1a()
            hash.add(speech)
            // TalkBack's text recognition reads an unlabelled node's pixels (OCR ran).
            let detected = reader == .talkback && spoken.name.isEmpty ? DetectedText.of(index, in: snapshot) : nil
            stops.append(
                TranscriptStop(
                    index: stops.count + 1, element: index, name: spoken.name, role: spoken.role,
                    state: spoken.state, hint: spoken.hint, usage: spoken.usage, actions: spoken.actions,
                    rotor: texts.isBlank(elements[index].rotor) ? nil : texts.string(elements[index].rotor),
                    detected: detected, speech: speech, speechHash: hash.value))
        }
        var notes: [String] = []
        if focus.leftOutSystem > 0 {
            notes.append("\(focus.leftOutSystem) elements of the system's UI or another app's window are not the app's stops")
        }
        if focus.leftOutCovered > 0 {
            notes.append("\(focus.leftOutCovered) elements painted over by a page above them are not stops")
        }
        if focus.leftOutBesideModal > 0 {
            notes.append("\(focus.leftOutBesideModal) elements outside the open modal (an alert, a view with accessibilityViewIsModal) are not stops")
        }
        if stops.isEmpty { notes.append("the reader finds nothing to say on this screen") }
        self.reader = reader
        self.order = order
        self.stops = stops
        gaps = CaptureGaps.of(snapshot, reader: reader, stops: stops)
        self.notes = notes
        self.besideModal = focus.besideModal
    }

    /// The transcript of `snapshot` by its platform's reader, computed once per snapshot
    /// whoever asks (rules, the journal).
    public static func of(_ snapshot: Snapshot) -> Transcript {
        snapshot.memo.value("transcript") { Transcript(snapshot) }
    }

    /// What a record of the transcript keeps: the reader, the digest, how many stops, and
    /// the speech of the first ones — small enough to hold while an audit writes its
    /// findings, when the stops themselves (11 MB at 100,000 elements) are let go.
    public struct Summary: Sendable {
        public let reader: ScreenReader
        public let digest: String
        public let stopCount: Int
        /// The speech of the first stops, at most the limit it was made with.
        public let speech: [String]

        public init(_ transcript: Transcript, speechLimit: Int) {
            reader = transcript.reader
            digest = transcript.digest
            stopCount = transcript.stops.count
            speech = transcript.stops.prefix(max(0, speechLimit)).map(\.speech)
        }
    }

    /// Whether element `index` is outside the open modal, out of the reader's reach.
    public func isBesideModal(_ index: Int) -> Bool {
        besideModal.indices.contains(index) && besideModal[index]
    }

    /// The stops the Headings rotor lists, in order: what a VoiceOver or TalkBack user jumps
    /// between to find their way down a long screen.
    public var headings: [TranscriptStop] { stops.filter { $0.role == .heading } }

    /// The custom rotors the capture declares, in order of their first stop, each with
    /// the stops it lists.
    public var rotors: [(name: String, stops: [TranscriptStop])] {
        var order: [String] = []
        var members: [String: [TranscriptStop]] = [:]
        for stop in stops {
            guard let rotor = stop.rotor else { continue }
            if members[rotor] == nil { order.append(rotor) }
            members[rotor, default: []].append(stop)
        }
        return order.map { ($0, members[$0] ?? []) }
    }

    /// A stable digest of what is said, in order (16 hex digits): the same screen saying
    /// the same things in the same order has the same digest from build to build, whatever
    /// its frames or element ids.
    public var digest: String {
        var hash = FNV1a()
        hash.add(reader.rawValue)
        // The default order adds nothing: digests made before the setting stay.
        if order != .default(for: reader) { hash.add(order.rawValue) }
        for stop in stops {
            hash.add(0x1E)
            hash.add(stop.speech)
        }
        return FNV1a.hex(hash.value)
    }
}

/// One stop: where it is and what is said there.
///
/// Laid out small — 72 bytes, not 112 — because a transcript holds one for every stop of
/// the screen while the rules run (98,000 on a 100,000-element screen): positions as
/// 32-bit numbers, and what few stops have (a hint, actions, a rotor) behind one reference.
public struct TranscriptStop: Sendable {
    /// A stop's hint, custom actions, rotor and detected text, when it has any.
    final class Extras: Sendable {
        let hint: String?
        let actions: [String]
        let rotor: String?
        let detected: String?

        init(hint: String?, actions: [String], rotor: String?, detected: String?) {
            self.hint = hint
            self.actions = actions
            self.rotor = rotor
            self.detected = detected
        }
    }

    private let position: Int32
    private let focused: Int32
    /// The name as the reader composes it ("" when it has none).
    public let name: String
    /// The whole utterance in the reader's words: name, value, role, state, hint.
    public let speech: String
    /// The FNV-1a hash of ``speech``, made once with it: rules on two threads that each
    /// hashed every stop's speech retained the same strings, a contended count.
    public let speechHash: UInt64
    public let state: [SpokenState]
    private let extras: Extras?
    public let role: SpokenRole?
    /// ``UsageHint``'s raw value, `UInt8.max` for none (one byte in the padding).
    private let usage: UInt8

    init(
        index: Int, element: Int, name: String, role: SpokenRole?, state: [SpokenState], hint: String?, usage: UsageHint? = nil,
        actions: [String], rotor: String?, detected: String? = nil, speech: String, speechHash: UInt64
    ) {
        position = Int32(truncatingIfNeeded: index)
        focused = Int32(truncatingIfNeeded: element)
        self.usage = usage?.rawValue ?? UInt8.max
        self.name = name
        self.speech = speech
        self.speechHash = speechHash
        self.state = state
        extras =
            hint == nil && actions.isEmpty && rotor == nil && detected == nil
            ? nil : Extras(hint: hint, actions: actions, rotor: rotor, detected: detected)
        self.role = role
    }

    /// 1-based position in the swipe order.
    public var index: Int { Int(position) }
    /// The element focused.
    public var element: Int { Int(focused) }
    public var hint: String? { extras?.hint }
    /// The reader's usage hint ("Double-tap to activate"), said after a pause; not in ``speech``.
    public var usageHint: UsageHint? { UsageHint(rawValue: usage) }
    /// Custom actions, by name (the actions rotor, TalkBack's actions menu).
    public var actions: [String] { extras?.actions ?? [] }
    /// The custom rotor that lists this stop, by name.
    public var rotor: String? { extras?.rotor }
    /// TalkBack: the text OCR read inside an unlabelled stop, which TalkBack's text
    /// recognition may say ("Detected: text, …"); not in ``speech``. Only when OCR ran.
    public var detectedText: String? { extras?.detected }
}
