/// What TalkBack may read on an unlabelled node with its text recognition on (TalkBack 12.1
/// and later: "Detected: text, …" after a node with nothing to say): the words OCR read on
/// the screenshot inside the stop's bounds, when the audit ran OCR (``Snapshot/recognizedText``).
/// VoiceOver's Screen Recognition works otherwise (it invents elements of its own) and is
/// not modelled.
enum DetectedText {
    /// The least mean confidence of a line taken as read (0…100, Tesseract's scale).
    static let minimumConfidence = 60.0

    /// The recognised words inside element `index`'s bounds, line by line, or `nil`.
    static func of(_ index: Int, in snapshot: Snapshot) -> String? {
        guard let recognition = snapshot.recognizedText, let mapping = snapshot.screenshot,
            let frame = snapshot.elements[index].frame
        else { return nil }
        let box = mapping.pixels(of: frame)
        guard !box.isEmpty else { return nil }
        var lines: [String] = []
        for line in recognition.lines where line.confidence >= minimumConfidence {
            // Inside when the line's centre is.
            let centreX = line.box.x + line.box.width / 2, centreY = line.box.y + line.box.height / 2
            guard centreX >= box.x, centreX < box.x + box.width, centreY >= box.y, centreY < box.y + box.height else { continue }
            // A stray glyph ("@)", an icon read as a letter) is no text TalkBack would say.
            let text = SpokenStop.spoken(line.text)
            if text.unicodeScalars.filter({ $0.properties.isAlphabetic || $0.properties.numericType != nil }).count >= 2 { lines.append(text) }
        }
        return lines.isEmpty ? nil : lines.joined(separator: " ")
    }
}
