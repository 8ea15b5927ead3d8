/// Audit identifiers: ULIDs (48-bit millisecond time + 80 random bits, Crockford base32),
/// so they sort by time.
public enum AuditID {
    static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")

    public static func make(milliseconds: UInt64 = UInt64(Timestamp.now())) -> String {
        var generator = SystemRandomNumberGenerator()
        let high = UInt64.random(in: 0...UInt64.max, using: &generator)
        let low = UInt16.random(in: 0...UInt16.max, using: &generator)
        var out: [Character] = []
        // 10 characters of time (50 bits, top 2 zero).
        for shift in stride(from: 45, through: 0, by: -5) {
            out.append(alphabet[Int((milliseconds >> UInt64(shift)) & 31)])
        }
        // 16 characters of randomness (80 bits).
        let random = (high, UInt64(low))
        for index in 0..<16 {
            let bit = index * 5
            let value: UInt64
            if bit + 5 <= 64 {
                value = (random.0 >> UInt64(59 - bit)) & 31
            } else if bit >= 64 {
                value = (random.1 >> UInt64(11 - (bit - 64))) & 31
            } else {
                let fromHigh = 64 - bit
                value = ((random.0 << UInt64(5 - fromHigh)) | (random.1 >> UInt64(16 - (5 - fromHigh)))) & 31
            }
            out.append(alphabet[Int(value)])
        }
        return String(out)
    }
}
