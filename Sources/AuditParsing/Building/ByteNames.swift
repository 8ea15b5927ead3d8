/// Enumerated attribute values read straight from bytes (no `String` per value): roles,
/// font weights and text styles recur on every element of a snapshot.
enum ByteNames {
    typealias Bytes = UnsafeBufferPointer<UInt8>

    static let roles: [(StaticString, Role)] = [
        ("text", .text), ("button", .button), ("image", .image), ("container", .container), ("cell", .cell),
        ("switch", .switch), ("link", .link), ("textfield", .textfield), ("window", .window), ("slider", .slider),
        ("stepper", .stepper), ("checkbox", .checkbox), ("radio", .radio), ("tab", .tab), ("progress", .progress),
        ("other", .other),
    ]

    static let weights: [(StaticString, Int)] = [
        ("regular", 400), ("bold", 700), ("semibold", 600), ("medium", 500), ("light", 300), ("heavy", 800),
        ("black", 900), ("thin", 200), ("ultralight", 100),
    ]

    static let styles: [(StaticString, TextStyle)] = [
        ("body", .body), ("headline", .headline), ("subheadline", .subheadline), ("footnote", .footnote),
        ("caption1", .caption1), ("caption2", .caption2), ("callout", .callout), ("title1", .title1),
        ("title2", .title2), ("title3", .title3), ("large-title", .largeTitle), ("custom", .custom),
    ]

    static func role(_ bytes: Bytes) -> Role? {
        for (name, role) in roles where ValueScanner.equals(bytes, name) { return role }
        return nil
    }

    /// Named weights in lower case and plain numbers 1…1000; other spellings fall back to
    /// ``FontWeightName/weight(of:)``.
    static func fontWeight(_ bytes: Bytes) -> Int? {
        for (name, weight) in weights where ValueScanner.equals(bytes, name) { return weight }
        guard !bytes.isEmpty, bytes.count <= 4, bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let number = bytes.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        return (1...1000).contains(number) ? number : nil
    }

    static func textStyle(_ bytes: Bytes) -> TextStyle? {
        for (name, style) in styles where ValueScanner.equals(bytes, name) { return style }
        return nil
    }
}
