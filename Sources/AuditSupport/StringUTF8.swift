extension String {
    /// Calls `body` with the string's UTF-8 bytes. Native and small strings lend them in
    /// place; `withUTF8` on a copy (the only way it can be called on a `let`) copies the
    /// string first, which showed in every report written. Others are made contiguous.
    @inline(__always)
    public func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        var contiguous = self
        return try contiguous.withUTF8(body)
    }
}
