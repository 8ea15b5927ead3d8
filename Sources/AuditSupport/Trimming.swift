/// Which characters ``Swift/StringProtocol/trimming(_:)`` removes from both ends.
public struct TrimSet: Sendable {
    public let contains: @Sendable (Unicode.Scalar) -> Bool

    /// Unicode white space, line breaks included.
    public static let whitespace = TrimSet { $0.properties.isWhitespace }
    /// Space and horizontal tab: HTTP's optional white space (RFC 9110 §5.6.3).
    public static let spacesAndTabs = TrimSet { $0 == " " || $0 == "\t" }
    /// Tab and the space separators (Unicode Zs), not line breaks: what Foundation's
    /// `.whitespaces` set removes.
    public static let spaceSeparators = TrimSet {
        $0 == "\t" || $0 == " " || ($0.value >= 0x80 && $0.properties.generalCategory == .spaceSeparator)
    }
}

extension StringProtocol {
    /// The text without the leading and trailing characters of `set` (no Foundation needed).
    public func trimming(_ set: TrimSet = .whitespace) -> String {
        let scalars = Substring(self).unicodeScalars
        guard let first = scalars.firstIndex(where: { !set.contains($0) }),
            let last = scalars.lastIndex(where: { !set.contains($0) })
        else { return "" }
        return String(Substring(scalars[first...last]))
    }
}

extension String {
    /// Every occurrence of `target` replaced (no Foundation needed).
    public func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}

extension ArraySlice<UInt8> {
    /// The bytes without leading and trailing ASCII white space (space, tab, LF, VT, FF,
    /// CR): the byte-level form for hot paths that have not made a `String` yet.
    public func trimmingASCIIWhitespace() -> ArraySlice<UInt8> {
        self[asciiWhitespaceTrimmedIndices()]
    }

    /// Where ``trimmingASCIIWhitespace()``'s bytes are, without making the slice (a slice
    /// retains the storage it is cut from, a count other threads may share).
    @inlinable public func asciiWhitespaceTrimmedIndices() -> Range<Int> {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
        var first = startIndex, end = endIndex
        while first < end, isSpace(self[first]) { first += 1 }
        while end > first, isSpace(self[end - 1]) { end -= 1 }
        return first..<end
    }
}
