/// Writes numbers rounded to a few decimals as the shortest decimal text, straight to
/// bytes: what `String(Double)` prints for such values, without its cost (it was a tenth
/// of the time spent rendering a finding).
///
/// A value rounded to `decimals` places is the double nearest to `K / 10^decimals` for an
/// integer `K`; below 10¹¹ no shorter decimal lies within half an ulp of it, so the digits
/// of `K` — trailing zeros dropped — are exactly the shortest round-trip form.
public enum DecimalWriter {
    /// Magnitudes below this (and below 10¹⁵ once scaled) take the fast path; larger ones
    /// go through `String(Double)`.
    public static let fastLimit = 1e11

    /// Appends `value` rounded to `decimals` (at most 6) places: `12`, `4.5`, `-0.125`.
    /// Integers print without a decimal point and `-0` as `0`; non-finite values print
    /// nothing (callers decide what they stand for).
    public static func append<Sink: ByteSink>(_ value: Double, decimals: Int, to out: inout Sink) {
        // Whole numbers (frames, sizes, counts: most numbers in a report) need no scaling
        // or rounding; -0 prints as 0.
        if let whole = Int64(exactly: value), whole.magnitude < 1_000_000_000_000_000 { return JSON.writeInt(Int(whole), to: &out) }
        let scale = powersOfTen[min(max(decimals, 0), 6)]
        guard value.isFinite, abs(value) < fastLimit, abs(value) * scale < 1e15 else {
            return appendSlow(value, scale: scale, to: &out)
        }
        let scaled = Int64((value * scale).rounded())
        if scaled == 0 { return out.write(byte: UInt8(ascii: "0")) }
        if scaled < 0 { out.write(byte: UInt8(ascii: "-")) }
        let magnitude = scaled.magnitude
        let unit = UInt64(scale)
        JSON.writeInt(Int(magnitude / unit), to: &out)
        var fraction = magnitude % unit
        guard fraction > 0 else { return }
        // Drop trailing zeros, then write the remaining digits, zero-padded on the left.
        var digits = decimals
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        out.write(byte: UInt8(ascii: "."))
        var buffer: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &buffer) { bytes in
            for position in stride(from: digits - 1, through: 0, by: -1) {
                bytes[position] = UInt8(ascii: "0") + UInt8(fraction % 10)
                fraction /= 10
            }
            out.write(bytes: UnsafeRawBufferPointer(rebasing: bytes[0..<digits]))
        }
    }

    /// Large and non-finite values: the standard library's shortest form of the rounded value.
    private static func appendSlow<Sink: ByteSink>(_ value: Double, scale: Double, to out: inout Sink) {
        // (Whole values below 10¹⁵ never get here: `append` writes them first.)
        guard value.isFinite else { return }
        let rounded = (value * scale).rounded() / scale
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return JSON.writeInt(Int(rounded), to: &out) }
        out.write(utf8: String(rounded))
    }

    private static let powersOfTen: [Double] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000]
}
