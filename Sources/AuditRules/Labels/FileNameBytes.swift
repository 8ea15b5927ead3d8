extension LabelFilenameRule {
    /// What ``pattern(of:image:)`` says of a label without a drawn image, read from its
    /// bytes: the same answer for every ASCII label, without the strings (trimmed,
    /// lower-cased, sliced into characters) the general path makes — on screens of short
    /// coded labels ("H123", "SKU-42") those strings were most of the rule. A label with a
    /// byte past ASCII is left to the strings (``ByteVerdict/needsString``): its edges may
    /// be Unicode spaces and its letters need Unicode's case.
    package enum ByteVerdict: Equatable, Sendable {
        case notAFileName
        case fileName(String)
        case needsString
    }

    static let extensionBytes = extensions.map { Array($0.utf8) }
    static let genericNameBytes = genericNames.map { Array($0.utf8) }

    /// ``ByteVerdict`` for these label bytes (see ``pattern(of:image:)`` for the patterns,
    /// checked here in the same order).
    package static func byteVerdict(_ label: ArraySlice<UInt8>) -> ByteVerdict {
        guard !label.contains(where: { $0 >= 0x80 }) else { return .needsString }
        guard hasMarker(label) else { return .notAFileName }
        let trimmed = label.asciiWhitespaceTrimmedIndices()
        guard !trimmed.isEmpty else { return .notAFileName }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: trimmed.count) { buffer -> ByteVerdict in
            var hasUpper = false, hasSpace = false
            for (offset, byte) in label[trimmed].enumerated() {
                let isUpper = byte >= 0x41 && byte <= 0x5A
                hasUpper = hasUpper || isUpper
                hasSpace = hasSpace || byte == 0x20
                buffer[offset] = isUpper ? byte | 0x20 : byte
            }
            let lower = UnsafeBufferPointer(buffer)
            if !hasSpace, let dot = lower.lastIndex(of: UInt8(ascii: ".")),
                extensionBytes.contains(where: { lower[(dot + 1)...].elementsEqual($0) })
            {
                return .fileName("image file extension")
            }
            for camera in cameraPrefixBytes where lower.starts(with: camera) {
                if lower[camera.count...].contains(where: isDigit) { return .fileName("camera file name") }
            }
            guard !hasSpace else { return .notAFileName }
            for form in prefixForms where lower.starts(with: form.underscore) || lower.starts(with: form.dash) {
                return .fileName("asset prefix \(form.prefix)\(Character(Unicode.Scalar(lower[form.underscore.count - 1])))")
            }
            let letters = lower.firstIndex(where: { !isLetter($0) }) ?? lower.count
            let rest = lower[letters...]
            if genericNameBytes.contains(where: { lower[..<letters].elementsEqual($0) }), !rest.isEmpty,
                rest.allSatisfy({ isDigit($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") })
            {
                return .fileName("generic name with a number")
            }
            if lower.contains(UInt8(ascii: "_")),
                lower.allSatisfy({ isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") }),
                lower.contains(where: isLetter), !hasUpper
            {
                return .fileName("snake_case identifier")
            }
            return .notAFileName
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    /// An ASCII letter after lower-casing (what `Character.isLetter` says of ASCII).
    private static func isLetter(_ byte: UInt8) -> Bool { byte >= 0x61 && byte <= 0x7A }
}
