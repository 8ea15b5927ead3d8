import Foundation

/// Reading attribute values for the dialects: the model's key of each name (cached by
/// libxml2's interned pointer), values with `&#38;` resolved, invalid values recorded where
/// they are.
extension SnapshotBuilder {
    /// The model's key for an attribute of the document's dialect (`D`, known to the
    /// caller: the dialect's own decoder).
    func attributeKey<D: SnapshotDialect>(_ attribute: Attribute, of dialect: D.Type) -> D.Key {
        let pointer = UnsafeRawPointer(attribute.name)
        if let raw = attributeKeys.lookup(pointer) { return D.Key(rawValue: raw) ?? .unknown }
        let key = D.attributeKey(named: String(cString: attribute.name))
        attributeKeys.insert(pointer, key.rawValue)
        return key
    }

    func recordInvalid(element: Int?, owner: String, _ attribute: String, _ value: Bytes, expected: String, line: Int) {
        invalid.append(
            InvalidValue(
                element: element, owner: owner, attribute: attribute,
                value: ValueScanner.string(value), expected: expected, line: line))
    }

    /// Hands the attribute's value to `body`, with `&#38;` (how libxml2 passes a literal
    /// `&` when entities are not substituted) turned back into `&`.
    func withValue(_ attribute: Attribute, _ body: (Bytes) -> Void) {
        let value = attribute.value
        guard let start = value.baseAddress, memchr(start, Int32(UInt8(ascii: "&")), value.count) != nil else { return body(value) }
        scratch.removeAll(keepingCapacity: true)
        var index = 0
        while index < value.count {
            if value[index] == UInt8(ascii: "&"), index + 4 < value.count,
                value[index + 1] == UInt8(ascii: "#"), value[index + 2] == UInt8(ascii: "3"),
                value[index + 3] == UInt8(ascii: "8"), value[index + 4] == UInt8(ascii: ";")
            {
                scratch.append(UInt8(ascii: "&"))
                index += 5
            } else {
                scratch.append(value[index])
                index += 1
            }
        }
        let copy = scratch
        copy.withUnsafeBufferPointer { body($0) }
    }
}

extension SnapshotBuilder {
    /// Calls `body` with each attribute `dialect` knows: its key, and a reader of its value
    /// (`&#38;` resolved) that records an invalid value at the attribute's place. Unknown
    /// attributes cost one cached lookup.
    @inline(__always)
    func forEachKnownAttribute<D: SnapshotDialect>(
        _ attributes: AttributeList, of dialect: D.Type, element index: Int,
        owner: String, line: Int, _ body: (D.Key, ValueReader) -> Void
    ) {
        for attribute in attributes {
            let key = attributeKey(attribute, of: dialect)
            if key == .unknown { continue }
            withValue(attribute) { value in
                body(key, ValueReader(builder: self, value: value, element: index, owner: owner, name: attribute.name, line: line))
            }
        }
    }
}
