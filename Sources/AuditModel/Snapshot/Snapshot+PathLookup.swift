extension Snapshot {
    /// The element a path written by ``path(of:)`` names (`/hierarchy/node[1]/node[3]`), or
    /// `nil` when none of this snapshot does: each step is matched against the children of
    /// the step before by tag name and place, so the cost is the siblings on the way down.
    /// Findings name other elements by path in their evidence; fingerprints read them back.
    public func element(atPath path: some Collection<UInt8>) -> Int? {
        var bytes = path[...]
        let root = pathRoot.withUTF8Buffer { Array($0) }
        guard bytes.starts(with: root) else { return nil }
        bytes = bytes.dropFirst(root.count)
        var candidates = roots
        var found: Int?
        while !bytes.isEmpty {
            guard bytes.first == UInt8(ascii: "/") else { return nil }
            bytes = bytes.dropFirst()
            guard let open = bytes.firstIndex(of: UInt8(ascii: "[")),
                let close = bytes[open...].firstIndex(of: UInt8(ascii: "]"))
            else { return nil }
            let name = bytes[..<open]
            var position = 0
            for digit in bytes[bytes.index(after: open)..<close] {
                guard digit >= 0x30, digit <= 0x39, position < Int(Int32.max) / 10 else { return nil }
                position = position * 10 + Int(digit - 0x30)
            }
            bytes = bytes[bytes.index(after: close)...]
            var match: Int?
            for candidate in candidates {
                let element = elements[candidate]
                if Int(element.position) == position, texts.withBytes(element.tagName, { $0.elementsEqual(name) }) {
                    match = candidate
                    break
                }
            }
            guard let match else { return nil }
            found = match
            candidates = Array(childIndices(of: match))
        }
        return found
    }
}
