#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension UnsafeRawBufferPointer {
    /// Whether the two runs hold the same bytes (lengths first, then `memcmp`): the one
    /// comparison of raw byte runs — evidence bytes, evidence keys, journal keys and ids. A
    /// generic `elementsEqual` went byte by byte through two iterators.
    @inlinable public func hasSameBytes(as other: UnsafeRawBufferPointer) -> Bool {
        guard count == other.count else { return false }
        guard count > 0, let first = baseAddress, let second = other.baseAddress else { return true }
        return memcmp(first, second, count) == 0
    }

    /// Whether the run holds `text`'s UTF-8.
    @inlinable public func hasSameBytes(as text: StaticString) -> Bool {
        hasSameBytes(as: UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}
