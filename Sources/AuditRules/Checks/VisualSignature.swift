/// What an element looks like apart from its colours: used to find differences that are
/// carried by colour alone (WCAG 1.4.1).
struct VisualSignature: Hashable {
    var role: Role
    var width: Int
    var height: Int
    /// Hashes of the image name and visible text (0 when absent): equal strings, equal hashes.
    var image: UInt64
    var text: UInt64
    var fontWeight: Int16?
    var fontSize: Int?
    var underline: Bool
    var hasBorder: Bool

    /// `includeText`: whether visible text is part of the signature (a differing text is
    /// itself a non-colour difference).
    init(_ index: Int, in snapshot: borrowing Snapshot, includeText: Bool) {
        let element = snapshot.elements[index]
        role = element.role
        width = VisualSignature.halfPoints(element.frame?.width ?? -1)
        height = VisualSignature.halfPoints(element.frame?.height ?? -1)
        image = snapshot.texts.hash(element.image)
        // The reference first: read before it, the text table's storage was held (retained)
        // across the call. An absent text hashes to 0.
        let shown = includeText ? snapshot.visibleTextRef(of: index) : .absent
        text = snapshot.texts.hash(shown)
        fontWeight = element.fontWeight
        fontSize = element.fontSize.map(VisualSignature.halfPoints)
        underline = element.underline ?? false
        hasBorder = element.border != nil
    }

    /// A size in half points, rounded; saturating, since a snapshot may give any finite
    /// size (a frame 1e30 wide once trapped converting to `Int`). Whole half points — most
    /// sizes — skip the rounding call.
    static func halfPoints(_ value: Double) -> Int {
        let doubled = value * 2
        if let whole = Int(exactly: doubled) { return whole }
        let rounded = doubled.rounded()
        if rounded.isNaN { return 0 }
        if rounded >= 9.0e18 { return .max }
        if rounded <= -9.0e18 { return .min }
        return Int(rounded)
    }

    /// All of the signature folded into 64 bits, never 0 or 1 (callers use those as
    /// markers): equal signatures, equal keys; grouping by key and then comparing the
    /// signatures of the few members it pairs up costs a fraction of hashing whole values.
    var key: UInt64 {
        var mixer = WordMixer()
        mixer.add(UInt64(role.rawValue))
        mixer.add(UInt64(bitPattern: Int64(width)))
        mixer.add(UInt64(bitPattern: Int64(height)))
        mixer.add(image)
        mixer.add(text)
        mixer.add(fontWeight.map { UInt64(UInt16(bitPattern: $0)) } ?? 0x1_0000)
        mixer.add(fontSize.map { UInt64(bitPattern: Int64($0)) } ?? 0xFFFF_FFFF_0000_0001)
        mixer.add((underline ? 2 : 0) | (hasBorder ? 1 : 0))
        return mixer.value < 2 ? mixer.value + 2 : mixer.value
    }
}

/// Colour evidence for a colour-only difference: the two colours, and how far apart they
/// are (CIEDE2000) for normal vision and under each simulated deficiency.
enum ColorDifference {
    static func evidence(_ first: RGBA, _ second: RGBA) -> Evidence {
        var evidence: Evidence = [
            (.colors, .array([.string(first.hex), .string(second.hex)])),
            (.deltaE, .number((ColorMath.deltaE2000(first, second) * 10).rounded() / 10)),
        ]
        for deficiency in ColorMath.Deficiency.allCases {
            let delta = ColorMath.deltaE2000(ColorMath.simulate(first, deficiency), ColorMath.simulate(second, deficiency))
            evidence.append((.deltaE(under: deficiency), .number((delta * 10).rounded() / 10)))
        }
        return evidence
    }

    /// The element's distinguishing colour: its foreground, else its background.
    static func color(of element: Element) -> RGBA? { element.foreground ?? element.background }
}
