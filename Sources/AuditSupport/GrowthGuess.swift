/// How far to grow a buffer filled from a document as it is read: by a guess from the
/// share read so far, not by doubling. The parser's elements and text are held through
/// the audit, and doubling left up to half of each empty (room for 24,000 elements and
/// 1.9 MB of text on a 100,000-element screen).
public enum GrowthGuess {
    /// The capacity for a buffer holding `count` items, which needs room for `needed`,
    /// after `read` bytes of a document of `total`: what the rate so far gives the whole
    /// document, and `1/slack` of that more (plus `extra`), at least a quarter more than
    /// now, so that a document whose items crowd its end still grows in few copies.
    /// Without the bytes read, twice `count`.
    public static func capacity(count: Int, needed: Int, read: Int, of total: Int, slack: Int, extra: Int) -> Int {
        guard read > 0, read < total else { return max(needed, 2 * count) }
        let guess = Int((Double(count) * Double(total) / Double(read)).rounded(.up))
        return max(needed, count + count / 4, guess + guess / slack) + extra
    }
}
