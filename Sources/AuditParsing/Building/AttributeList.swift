/// One attribute of a SAX2 start tag: its local name and its value bytes (not
/// NUL-terminated).
struct Attribute {
    let name: UnsafePointer<UInt8>
    let value: UnsafeBufferPointer<UInt8>
}

/// The attribute array of a SAX2 start tag (five pointers per attribute: local name,
/// prefix, namespace URI, value start, value end).
struct AttributeList: Sequence {
    let pointer: UnsafeMutablePointer<UnsafePointer<UInt8>?>?
    let count: Int

    struct Iterator: IteratorProtocol {
        let pointer: UnsafeMutablePointer<UnsafePointer<UInt8>?>?
        let count: Int
        var index = 0

        mutating func next() -> Attribute? {
            guard let pointer else { return nil }
            while index < count {
                let base = pointer + index * 5
                index += 1
                if let name = base[0], let start = base[3], let end = base[4], end >= start {
                    return Attribute(name: name, value: UnsafeBufferPointer(start: start, count: end - start))
                }
            }
            return nil
        }
    }

    func makeIterator() -> Iterator { Iterator(pointer: pointer, count: count) }
}
