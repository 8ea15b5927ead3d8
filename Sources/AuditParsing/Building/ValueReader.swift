/// Reads one attribute value of one element; a value that cannot be read is recorded as an
/// ``InvalidValue`` naming the attribute and what was expected, and `nil` is returned.
struct ValueReader {
    /// Unowned: a reader lives only inside one `withValue` call of its builder, and a
    /// retain per attribute would show in parse time.
    unowned(unsafe) let builder: SnapshotBuilder
    let value: UnsafeBufferPointer<UInt8>
    let element: Int?
    let owner: String
    let name: UnsafePointer<UInt8>
    let line: Int

    func invalid(_ expected: String) {
        builder.recordInvalid(element: element, owner: owner, String(cString: name), value, expected: expected, line: line)
    }

    func flag() -> Bool? {
        let result = ValueScanner.boolean(value)
        if result == nil { invalid("true or false") }
        return result
    }

    func colour() -> RGBA? {
        let result = RGBA(hex: value)
        if result == nil { invalid("a colour #RGB, #RRGGBB or #RRGGBBAA") }
        return result
    }

    func frame() -> Rect? {
        let result = ValueScanner.frame(value)
        if result == nil { invalid("x,y,width,height in points (numbers; width and height not negative)") }
        return result
    }
}
