/// Which control speaks each element's text, as TalkBack and VoiceOver do: a control (an
/// interactive element, or one that takes the reader's focus as one stop) with a name of its own (a content description, an accessibility
/// label) says that name and silences what is inside it; a control without one says the
/// names of the plain elements inside it, in order, as its own name. The label rules ask
/// this so that they judge what is heard, not what is in the tree.
public struct SpeakingControls {
    /// For each element, its nearest ancestor that is a control (interactive, or focusable
    /// as one stop), or -1.
    public let speaker: [Int32]
    /// For each control without a name of its own, how many plain (non-interactive)
    /// elements with a name speak through it.
    let voices: [Int32]
    let snapshot: Snapshot

    public init(_ snapshot: Snapshot) {
        self.snapshot = snapshot
        let elements = snapshot.elements
        speaker = Targets.nearestAncestors(in: snapshot) { SpeakingControls.isControl(elements[$0]) }
        var voices = [Int32](repeating: 0, count: elements.count)
        for index in elements.indices {
            let control = Int(speaker[index])
            guard control >= 0, !SpeakingControls.isControl(elements[index]), elements[index].isAccessible,
                !snapshot.accessibleNameRef(of: index).isAbsent,
                snapshot.texts.isBlank(elements[control].label)
            else { continue }
            voices[control] &+= 1
        }
        self.voices = voices
    }

    /// A stop of its own: interactive, or focusable as one stop. A scrolling container is
    /// neither — the reader visits what it holds one by one, as TalkBack does a focusable
    /// list — even when it takes focus or a click.
    public static func isControl(_ element: Element) -> Bool {
        (element.isInteractive || element.focusable == true) && element.scrollAxes.isEmpty
    }

    /// True when element `index` is never heard: a plain element inside a control that says
    /// a name of its own instead (an icon font's glyph in a button described "Close").
    public func isSilenced(_ index: Int) -> Bool {
        let control = Int(speaker[index])
        guard control >= 0, !SpeakingControls.isControl(snapshot.elements[index]) else { return false }
        return !snapshot.texts.isBlank(snapshot.elements[control].label)
    }

    /// The control that says element `index`'s name as its whole name — `index` is the one
    /// plain element with a name inside a control that has none — or `nil`.
    public func control(namedOnlyBy index: Int) -> Int? {
        let control = Int(speaker[index])
        guard control >= 0, !SpeakingControls.isControl(snapshot.elements[index]),
            snapshot.texts.isBlank(snapshot.elements[control].label), voices[control] == 1
        else { return nil }
        return control
    }

    /// How many plain elements with a name speak through control `index` (0 when it has a
    /// name of its own).
    public func voiceCount(of index: Int) -> Int { Int(voices[index]) }
}
