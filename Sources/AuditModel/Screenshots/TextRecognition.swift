/// What OCR read on a snapshot's screenshot (``Snapshot/recognizedText``; docs/ocr.md):
/// lines of words, each with its box in screenshot pixels and the engine's confidence
/// (0–100). Made by `AuditOCR` when an audit asks for it; the `text.*` rules read it.
public struct TextRecognition: Sendable {
    public struct Word: Sendable {
        public let text: String
        public let confidence: Double
        public let box: PixelRect

        public init(text: String, confidence: Double, box: PixelRect) {
            self.text = text
            self.confidence = confidence
            self.box = box
        }
    }

    public struct Line: Sendable {
        public let words: [Word]
        public let box: PixelRect

        public init(words: [Word], box: PixelRect) {
            self.words = words
            self.box = box
        }

        /// The line's words joined by spaces.
        public var text: String { words.map(\.text).joined(separator: " ") }
        /// The mean confidence of its words.
        public var confidence: Double { words.isEmpty ? 0 : words.map(\.confidence).reduce(0, +) / Double(words.count) }
    }

    public let lines: [Line]
    /// The languages the engine read with (`eng`, `eng+chi_sim`).
    public let languages: String
    /// Why the reading is partial or missing (out of time, no language data), nil when
    /// every line was read: the rules are then incomplete with this reason.
    public let incomplete: String?
    public let milliseconds: Double
    /// Writing systems the screen's text is in that the loaded languages cannot read (their
    /// data is not installed): words read over them are shapes misread, not text.
    public let unreadable: WritingSystems

    public init(lines: [Line], languages: String, incomplete: String?, milliseconds: Double, unreadable: WritingSystems = []) {
        self.lines = lines
        self.languages = languages
        self.incomplete = incomplete
        self.milliseconds = milliseconds
        self.unreadable = unreadable
    }
}
