/// `screen-reader.same-speech` — items that look different but that the screen reader says
/// in the same words: what tells them apart is seen, never heard.
public enum SameSpeechRule: Rule {
    public static let description = RuleDescription(
        for: Self.self,
        id: "screen-reader.same-speech",
        title: "Items that look different but sound the same",
        wcag: ["1.3.1"],
        severity: .warning,
        enabledIn: [.wcag],
        help: """
            Cards coloured by category, a row marked with a warning icon among plain ones, a button \
            drawn as the primary one beside a secondary twin: when the items say the same words, a \
            screen-reader user cannot tell them apart or find the one that differs — whether or not the \
            difference is also colour-only (color-only.group judges sight; this rule judges hearing). \
            Judged on the transcript: stops of one parent that speak exactly the same words, whose \
            colours differ (declared, or read from the screenshot's pixels: CIEDE2000 ≥ 10) or whose \
            images differ. Fix: say the difference — put the category, state or warning in the name or \
            value ("Spanish verbs, due today").
            """,
        examples: [
            // Review cards coloured by category, all saying "Review".
            RuleExample(
                ##"<element id="list" role="container" frame="0,100,390,200"><element id="a" role="button" label="Review" frame="0,100,390,90" background="#D32F2F"/><element id="b" role="button" label="Review" frame="0,200,390,90" background="#388E3C"/></element>"##,
                triggers: ["b"]),
            // One row marked with a warning icon.
            RuleExample(
                ##"<element id="list" role="container" frame="0,100,390,200"><element id="a" role="button" label="Backup" image="checkmark" frame="0,100,390,44"/><element id="b" role="button" label="Backup" image="exclamationmark.triangle" frame="0,150,390,44"/></element>"##,
                triggers: ["b"]),
            // The difference is said.
            RuleExample(
                ##"<element id="list" role="container" frame="0,100,390,200"><element id="a" role="button" label="Review, Spanish" frame="0,100,390,90" background="#D32F2F"/><element id="b" role="button" label="Review, Capitals" frame="0,200,390,90" background="#388E3C"/></element>"##
            ),
            // Alike, and saying alike: nothing to tell apart.
            RuleExample(
                ##"<element id="list" role="container" frame="0,100,390,200"><element id="a" role="button" label="Study" frame="0,100,74,44" background="#0060DF"/><element id="b" role="button" label="Study" frame="0,200,74,44" background="#0060DF"/></element>"##
            ),
            // Shades of one colour are one colour.
            RuleExample(
                ##"<element id="list" role="container" frame="0,100,390,200"><element id="a" role="button" label="Study" frame="0,100,74,44" background="#0060DF"/><element id="b" role="button" label="Study" frame="0,200,74,44" background="#0062E0"/></element>"##
            ),
        ])

    public enum ResultID: String, RuleResults {
        /// The evidence its findings carry beyond the keys its messages name.
        public static let moreEvidence: [EvidenceKey] = [.colors]

        case sameSpeech = "same-speech"

        public var message: String {
            "Looks different from ${other} (${kind}) but the screen reader says the same: \"${speech}\""
        }
    }

    /// The largest side, in points, of a stop whose colour is read from the screenshot.
    static let maximumPixelSide = 480.0

    public static func evaluate(_ context: inout RuleContext<ResultID>) {
        let snapshot = context.snapshot
        guard snapshot.capabilities.contains(.declaredColors) || snapshot.capabilities.contains(.colorsFromPixels) else {
            context.cannotJudge("no colours in this dialect (\(snapshot.dialect.rawValue)) and no screenshot")
            return
        }
        let transcript = Transcript.of(snapshot)
        let groups = groupsSayingAlike(transcript.stops, elements: snapshot.elements)
        let ends = Targets.subtreeEnds(in: snapshot)
        for members in groups {
            guard let first = members.first.map({ transcript.stops[$0].element }) else { continue }
            if context.outOfBudget() { return }
            let firstLook = Look(first, ends: ends, in: snapshot)
            let speech = transcript.stops[members[0]].speech
            for position in members.dropFirst() where transcript.stops[position].speech == speech {
                if context.outOfBudget() { return }
                let member = transcript.stops[position].element
                let look = Look(member, ends: ends, in: snapshot)
                guard let kind = firstLook.difference(from: look) else { continue }
                var evidence: Evidence = [
                    (.other, .string(snapshot.node(first).path)), (.kind, .string(kind)),
                    (.speech, .string(transcript.stops[position].speech)),
                ]
                if kind == "colour", let a = firstLook.color, let b = look.color {
                    evidence.append((.colors, .array([.string(a.hex), .string(b.hex)])))
                }
                context.report(.sameSpeech, element: member, evidence: evidence)
            }
        }
    }

    /// The stops that may be one group — one parent, one speech (its hash; speeches are
    /// compared whole when reported) — as positions in the transcript, each group in the
    /// order of its stops and the groups in the order of their first stops; groups of one
    /// are left out. Stops are bucketed by parent (a count per element, no hashing) and a
    /// parent's stops sorted by speech hash: two dictionaries keyed by parent and speech
    /// were most of this rule's time.
    static func groupsSayingAlike(_ stops: [TranscriptStop], elements: [Element]) -> [[Int]] {
        // Bucket by parent: counts, then starts, then the stops in transcript order.
        var starts = [Int32](repeating: 0, count: elements.count + 2)
        for position in stops.indices where !stops[position].speech.isEmpty {
            starts[Int(elements[stops[position].element].parent) + 2] += 1
        }
        for bucket in 1..<starts.count { starts[bucket] += starts[bucket - 1] }
        var bucketed = [Int32](repeating: 0, count: Int(starts[starts.count - 1]))
        for position in stops.indices where !stops[position].speech.isEmpty {
            let bucket = Int(elements[stops[position].element].parent) + 1
            bucketed[Int(starts[bucket])] = Int32(position)
            starts[bucket] += 1
        }
        // `starts[b]` is now bucket b's end, and `starts[b - 1]` its start.
        var groups: [[Int]] = []
        var members: [Int32] = []
        for bucket in 0..<(starts.count - 1) {
            let lower = bucket == 0 ? 0 : Int(starts[bucket - 1]), upper = Int(starts[bucket])
            guard upper - lower > 1 else { continue }
            members.removeAll(keepingCapacity: true)
            members.append(contentsOf: bucketed[lower..<upper])
            // By speech hash, then transcript order: runs of one hash are the groups.
            members.sort { (stops[Int($0)].speechHash, $0) < (stops[Int($1)].speechHash, $1) }
            var run = 0
            while run < members.count {
                let hash = stops[Int(members[run])].speechHash
                var next = run + 1
                while next < members.count, stops[Int(members[next])].speechHash == hash { next += 1 }
                if next - run > 1 { groups.append(members[run..<next].map { Int($0) }) }
                run = next
            }
        }
        groups.sort { $0[0] < $1[0] }
        return groups
    }

    /// What tells a stop apart by sight: its colour and the images inside it.
    struct Look {
        var color: RGBA?
        var images: Set<UInt64>

        init(_ index: Int, ends: borrowing [Int], in snapshot: borrowing Snapshot) {
            let element = snapshot.elements[index]
            color = element.background ?? element.foreground
            if color == nil, let screenshot = snapshot.screenshot, let frame = element.frame, frame.width > 0, frame.height > 0,
                frame.width <= maximumPixelSide, frame.height <= maximumPixelSide,
                case .success(let read) = screenshot.textColors(of: frame)
            {
                color = read.background
            }
            images = []
            for inside in index..<ends[index] where !snapshot.elements[inside].image.isAbsent {
                images.insert(snapshot.texts.hash(snapshot.elements[inside].image))
            }
        }

        /// How `other` differs by sight ("colour", "image"), or nil.
        func difference(from other: Look) -> String? {
            if let a = color, let b = other.color, PixelInk.differ(a, b) { return "colour" }
            if !images.isEmpty, !other.images.isEmpty, images != other.images { return "image" }
            return nil
        }
    }
}
