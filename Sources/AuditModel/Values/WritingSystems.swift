/// The writing systems a screen's own text is in, beyond the Latin alphabet OCR always reads:
/// Chinese (Han ideographs), Japanese kana, Korean hangul. OCR loads the language data for
/// these only on the screens that need it (Chinese data makes a screen 2–3× slower), and
/// what it cannot read is said, not taken for text.
public struct WritingSystems: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let han = WritingSystems(rawValue: 1 << 0)
    public static let kana = WritingSystems(rawValue: 1 << 1)
    public static let hangul = WritingSystems(rawValue: 1 << 2)

    /// Each system with its name for people and the Debian package of the Tesseract data
    /// that reads it.
    public static let named: [(system: WritingSystems, name: String, package: String)] = [
        (.han, "Chinese", "tesseract-ocr-chi-sim"), (.kana, "Japanese", "tesseract-ocr-jpn"), (.hangul, "Korean", "tesseract-ocr-kor"),
    ]

    /// The systems of one character (none for the Latin alphabet and most others).
    public static func of(_ scalar: Unicode.Scalar) -> WritingSystems {
        switch scalar.value {
        case 0x3040...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F: .kana
        case 0x1100...0x11FF, 0x3130...0x318F, 0xA960...0xA97F, 0xAC00...0xD7FF: .hangul
        case 0x2E80...0x2FDF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3134F: .han
        default: []
        }
    }

    /// The systems of `text`.
    public static func of(_ text: String) -> WritingSystems {
        var found: WritingSystems = []
        for scalar in text.unicodeScalars where scalar.value >= 0x1100 { found.formUnion(of(scalar)) }
        return found
    }

    /// The names of the systems in the set, in order (`Chinese, Japanese`).
    public var names: [String] { Self.named.filter { contains($0.system) }.map(\.name) }
    /// The Debian packages that read the systems in the set.
    public var packages: [String] { Self.named.filter { contains($0.system) }.map(\.package) }
}
