/// `<settings>` and `<animation>` of the native format.
extension SnapshotBuilder {
    func readSettings(_ attributes: AttributeList) {
        let line = tagPosition().line
        for attribute in attributes {
            let name = String(cString: attribute.name)
            withValue(attribute) { value in
                let read = ValueReader(builder: self, value: value, element: nil, owner: "settings", name: attribute.name, line: line)
                func flag() -> Bool? { read.flag() }
                switch name {
                case "reduce-motion": settings.reduceMotion = flag()
                case "differentiate-without-color": settings.differentiateWithoutColor = flag()
                case "increase-contrast": settings.increaseContrast = flag()
                case "reduce-transparency": settings.reduceTransparency = flag()
                case "content-size":
                    settings.contentSize = ContentSize(rawValue: ValueScanner.string(value).lowercased())
                    if settings.contentSize == nil {
                        recordInvalid(
                            element: nil, owner: "settings", name, value,
                            expected: "one of " + ContentSize.allCases.map(\.rawValue).joined(separator: " "), line: line)
                    }
                case "color-scheme":
                    settings.colorScheme = ColorScheme(rawValue: ValueScanner.string(value).lowercased())
                    if settings.colorScheme == nil {
                        recordInvalid(element: nil, owner: "settings", name, value, expected: "light or dark", line: line)
                    }
                default: break
                }
            }
        }
    }

    func readAnimation(_ attributes: AttributeList) {
        guard let owner = elementStack.last else { return }
        let line = tagPosition().line
        var animation = Animation(kind: .other, kindName: "other", element: Int(owner), line: line)
        for attribute in attributes {
            // Names matched as bytes: a screen can hold an animation on every row, and a
            // `String` per attribute was a percent of the daemon's time under load.
            let name = attribute.name
            withValue(attribute) { value in
                let read = ValueReader(
                    builder: self, value: value, element: Int(owner), owner: "animation",
                    name: attribute.name, line: line)
                func invalid(_ expected: String) { read.invalid(expected) }
                func flag() -> Bool? { read.flag() }
                if Self.named(name, "kind") {
                    // A known kind's name is the kind's own string; another is kept as written.
                    let known = Animation.Kind.allCases.first { $0.rawValue.utf8.elementsEqual(value) }
                    animation.kind = known ?? .other
                    animation.kindName = known?.rawValue ?? ValueScanner.string(value)
                } else if Self.named(name, "duration") {
                    if let seconds = ValueScanner.number(value), seconds >= 0 { animation.duration = seconds } else { invalid("a duration in seconds, not negative") }
                } else if Self.named(name, "repeat") {
                    if ValueScanner.equals(value, "forever") || ValueScanner.equals(value, "infinite") {
                        animation.repeatCount = .forever
                    } else if let count = ValueScanner.number(value), count >= 0 {
                        animation.repeatCount = .count(count)
                    } else {
                        invalid("a count or forever")
                    }
                } else if Self.named(name, "autoplay") {
                    animation.autoplay = flag()
                } else if Self.named(name, "honors-reduce-motion") {
                    animation.honorsReduceMotion = flag()
                } else if Self.named(name, "pausable") {
                    animation.pausable = flag()
                } else if Self.named(name, "distance") {
                    if let points = ValueScanner.number(value) { animation.distance = points } else { invalid("a number of points") }
                }
            }
        }
        animations.append(animation)
    }

    /// Whether the attribute's name (NUL-terminated bytes, as a front end gives them) is
    /// `expected`.
    static func named(_ name: UnsafePointer<UInt8>, _ expected: StaticString) -> Bool {
        let wanted = expected.utf8Start
        var offset = 0
        while offset < expected.utf8CodeUnitCount {
            if name[offset] != wanted[offset] { return false }
            offset += 1
        }
        return name[offset] == 0
    }
}
