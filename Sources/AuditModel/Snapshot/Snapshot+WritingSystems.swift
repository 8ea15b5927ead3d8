extension WritingSystems {
    /// The systems of the text `snapshot` shows: the texts, labels and values of its
    /// elements that are the app's (the system's UI is in the device's language).
    public static func of(_ snapshot: Snapshot) -> WritingSystems {
        var found: WritingSystems = []
        for element in snapshot.elements where !element.isSystemUI {
            for ref in [element.text, element.label, element.value] where !ref.isAbsent {
                // Bytes at 0xE1 and above lead the three- and four-byte sequences these are in.
                guard snapshot.texts.withBytes(ref, { $0.contains { $0 >= 0xE1 } }), let text = snapshot.texts.string(ref) else { continue }
                found.formUnion(of(text))
            }
            if found == [.han, .kana, .hangul] { break }
        }
        return found
    }
}
