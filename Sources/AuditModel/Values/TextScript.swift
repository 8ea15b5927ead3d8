/// The kind of writing a text is in, as far as its glyphs' shape goes: ideographic scripts
/// (Chinese, Japanese kana and kanji, Korean hangul) fill a square of about 0.82 of the em
/// with ink, where alphabetic scripts (Latin, Cyrillic, Greek, Arabic, …) reach from cap
/// height or ascender down to the baseline, or the descender.
public enum TextScript: String, Sendable {
    case alphabetic, ideographic

    /// The script most of `text`'s letters are in (alphabetic when it has none, or a tie).
    public static func of(_ text: String) -> TextScript {
        var ideographs = 0, letters = 0
        for scalar in text.unicodeScalars where scalar.properties.isAlphabetic {
            if isIdeographic(scalar) { ideographs += 1 } else { letters += 1 }
        }
        return ideographs > letters ? .ideographic : .alphabetic
    }

    /// Han ideographs, kana, hangul, bopomofo and their compatibility blocks.
    public static func isIdeographic(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x11FF, 0x2E80...0x2FDF, 0x3040...0x30FF, 0x3100...0x318F, 0x31A0...0x31FF,
            0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA960...0xA97F, 0xAC00...0xD7FF, 0xF900...0xFAFF,
            0xFF66...0xFF9F, 0x20000...0x3134F:
            true
        default: false
        }
    }
}
