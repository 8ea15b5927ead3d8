/// Shell-style patterns for rule ids, element ids and screens: `*` matches any run of
/// characters, `?` one character; everything else matches itself.
public struct Glob: Sendable, Hashable, CustomStringConvertible {
    public let pattern: String
    private let characters: [Character]

    public init(_ pattern: String) {
        self.pattern = pattern
        self.characters = Array(pattern)
    }

    public var description: String { pattern }

    public func matches(_ text: String) -> Bool {
        let text = Array(text)
        var p = 0, t = 0
        var star = -1, mark = 0
        while t < text.count {
            if p < characters.count, characters[p] == "?" || characters[p] == text[t] {
                p += 1
                t += 1
            } else if p < characters.count, characters[p] == "*" {
                star = p
                mark = t
                p += 1
            } else if star >= 0 {
                p = star + 1
                mark += 1
                t = mark
            } else {
                return false
            }
        }
        while p < characters.count, characters[p] == "*" { p += 1 }
        return p == characters.count
    }
}
