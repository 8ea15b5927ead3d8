#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads typed attribute values straight from UTF-8 bytes, without building a `String`
/// first. Every reader returns `nil` for a value it cannot read; the caller records an
/// ``InvalidValue`` naming what was expected.
package enum ValueScanner {
    package typealias Bytes = UnsafeBufferPointer<UInt8>

    /// A finite decimal number: `[+-]digits[.digits][e[+-]digits]`, surrounding blanks
    /// allowed. `NaN`, `Infinity`, hex floats and overflow (`1e309`) are refused.
    package static func number(_ bytes: Bytes) -> Double? {
        number(bytes, from: 0, to: bytes.count)
    }

    static func number(_ bytes: Bytes, from start: Int, to end: Int) -> Double? {
        var lower = start, upper = end
        while lower < upper, isBlank(bytes[lower]) { lower += 1 }
        while upper > lower, isBlank(bytes[upper - 1]) { upper -= 1 }
        let length = upper - lower
        guard length > 0, length < 64 else { return nil }
        // Most numbers are plain decimals: converted exactly in one pass.
        if let plain = plainDecimal(bytes, from: lower, to: upper), plain.end == upper { return plain.value }
        var index = lower
        if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
        var digits = 0
        while index < upper, isDigit(bytes[index]) { index += 1; digits += 1 }
        if index < upper, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < upper, isDigit(bytes[index]) { index += 1; digits += 1 }
        }
        guard digits > 0 else { return nil }
        if index < upper, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < upper, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            var exponentDigits = 0
            while index < upper, isDigit(bytes[index]) { index += 1; exponentDigits += 1 }
            guard exponentDigits > 0 else { return nil }
        }
        guard index == upper else { return nil }
        // Syntax is checked; let the C library do the correctly rounded conversion.
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: length + 1) { buffer -> Double? in
            for offset in 0..<length { buffer[offset] = CChar(bitPattern: bytes[lower + offset]) }
            buffer[length] = 0
            guard let start = buffer.baseAddress else { return nil }
            let result = strtod(start, nil)
            return result.isFinite ? result : nil
        }
    }

    /// The common case, `[+-]digits[.digits]` with at most 15 significant digits and 10
    /// decimals, read from `start` up to the first byte that cannot continue it, and
    /// computed exactly: both the integer mantissa and the power of ten are exact doubles,
    /// and one division rounds correctly. Returns the value and where it stopped; `nil`
    /// without a digit or past those limits (the full syntax check then decides).
    @inline(__always)
    private static func plainDecimal(_ bytes: Bytes, from start: Int, to end: Int) -> (value: Double, end: Int)? {
        var index = start
        var negative = false
        if index < end {
            if bytes[index] == UInt8(ascii: "-") {
                negative = true
                index += 1
            } else if bytes[index] == UInt8(ascii: "+") {
                index += 1
            }
        }
        var mantissa: UInt64 = 0
        let integerStart = index
        readDigits(bytes, &index, end, into: &mantissa)
        let integerEnd = index
        // Leading zeros are not significant digits.
        var firstSignificant = integerStart
        while firstSignificant < integerEnd, bytes[firstSignificant] == UInt8(ascii: "0") { firstSignificant += 1 }
        var decimals = 0
        if index < end, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            readDigits(bytes, &index, end, into: &mantissa)
            decimals = index - fractionStart
        }
        // Past 15 significant digits the mantissa may not be exact (or may have wrapped).
        guard integerEnd > integerStart || decimals > 0, decimals <= 10,
            integerEnd - firstSignificant + decimals <= 15
        else { return nil }
        let magnitude = Double(mantissa) / powerOfTen(decimals)
        return (negative ? -magnitude : magnitude, index)
    }

    /// Appends the decimal digits from `index` on to `mantissa` (wrapping past 19 digits;
    /// the caller refuses those), leaving `index` at the first byte that is not one.
    @inline(__always)
    private static func readDigits(_ bytes: Bytes, _ index: inout Int, _ end: Int, into mantissa: inout UInt64) {
        while index < end {
            let digit = bytes[index] &- 0x30
            guard digit < 10 else { return }
            mantissa = mantissa &* 10 &+ UInt64(digit)
            index += 1
        }
    }

    /// 10^`exponent` for 0…10, exact.
    @inline(__always)
    private static func powerOfTen(_ exponent: Int) -> Double {
        switch exponent {
        case 0: 1
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        default: 1e10
        }
    }

    /// `true`/`false`, `1`/`0`, `yes`/`no` (any case).
    package static func boolean(_ bytes: Bytes) -> Bool? {
        switch bytes.count {
        case 1:
            if bytes[0] == UInt8(ascii: "1") { return true }
            if bytes[0] == UInt8(ascii: "0") { return false }
        case 2 where lowercasedEquals(bytes, "no"): return false
        case 3 where lowercasedEquals(bytes, "yes"): return true
        case 4 where lowercasedEquals(bytes, "true"): return true
        case 5 where lowercasedEquals(bytes, "false"): return false
        default: break
        }
        return nil
    }

    /// `x,y,width,height` (`frame`): four finite numbers, width and height not negative.
    package static func frame(_ bytes: Bytes) -> Rect? {
        // The common form, four plain decimals and three commas with no blank, in one pass.
        let end = bytes.count
        if let x = plainDecimal(bytes, from: 0, to: end), x.end < end, bytes[x.end] == UInt8(ascii: ","),
            let y = plainDecimal(bytes, from: x.end + 1, to: end), y.end < end, bytes[y.end] == UInt8(ascii: ","),
            let width = plainDecimal(bytes, from: y.end + 1, to: end), width.end < end, bytes[width.end] == UInt8(ascii: ","),
            let height = plainDecimal(bytes, from: width.end + 1, to: end), height.end == end
        {
            guard width.value >= 0, height.value >= 0 else { return nil }
            return Rect(x: x.value, y: y.value, width: width.value, height: height.value)
        }
        // Anything else: four comma-separated numbers, read in place (no array per frame).
        var parts: (Double, Double, Double, Double) = (0, 0, 0, 0)
        var count = 0
        var start = 0
        for index in 0...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: ",") {
            guard count < 4, let value = number(bytes, from: start, to: index) else { return nil }
            switch count {
            case 0: parts.0 = value
            case 1: parts.1 = value
            case 2: parts.2 = value
            default: parts.3 = value
            }
            count += 1
            start = index + 1
        }
        guard count == 4, parts.2 >= 0, parts.3 >= 0 else { return nil }
        return Rect(x: parts.0, y: parts.1, width: parts.2, height: parts.3)
    }

    /// Android `bounds="[x1,y1][x2,y2]"` in pixels. A box with its corners swapped is read
    /// as zero-size at the first corner, as uiautomator means it (the node is off screen).
    package static func androidBounds(_ bytes: Bytes) -> Rect? {
        var numbers: [Double] = []
        numbers.reserveCapacity(4)
        var index = 0
        func expect(_ byte: UInt8) -> Bool {
            while index < bytes.count, isBlank(bytes[index]) { index += 1 }
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        for _ in 0..<2 {
            guard expect(UInt8(ascii: "[")) else { return nil }
            let first = index
            while index < bytes.count, bytes[index] != UInt8(ascii: ",") { index += 1 }
            guard let x = number(bytes, from: first, to: index), expect(UInt8(ascii: ",")) else { return nil }
            let second = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "]") { index += 1 }
            guard let y = number(bytes, from: second, to: index), expect(UInt8(ascii: "]")) else { return nil }
            numbers += [x, y]
        }
        while index < bytes.count, isBlank(bytes[index]) { index += 1 }
        guard index == bytes.count else { return nil }
        return Rect(
            x: numbers[0], y: numbers[1],
            width: max(0, numbers[2] - numbers[0]), height: max(0, numbers[3] - numbers[1]))
    }

    /// True when the bytes spell `word` exactly.
    static func equals(_ bytes: Bytes, _ word: StaticString) -> Bool {
        guard bytes.count == word.utf8CodeUnitCount else { return false }
        let expected = word.utf8Start
        for index in 0..<bytes.count where bytes[index] != expected[index] { return false }
        return true
    }

    static func string(_ bytes: Bytes) -> String { String(decoding: bytes, as: UTF8.self) }

    private static func lowercasedEquals(_ bytes: Bytes, _ word: StaticString) -> Bool {
        let expected = word.utf8Start
        for index in 0..<bytes.count where bytes[index] | 0x20 != expected[index] { return false }
        return true
    }

    @inline(__always) static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    @inline(__always) static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
}
